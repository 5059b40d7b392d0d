import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class GuardedExpressions:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag):
        a = pld.alloc_window_buffer(64)
        v = pld.window(a, [8], dtype=pl.FP32)
        self.chip(v, device=5)
        for r in pl.range(6, pld.world_size() - 2):
            self.chip(v, device=r)
        self.chip(v, device=7) if flag else None
        b = pld.alloc_window_buffer(64)
        w = pld.window(b, [8], dtype=pl.FP32)
        self.chip(w, device=1)
        for r in pl.range(2, pld.world_size()):
            self.chip(w, device=r)
        flag and self.chip(w, device=9)
        later = lambda: self.chip(w, device=20)
        handles = [self.chip(w, device=i) for i in range(12, 14)]

# A dispatch in a conditional expression, an operand of and/or, a comprehension or a
# lambda may not run: it does not count towards W, the smallest world that runs the host
# (here 6, from device 5). In a world of 6, range(6, ws - 2) is empty and device 7 is
# used only when flag holds, so 7 must stay an id (W = 8 would have absorbed it into
# range(5, ws - 2), empty in that world). 1, 9 and 20 join range(2, ws) exactly: a device
# it uses exists only in worlds that hold it.
# The comprehension's loop variable is no enclosing for loop of the host: its dispatch is
# unsupported-device, so that program is checked without it first.
# RUN: head -n 25 %s > %t.py
# RUN: %commscope-opt --format=json --emit=ir %t.py > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR %s < %t.err

# IR: with pld.comm_domain("comm_d0", devices=[5, 7, range(6, pld.world_size() - 2)], slots=[a]):
# IR: with pld.comm_domain("comm_d1", devices=[range(1, pld.world_size())], slots=[b]):
# ERR: {{.*}}guarded_expressions.py:26:20: error: cannot infer the devices of the dispatch of 'chip' from its device= expression{{.*}}[unsupported-device]
