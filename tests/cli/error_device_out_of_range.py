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
        self.chip(v, device=1048576)
        for r in range(4000000000):
            self.chip(v, device=r)

# device-out-of-range: at the device limit, and a four-billion-element loop judged without enumerating it.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 3
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_device_out_of_range.py:15:9: error: the dispatch of 'chip' uses device 1048576, at or above the device limit 1048576 [device-out-of-range]
# ERR-NEXT: {{.*}}error_device_out_of_range.py:17:13: error: the dispatch of 'chip' uses device 3999999999, at or above the device limit 1048576 [device-out-of-range]
# ERR-NEXT: {{.*}}error_device_out_of_range.py:16:9: note: the devices come from this loop

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "device-out-of-range",
# JSON-NEXT: "message": "the dispatch of 'chip' uses device 1048576, at or above the device limit 1048576",
# JSON-NEXT: "line": 15,
# JSON-NEXT: "column": 9
# JSON:      "code": "device-out-of-range",
# JSON-NEXT: "message": "the dispatch of 'chip' uses device 3999999999, at or above the device limit 1048576",
# JSON-NEXT: "line": 17,
# JSON-NEXT: "column": 13
# JSON:      ]
