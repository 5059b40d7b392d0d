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
        for r in pl.range(3, pld.world_size(), -1):
            self.chip(v, device=r)
        n = pld.world_size()
        for r in pl.range(1, n, 0):
            self.chip(v, device=r)
        for r in pl.range(0, pld.world_size() + 1):
            self.chip(v, device=r)

# partial-world-range: world-size loops with a descending or zero step (also through a
# temporary) or a stop past the world; an ascending one is a symbolic device set
# (symbolic_world_range.py).
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 6
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_partial_world_range.py:16:13: error: the dispatch of 'chip' iterates over the world with a negative start, a step below 1 or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for START >= 0, STEP >= 1 and C >= 0 [partial-world-range]
# ERR-NEXT: {{.*}}error_partial_world_range.py:15:9: note: the devices come from this loop
# ERR-NEXT: {{.*}}error_partial_world_range.py:19:13: error: the dispatch of 'chip' iterates over the world with a negative start, a step below 1 or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for START >= 0, STEP >= 1 and C >= 0 [partial-world-range]
# ERR-NEXT: {{.*}}error_partial_world_range.py:18:9: note: the devices come from this loop
# ERR-NEXT: {{.*}}error_partial_world_range.py:21:13: error: the dispatch of 'chip' iterates over the world with a negative start, a step below 1 or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for START >= 0, STEP >= 1 and C >= 0 [partial-world-range]
# ERR-NEXT: {{.*}}error_partial_world_range.py:20:9: note: the devices come from this loop

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "partial-world-range",
# JSON-NEXT: "message": "the dispatch of 'chip' iterates over the world with a negative start, a step below 1 or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for START >= 0, STEP >= 1 and C >= 0",
# JSON-NEXT: "line": 16,
# JSON-NEXT: "column": 13
# JSON:      "code": "partial-world-range",
# JSON-NEXT: "message": "the dispatch of 'chip' iterates over the world with a negative start, a step below 1 or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for START >= 0, STEP >= 1 and C >= 0",
# JSON-NEXT: "line": 19,
# JSON-NEXT: "column": 13
# JSON:      "code": "partial-world-range",
# JSON-NEXT: "message": "{{.*}} or a stop past world_size(): {{.*}}",
# JSON-NEXT: "line": 21,
# JSON-NEXT: "column": 13
# JSON:      ]
