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
        pld.tensor.allreduce(v)
        self.nope(v, device=0)
        f(pld.alloc_window_buffer(4))
        c = pld.alloc_window_buffer(1, 2)

# malformed-op: wrong arity, unknown callee, an allocation not assigned directly.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# The main pass alone sees the signal-less allreduce as malformed; in the pipeline
# (the default) signal synthesis gives it a signal first.
# RUN: %commscope-opt --format=json --no-synthesize-signals %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 4
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_malformed_op.py:16:9: error: operation 'allreduce' takes 2 positional arguments, got 1 [malformed-op]
# ERR-NEXT: {{.*}}error_malformed_op.py:17:9: error: call of unknown function 'nope' [malformed-op]
# ERR-NEXT: {{.*}}error_malformed_op.py:18:11: error: allocation 'pld.alloc_window_buffer' must be assigned directly to one variable [malformed-op]
# ERR-NEXT: {{.*}}error_malformed_op.py:19:13: error: operation 'alloc_window_buffer' takes 1 positional argument, got 2 [malformed-op]

# RUN: %commscope-opt --format=json %s > /dev/null 2> %t.pipe; test $? -eq 1
# RUN: %FileCheck --check-prefix=PIPE --match-full-lines %s < %t.pipe
# RUN: test $(wc -l < %t.pipe) -eq 3
# PIPE:      {{.*}}error_malformed_op.py:17:9: error: call of unknown function 'nope' [malformed-op]
# PIPE-NEXT: {{.*}}error_malformed_op.py:18:11: error: allocation 'pld.alloc_window_buffer' must be assigned directly to one variable [malformed-op]
# PIPE-NEXT: {{.*}}error_malformed_op.py:19:13: error: operation 'alloc_window_buffer' takes 1 positional argument, got 2 [malformed-op]

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "malformed-op",
# JSON-NEXT: "message": "operation 'allreduce' takes 2 positional arguments, got 1",
# JSON-NEXT: "line": 16,
# JSON-NEXT: "column": 9
# JSON:      "code": "malformed-op",
# JSON-NEXT: "message": "call of unknown function 'nope'",
# JSON-NEXT: "line": 17,
# JSON-NEXT: "column": 9
# JSON:      "code": "malformed-op",
# JSON-NEXT: "message": "allocation 'pld.alloc_window_buffer' must be assigned directly to one variable",
# JSON-NEXT: "line": 18,
# JSON-NEXT: "column": 11
# JSON:      "code": "malformed-op",
# JSON-NEXT: "message": "operation 'alloc_window_buffer' takes 1 positional argument, got 2",
# JSON-NEXT: "line": 19,
# JSON-NEXT: "column": 13
# JSON:      ]
