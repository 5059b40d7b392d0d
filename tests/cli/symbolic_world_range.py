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
        for r in pl.range(1, pld.world_size()):
            self.chip(v, device=r)
        b = pld.alloc_window_buffer(64)
        w = pld.window(b, [8], dtype=pl.FP32)
        n = pld.world_size() - 1
        for r in pl.range(0, n, 2):
            self.chip(w, device=r)
        self.chip(w, device=3)

# A loop over part of the world gives a symbolic device set (docs/semantics.md, "Symbolic
# device sets"): printed as range(...) in devices=, as {start, step, stop} in the JSON; the
# --emit=ir output parses back to the same plan and verifies.
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %FileCheck --check-prefix=PLAN %s < %t.plan1
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff %t.plan1 %t.plan2
# RUN: %commscope-opt --format=json --emit=ir %t.ir.py > %t.ir2.py
# RUN: diff %t.ir.py %t.ir2.py
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
# RUN: %commscope-opt --format=json --explain %s > %t.explain
# RUN: %FileCheck --check-prefix=EXPLAIN %s < %t.explain
# RUN: %commscope-opt --format=json --emit=dot %s | %FileCheck --check-prefix=DOT %s

# DOT: comm_d0\ndevices: [range(1, world_size())]
# DOT: comm_d1\ndevices: [3, range(0, world_size() - 1, 2)]

# IR:      with pld.comm_domain("comm_d0", devices=[range(1, pld.world_size())], slots=[a]):
# IR-NEXT:     with pld.comm_domain("comm_d1", devices=[3, range(0, pld.world_size() - 1, 2)], slots=[b]):

# PLAN:      "name": "comm_d0",
# PLAN-NEXT: "devices": [
# PLAN-NEXT:   {
# PLAN-NEXT:     "start": 1,
# PLAN-NEXT:     "step": 1,
# PLAN-NEXT:     "stop": "world_size"
# PLAN-NEXT:   }
# PLAN-NEXT: ],
# PLAN:      "name": "comm_d1",
# PLAN-NEXT: "devices": [
# PLAN-NEXT:   3,
# PLAN-NEXT:   {
# PLAN-NEXT:     "start": 0,
# PLAN-NEXT:     "step": 2,
# PLAN-NEXT:     "stop": "world_size - 1"
# PLAN-NEXT:   }
# PLAN-NEXT: ],
# PLAN:      "diagnostics": []

# EXPLAIN:      "kind": "dispatch",
# EXPLAIN-NEXT: "callee": "chip",
# EXPLAIN-NEXT: "line": 16,
# EXPLAIN-NEXT: "column": 13,
# EXPLAIN-NEXT: "devices": [
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "start": 1,
# EXPLAIN-NEXT:     "step": 1,
# EXPLAIN-NEXT:     "stop": "world_size"
# EXPLAIN-NEXT:   }
# EXPLAIN-NEXT: ],
# EXPLAIN-NEXT: "view": "v",
# EXPLAIN-NEXT: "loop": {
# EXPLAIN-NEXT:   "line": 15,
# EXPLAIN-NEXT:   "column": 9
# EXPLAIN-NEXT: }
