import pypto.language as pl
import pypto.language.distributed as pld


def enumerate(items):
    return [(0, chip(items[0], items[1], device=7))]


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def shadowed(x: pl.Tensor[[4, 16], pl.FP32]):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    chip(x[0], va, device=0)
    chip(x[0], vb, device=0)
    for i, v in enumerate([va, x]):
        chip(x[1], v, device=1)
    zip = list
    for p in zip([vb]):
        chip(x[2], p, device=2)
    c = pld.alloc_window_buffer(64)
    vc = pld.window(c, [16], dtype=pl.FP32)
    chip(x[0], vc, device=0)
    ordered = sorted([vc], key=len)


# A name the file binds is no builtin: the module's own enumerate (which dispatches what
# it is given on device 7) and a local zip are calls the pass does not follow. A builtin
# that calls what it is given (sorted's key=) is not followed either, and is no helper to
# inline.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: repacking_builtins_shadowed.py:22:17: error: a view of allocation 'a' is passed to 'enumerate', {{.*}} [view-escapes]
# CHECK: repacking_builtins_shadowed.py:25:14: error: a view of allocation 'b' is passed to 'zip', {{.*}} [view-escapes]
# CHECK: repacking_builtins_shadowed.py:30:15: error: a view of allocation 'c' is an operand of 'sorted', which may have side effects {{.*}} [view-escapes]
# CHECK: Found 3 errors in 1 file (1 file checked).
