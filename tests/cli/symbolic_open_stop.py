import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, k):
        a = pld.alloc_window_buffer(64)
        v = pld.window(a, [8], dtype=pl.FP32)
        j = k - 1
        for r in pl.range(0, j):
            self.chip(v, device=r)
        for r in pl.range(0, k - 1):
            self.chip(v, device=r)

# A stop of a parameter minus a constant, through a temporary or not, is no
# world-relative one: unsupported-device.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 4

# CHECK: {{.*}}symbolic_open_stop.py:17:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: it is the variable of a loop whose bounds are not all integer constants or the world size [unsupported-device]
# CHECK-NEXT: {{.*}}symbolic_open_stop.py:16:9: note: the device variable is bound by this loop
# CHECK-NEXT: {{.*}}symbolic_open_stop.py:19:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: it is the variable of a loop whose bounds are not all integer constants or the world size [unsupported-device]
# CHECK-NEXT: {{.*}}symbolic_open_stop.py:18:9: note: the device variable is bound by this loop
