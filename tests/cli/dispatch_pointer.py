import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host(flag):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(va, device=0)
    chip(a, device=1)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    p = vb
    if flag:
        p = b
    for r in pl.range(pld.world_size()):
        chip(vb, device=r)
        chip((vb, p), device=r)
    c = pld.alloc_window_buffer(64)
    vc = pld.window(c, [16], dtype=pl.FP32)
    chip(vc, device=2)


# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out

# The chip is handed a's pointer on device 1, where it could take windows of it that no
# view counts; b's pointer may be in the tuple; c is dispatched as a view only.
# CHECK: dispatch_pointer.py:15:5: error: the window pointer of allocation 'a' is passed to the dispatch of 'chip': a dispatch gives its devices to the views it is passed, not to a pointer; take a window of the pointer and dispatch that [view-escapes]
# CHECK: dispatch_pointer.py:12:5: note: allocation 'a' is here
# CHECK: help: take a window of the pointer (pld.window) and dispatch that
# CHECK: dispatch_pointer.py:23:9: error: the window pointer of allocation 'b' is passed to the dispatch of 'chip'
# CHECK-NOT: error:
# CHECK: Found 2 errors in 1 file (1 file checked).
