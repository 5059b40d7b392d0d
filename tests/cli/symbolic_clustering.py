import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a = pld.alloc_window_buffer(64)
        v = pld.window(a, [8], dtype=pl.FP32)
        self.chip(v, device=0)
        for r in pl.range(1, pld.world_size()):
            self.chip(v, device=r)
        b = pld.alloc_window_buffer(64)
        w = pld.window(b, [8], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip(w, device=r)
        c = pld.alloc_window_buffer(64)
        x = pld.window(c, [8], dtype=pl.FP32)
        for r in pl.range(0, pld.world_size(), 2):
            self.chip(x, device=r)
        for r in range(1, pld.world_size(), 2):
            self.chip(x, device=r)
        d = pld.alloc_window_buffer(64)
        y = pld.window(d, [8], dtype=pl.FP32)
        self.chip(y, device=0)
        for r in pl.range(1, pld.world_size() - 1):
            self.chip(y, device=r)

# Clustering compares canonical forms: {0} ∪ range(1, ws) and range(0, ws, 2) ∪
# range(1, ws, 2) are `all`, one scope with the plain world loop; {0} ∪ range(1, ws - 1)
# stays as written.
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff %t.plan1 %t.plan2

# IR:      with pld.comm_domain("comm_d0", devices="all", slots=[a, b, c]):
# IR-NEXT:     with pld.comm_domain("comm_d1", devices=[0, range(1, pld.world_size() - 1)], slots=[d]):
