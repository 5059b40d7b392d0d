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
        self.chip(v)

# unconsumed-alloc: views, but the only dispatch has no device=.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 3
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_unconsumed_alloc.py:13:9: error: allocation 'a' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# ERR-NEXT: {{.*}}error_unconsumed_alloc.py:14:9: note: a view of it is taken here
# ERR-NEXT: {{.*}}error_unconsumed_alloc.py:15:9: note: 'chip' is called here without device=: the call is no dispatch

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "unconsumed-alloc",
# JSON-NEXT: "message": "allocation 'a' has views but no dispatch or collective gives it devices",
# JSON-NEXT: "line": 13,
# JSON-NEXT: "column": 9,
# JSON-NEXT: "notes": [
# JSON-NEXT: {
# JSON-NEXT: "message": "a view of it is taken here",
# JSON-NEXT: "line": 14,
# JSON-NEXT: "column": 9
# JSON-NEXT: },
# JSON-NEXT: {
# JSON-NEXT: "message": "'chip' is called here without device=: the call is no dispatch",
# JSON-NEXT: "line": 15,
# JSON-NEXT: "column": 9
# JSON-NEXT: }
# JSON-NEXT: ]
# JSON:      ]
