import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class GuardedWorld:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag):
        a = pld.alloc_window_buffer(64)
        v = pld.window(a, [8], dtype=pl.FP32)
        self.chip(v, device=3)
        for r in pl.range(4, pld.world_size() - 2):
            self.chip(v, device=r)
        b = pld.alloc_window_buffer(64)
        w = pld.window(b, [8], dtype=pl.FP32)
        if pld.world_size() > 10:
            self.chip(w, device=10)
        d = 9
        if flag:
            d = 1
        self.chip(w, device=d)

# W, the smallest world that can run `host`, counts only dispatches that run whenever
# the host does, each by the least device it may use: device 3 (W = 4), not the guarded
# device 10, and of {1, 9} only 1. In a world of 4 or 5 devices the host runs, uses
# device 3 with a, and range(4, ws - 2) is empty; so 3 stays an id (with W = 11 it
# would have been absorbed into range(3, ws - 2), narrower than the truth there).
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %FileCheck --check-prefix=PLAN %s < %t.plan1
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff %t.plan1 %t.plan2

# PLAN:      "name": "comm_d0",
# PLAN-NEXT: "devices": [
# PLAN-NEXT:   3,
# PLAN-NEXT:   {
# PLAN-NEXT:     "start": 4,
# PLAN-NEXT:     "step": 1,
# PLAN-NEXT:     "stop": "world_size - 2"
# PLAN-NEXT:   }
# PLAN-NEXT: ],
# PLAN:      "diagnostics": []

# IR: with pld.comm_domain("comm_d0", devices=[3, range(4, pld.world_size() - 2)], slots=[a]):
# IR: with pld.comm_domain("comm_d1", devices=[1, 9, 10], slots=[b]):
