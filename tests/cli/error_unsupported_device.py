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
        n = foo()
        self.chip(v, device=n)
        self.chip(v, device=n + 1)

# unsupported-device: device= from an opaque call and from arithmetic on it (arithmetic
# on integer constants alone is a constant: device_constant_expressions.py).
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_unsupported_device.py:16:9: error: cannot infer the devices of the dispatch of 'chip' from its device= expression [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:17:9: error: cannot infer the devices of the dispatch of 'chip' from its device= expression [unsupported-device]

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "unsupported-device",
# JSON-NEXT: "message": "cannot infer the devices of the dispatch of 'chip' from its device= expression",
# JSON-NEXT: "line": 16,
# JSON-NEXT: "column": 9
# JSON:      "code": "unsupported-device",
# JSON-NEXT: "message": "cannot infer the devices of the dispatch of 'chip' from its device= expression",
# JSON-NEXT: "line": 17,
# JSON-NEXT: "column": 9
# JSON:      ]
