import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32]):
    global shared
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    c = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    vc = pld.window(c, [16], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        chip(x[r], va, device=r)
        chip(x[r], vb, device=r)
        chip(x[r], vc, device=r)

    def later():
        chip(x[1], current, device=1)

    current = va
    for current in (vb,):
        pass
    shared = vc
    current = pld.window(a, [16], dtype=pl.FP32)
    later()


# A nested def reads a variable when it is called, not when it is defined: whatever the
# variable is bound to after the def may be used there, so each such binding is a store
# the analysis cannot follow (a window made there escapes as its pointer), as is a
# binding of a name declared global or nonlocal.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: closure_cells.py:27:5: error: a view of allocation 'a' is an operand of 'current = ... (read by def later)', {{.*}} [view-escapes]
# CHECK: closure_cells.py:28:5: error: a view of allocation 'b' is an operand of 'current = ... (read by def later)', {{.*}} [view-escapes]
# CHECK: closure_cells.py:30:5: error: a view of allocation 'c' is an operand of 'shared = ... (global)', {{.*}} [view-escapes]
# CHECK: closure_cells.py:31:5: error: the window pointer of allocation 'a' is an operand of 'current = ... (read by def later)', {{.*}} [view-escapes]
# CHECK: Found 4 errors in 1 file (1 file checked).
# CHECK-NOT: error
