import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def shape_by_keyword(self):
        a = pld.alloc_window_buffer(1024)
        va = pld.window(a, shape=[256], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip(va, device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def one_too_many(self):
        b = pld.alloc_window_buffer(1024)
        vb = pld.window(b, [256], pl.FP32, 0)
        self.chip(vb, device=0)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def dtype_by_keyword(self):
        c = pld.alloc_window_buffer(1024)
        vc = pld.window(c, [256], dtype=pl.FP32)
        self.chip(vc, device=0)

# A window whose shape is passed by keyword, or with one argument too many: an error
# each that says the bound it misses (ptr and shape are positional; dtype may be a
# keyword, as in the third function, which is fine). Its allocation has no window
# then: dead-alloc, which is always reported.
# RUN: %commscope-opt %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:      {{.*}}window_arity.py:13:9: error: allocation 'a' has no window view [dead-alloc]
# CHECK:      {{.*}}window_arity.py:14:14: error: operation 'window' takes 2 positional arguments, got 1 [malformed-op]
# CHECK:      {{.*}}window_arity.py:20:9: error: allocation 'b' has no window view [dead-alloc]
# CHECK:      {{.*}}window_arity.py:21:14: error: operation 'window' takes 3 positional arguments, got 4 [malformed-op]
# CHECK:      Found 4 errors in 1 file (1 file checked).
# RUN: test $(grep -c 'error:' %t.out) -eq 4
