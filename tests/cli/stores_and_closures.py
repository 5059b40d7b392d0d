import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32], y: pl.Tensor[[4, 16], pl.FP32], state, n: int):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    c = pld.alloc_window_buffer(64)
    d = pld.alloc_window_buffer(64)
    e = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    vc = pld.window(c, [16], dtype=pl.FP32)
    vd = pld.window(d, [16], dtype=pl.FP32)
    ve = pld.window(e, [16], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        y[r] = chip(x[r], va, device=r)
    state.window = vb
    slots = [None]
    slots[0] += vc
    chip(x[0], (kept := vd), device=0)

    def later():
        chip(x[1], ve, device=1)

    later()


# Where a view is stored into an object or a container, bound inside an expression, or
# read by a nested function, the pass cannot see its later uses: view-escapes there. A
# dispatch's result stored into an element is no view: va is covered.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: stores_and_closures.py:24:5: error: a view of allocation 'b' is an operand of 'state.window = ...', which may have side effects the pass cannot follow: dispatch the view directly, or derive it through an operation without side effects [view-escapes]
# CHECK: stores_and_closures.py:26:5: error: a view of allocation 'c' is an operand of 'slots[...] = ...', {{.*}} [view-escapes]
# CHECK: stores_and_closures.py:27:17: error: a view of allocation 'd' is an operand of 'kept := vd', {{.*}} [view-escapes]
# CHECK: stores_and_closures.py:29:5: error: a view of allocation 'e' is an operand of 'def later', {{.*}} [view-escapes]
# CHECK: Found 4 errors in 1 file (1 file checked).
# CHECK-NOT: error
