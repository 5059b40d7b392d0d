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
        w = pld.tensor.allreduce(v, 3)
        pld.tensor.barrier(a)

# collective-arg-not-window: collective arguments that are no window views.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_collective_arg_not_window.py:16:13: error: argument 1 of collective 'allreduce' does not resolve to a window view [collective-arg-not-window]
# ERR-NEXT: {{.*}}error_collective_arg_not_window.py:17:9: error: argument 0 of collective 'barrier' does not resolve to a window view [collective-arg-not-window]

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "collective-arg-not-window",
# JSON-NEXT: "message": "argument 1 of collective 'allreduce' does not resolve to a window view",
# JSON-NEXT: "line": 16,
# JSON-NEXT: "column": 13
# JSON:      "code": "collective-arg-not-window",
# JSON-NEXT: "message": "argument 0 of collective 'barrier' does not resolve to a window view",
# JSON-NEXT: "line": 17,
# JSON-NEXT: "column": 9
# JSON:      ]
