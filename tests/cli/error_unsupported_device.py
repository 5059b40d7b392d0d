import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, k, flag, items):
        a = pld.alloc_window_buffer(64)
        v = pld.window(a, [8], dtype=pl.FP32)
        n = foo()
        self.chip(v, device=n)
        self.chip(v, device=n + 1)
        self.chip(v, device=0 if flag else 1)
        for r in pl.range(k):
            self.chip(v, device=r)
        for s in pl.range(0, 4, 0):
            self.chip(v, device=s)
        for t in pl.range(4):
            pass
        self.chip(v, device=t)
        i = 0
        while i < 4:
            self.chip(v, device=i)
            i += 1
        for q in items:
            self.chip(v, device=q)

# unsupported-device: each message says what of the device= the pass could not follow:
# an opaque call's result, arithmetic on it (arithmetic on integer constants alone is a
# constant: device_constant_expressions.py), a conditional expression, a loop with a
# bound that is a parameter, a loop of step 0, a loop that has ended, a while counter and
# an element of a sequence; the loop's own cases point at the loop in a note.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 11
# RUN: %FileCheck --check-prefix=JSON %s < %t.out
# RUN: %commscope-opt %s > %t.txt; test $? -eq 1
# RUN: %FileCheck --check-prefix=TEXT %s < %t.txt

# ERR:      {{.*}}error_unsupported_device.py:16:9: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: the variable may hold a value that is neither an integer constant nor the variable of an enclosing loop over a range (a parameter, a computed value, an element of a sequence, a value carried over from another iteration) [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:17:9: error: cannot infer the devices of the dispatch of 'chip' from its device= expression, which is neither an integer constant nor a variable [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:18:9: error: cannot infer the devices of the dispatch of 'chip' from its device= expression, which is neither an integer constant nor a variable [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:20:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: it is the variable of a loop whose bounds are not all integer constants or the world size [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:19:9: note: the device variable is bound by this loop
# ERR-NEXT: {{.*}}error_unsupported_device.py:22:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: it is the variable of a loop whose step is 0 [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:21:9: note: the device variable is bound by this loop
# ERR-NEXT: {{.*}}error_unsupported_device.py:25:9: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: it is the variable of a loop that ends before the dispatch [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:23:9: note: the device variable is bound by this loop
# ERR-NEXT: {{.*}}error_unsupported_device.py:28:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: the variable may hold {{.*}} [unsupported-device]
# ERR-NEXT: {{.*}}error_unsupported_device.py:31:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: the variable may hold {{.*}} [unsupported-device]

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "unsupported-device",
# JSON-NEXT: "message": "cannot infer the devices of the dispatch of 'chip' from its device= expression: the variable may hold {{.*}}",
# JSON-NEXT: "line": 16,
# JSON-NEXT: "column": 9
# JSON:      "code": "unsupported-device",
# JSON-NEXT: "message": "cannot infer the devices of the dispatch of 'chip' from its device= expression, which is neither an integer constant nor a variable",
# JSON-NEXT: "line": 17,
# JSON-NEXT: "column": 9
# JSON:      "line": 20,
# JSON:      "notes": [
# JSON-NEXT: {
# JSON-NEXT: "message": "the device variable is bound by this loop",
# JSON-NEXT: "line": 19,
# JSON-NEXT: "column": 9
# JSON:      "line": 25,
# JSON:      "message": "the device variable is bound by this loop",
# JSON-NEXT: "line": 23,
# JSON:      ]

# The text format gives each cause its own fix.
# TEXT:      help: dispatch inside a for loop over pl.range(...) and pass its variable, or pass an integer constant (a literal, a constant of the file, a -D name)
# TEXT:      help: pass an integer constant or the variable of a loop over pl.range(...); for r + 1 or r % 2, loop over those devices themselves (pl.range(1, n + 1), pl.range(0, n, 2))
# TEXT:      {{.*}}error_unsupported_device.py:19:9: note: the device variable is bound by this loop
# TEXT-NEXT:    19 |         for r in pl.range(k):
# TEXT:      help: loop over pl.range(pld.world_size()) or over integer constants (literals, constants of the file, -D names)
# TEXT:      help: give the loop a step other than 0
# TEXT:      help: dispatch inside the loop, or pass an integer constant
