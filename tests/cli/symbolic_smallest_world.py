import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class SmallestWorld:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a = pld.alloc_window_buffer(64)
        v = pld.window(a, [8], dtype=pl.FP32)
        n = pld.world_size()
        for r in pl.range(0, n - 1):
            self.chip(v, device=r)
        for r in pl.range(0, n, 4):
            self.chip(v, device=r)
        b = pld.alloc_window_buffer(64)
        w = pld.window(b, [8], dtype=pl.FP32)
        self.chip(w, device=6)

# W, the smallest world that can run `host`, is 7: b's dispatch to device 6 sets it for
# a's set too, although no scope of a lists an id. In worlds of 7 or more devices,
# range(0, ws - 1) keeps device 0, so a's set stays as written (in a world of one
# device it would start at 1). The verifier takes W from the dispatches as the analysis
# does, so the materialized program verifies, and reads back to the same plan.
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %FileCheck --check-prefix=PLAN %s < %t.plan1
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff %t.plan1 %t.plan2

# PLAN:      "name": "comm_d0",
# PLAN-NEXT: "devices": [
# PLAN-NEXT:   {
# PLAN-NEXT:     "start": 0,
# PLAN-NEXT:     "step": 1,
# PLAN-NEXT:     "stop": "world_size - 1"
# PLAN-NEXT:   },
# PLAN-NEXT:   {
# PLAN-NEXT:     "start": 0,
# PLAN-NEXT:     "step": 4,
# PLAN-NEXT:     "stop": "world_size"
# PLAN-NEXT:   }
# PLAN-NEXT: ],
# PLAN:      "name": "comm_d1",
# PLAN-NEXT: "devices": [
# PLAN-NEXT:   6
# PLAN-NEXT: ],
# PLAN:      "diagnostics": []

# IR: with pld.comm_domain("comm_d0", devices=[range(0, pld.world_size() - 1), range(0, pld.world_size(), 4)], slots=[a]):
