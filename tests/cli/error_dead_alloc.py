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
        b = pld.alloc_window_buffer(8)
        v = pld.window(b, [8], dtype=pl.FP32)
        self.chip(v, device=0)

# dead-alloc: an allocation without any window view.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 1
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_dead_alloc.py:13:9: error: allocation 'a' has no window view [dead-alloc]

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "dead-alloc",
# JSON-NEXT: "message": "allocation 'a' has no window view",
# JSON-NEXT: "line": 13,
# JSON-NEXT: "column": 9
# JSON:      ]
