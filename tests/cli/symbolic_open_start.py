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
        for r in pl.range(k, pld.world_size()):
            self.chip(v, device=r)

# A loop over the world with an open start is no progression: unsupported-device.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2

# CHECK: {{.*}}symbolic_open_start.py:16:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: it is the variable of a loop whose bounds are not all integer constants or the world size [unsupported-device]
# CHECK-NEXT: {{.*}}symbolic_open_start.py:15:9: note: the device variable is bound by this loop
