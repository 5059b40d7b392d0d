import pypto.language as pl
import pypto.language.distributed as pld


def stage(x):
    return x


@pl.program
class Escapes:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def helper(self, x):
        self.chip(x, device=5)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a = pld.alloc_window_buffer(64)
        data = pld.window(a, [8], dtype=pl.FP32)
        b = pld.alloc_window_buffer(64)
        vb = pld.window(b, [8], dtype=pl.FP32)
        c = pld.alloc_window_buffer(64)
        vc = pld.window(c, [8], dtype=pl.FP32)
        d = pld.alloc_window_buffer(64)
        self.chip(data, device=0)
        stage(data[0:4])
        self.helper(vb)
        self.chip(vc, device=1)
        pl.tensor.fill(c, 0)
        stage(d)
        return data

# view-escapes: a view passed to a helper the pass does not follow (a module function, a
# host function), and a window pointer passed on. Each is reported once, at the use;
# the allocations are not reported again (b has no other use: no unconsumed-alloc; d has
# no view: no dead-alloc). A function of a module is named as written (`pl.tensor.fill`),
# and one of a library's is not to be inlined (view_escapes_library.py).
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 8

# ERR:      {{.*}}error_view_escapes.py:29:9: error: a view of allocation 'a' is passed to 'stage', a function the pass does not follow: dispatch the view directly, or inline 'stage' first [view-escapes]
# ERR-NEXT: {{.*}}error_view_escapes.py:22:9: note: a view of it is taken here
# ERR-NEXT: {{.*}}error_view_escapes.py:30:9: error: a view of allocation 'b' is passed to 'helper', a function the pass does not follow: dispatch the view directly, or inline 'helper' first [view-escapes]
# ERR-NEXT: {{.*}}error_view_escapes.py:24:9: note: a view of it is taken here
# ERR-NEXT: {{.*}}error_view_escapes.py:32:9: error: the window pointer of allocation 'c' is passed to 'pl.tensor.fill', a library function the pass does not follow: take a window of it here, dispatch that, and call 'pl.tensor.fill' in the chip function [view-escapes]
# ERR-NEXT: {{.*}}error_view_escapes.py:25:9: note: allocation 'c' is here
# ERR-NEXT: {{.*}}error_view_escapes.py:33:9: error: the window pointer of allocation 'd' is passed to 'stage', a function the pass does not follow: take the window here and dispatch it, or inline 'stage' first [view-escapes]
# ERR-NEXT: {{.*}}error_view_escapes.py:27:9: note: allocation 'd' is here
