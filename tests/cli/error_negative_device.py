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
        self.chip(v, device=-1)
        for r in range(-2, 2):
            self.chip(v, device=r)

# negative-device: a negative constant and a constant loop reaching below zero.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 3
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_negative_device.py:15:9: error: the dispatch of 'chip' uses negative device -1 [negative-device]
# ERR-NEXT: {{.*}}error_negative_device.py:17:13: error: the dispatch of 'chip' uses negative device -2 [negative-device]
# ERR-NEXT: {{.*}}error_negative_device.py:16:9: note: the devices come from this loop

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "negative-device",
# JSON-NEXT: "message": "the dispatch of 'chip' uses negative device -1",
# JSON-NEXT: "line": 15,
# JSON-NEXT: "column": 9
# JSON:      "code": "negative-device",
# JSON-NEXT: "message": "the dispatch of 'chip' uses negative device -2",
# JSON-NEXT: "line": 17,
# JSON-NEXT: "column": 13
# JSON:      ]
