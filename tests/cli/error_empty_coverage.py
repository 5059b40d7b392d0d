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
        for r in pl.range(3, 3):
            self.chip(v, device=r)

# empty-coverage: coverage only from an empty constant loop.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 1
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_empty_coverage.py:13:9: error: allocation 'a' is only dispatched from empty loops, so its device set is empty [empty-coverage]

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "empty-coverage",
# JSON-NEXT: "message": "allocation 'a' is only dispatched from empty loops, so its device set is empty",
# JSON-NEXT: "line": 13,
# JSON-NEXT: "column": 9
# JSON:      ]
