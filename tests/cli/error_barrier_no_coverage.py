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
        s = pld.alloc_window_buffer(4)
        v = pld.window(a, [8], dtype=pl.FP32)
        sv = pld.window(s, [1], dtype=pl.INT32)
        self.chip(v, device=0)
        pld.tensor.barrier(sv)

# barrier-no-coverage: a barrier whose signal has no devices of its own.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 1
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_barrier_no_coverage.py:18:9: error: the signal of barrier 'barrier' has no devices of its own [barrier-no-coverage]

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "barrier-no-coverage",
# JSON-NEXT: "message": "the signal of barrier 'barrier' has no devices of its own",
# JSON-NEXT: "line": 18,
# JSON-NEXT: "column": 9
# JSON:      ]
