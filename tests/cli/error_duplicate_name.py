import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a = pld.alloc_window_buffer(64, name="x")
        b = pld.alloc_window_buffer(8, name="x")
        v = pld.window(a, [8], dtype=pl.FP32)
        u = pld.window(b, [8], dtype=pl.FP32)
        self.chip(v, device=0)
        self.chip(u, device=0)

# duplicate-name: two allocations named "x" in one domain: reported at the later one.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_duplicate_name.py:14:9: error: allocation name 'x' is used twice in one comm domain [duplicate-name]
# ERR-NEXT: {{.*}}error_duplicate_name.py:13:9: note: the first allocation named 'x' is here

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "duplicate-name",
# JSON-NEXT: "message": "allocation name 'x' is used twice in one comm domain",
# JSON-NEXT: "line": 14,
# JSON-NEXT: "column": 9
# JSON:      ]
