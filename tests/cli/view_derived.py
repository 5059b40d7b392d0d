import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class DerivedViews:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag):
        a = pld.alloc_window_buffer(64)
        data = pld.window(a, [64], dtype=pl.FP32)
        b = pld.alloc_window_buffer(64)
        va = pld.window(b, [8], dtype=pl.FP32)
        c = pld.alloc_window_buffer(64)
        vb = pld.window(c, [8], dtype=pl.FP32)
        d = pld.alloc_window_buffer(256)
        vd = pld.window(d, [64], dtype=pl.FP32)
        e = pld.alloc_window_buffer(64)
        ve = pld.window(e, [8], dtype=pl.FP32)
        f = pld.alloc_window_buffer(64)
        vf = pld.window(f, [8], dtype=pl.FP32)
        n = data.shape[0]
        scratch = pl.tensor.create([n, data.shape[1]], dtype=data.dtype)
        print(len(data), vf.shape)
        self.chip(data, device=0)
        self.chip(data[0:32], device=1)
        pair = (va, vb)
        self.chip(pair[0], device=2)
        self.chip(vd.reshape([8, 8]), device=3)
        first, second = pair
        self.chip(second, device=4)
        v = ve if flag else vf
        self.chip(v, device=5)
        views = [ve, vf]
        for r in pl.range(pld.world_size()):
            self.chip(views[r % 2], device=r)
        return data

# A view reaches a dispatch through a slice, a tuple and an element read back from it, a
# method call, an unpacking, a conditional expression and a list
# indexed in a world loop: each gives the dispatch's devices to every allocation it may
# view. A view's metadata (data.shape, data.dtype) and builtins that only read it (len,
# print) use no device: passing them on is no escape.
# RUN: %commscope-opt --format=json %s > %t.plan
# RUN: %FileCheck --check-prefix=PLAN %s < %t.plan
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null

# `pair` may be va or vb, so b and c get 2 and 4 (wider than one execution, never
# narrower); e and f get 5 from the conditional expression and all from the loop.
# IR: with pld.comm_domain("comm_d0", devices=[0, 1], slots=[a]):
# IR: with pld.comm_domain("comm_d1", devices=[2, 4], slots=[b, c]):
# IR: with pld.comm_domain("comm_d2", devices=[3], slots=[d]):
# IR: with pld.comm_domain("comm_d3", devices=[], slots=[e, f]):
# PLAN: "diagnostics": []
