import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32]):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    chip(x[0], v, device=0)
    chip(x[1], pld.window(buf, [16], dtype=pl.FP32), device=1)


# A window written inside a dispatch's arguments: malformed-op there, with the fix of its
# reason, and not dropped (device 1 uses buf). Assigned first, it is a view.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}window_forms.py:15:16: error: a window of allocation 'buf' must be assigned directly to one variable: the rewrite gives a view its window buffer through its variable [malformed-op]
# CHECK-NEXT:   15 |     chip(x[1], pld.window(buf, [16], dtype=pl.FP32), device=1)
# CHECK-NEXT:      |                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:{{.*}}window_forms.py:12:5: note: allocation 'buf' is here
# CHECK-NEXT:   12 |     buf = pld.alloc_window_buffer(64)
# CHECK-NEXT:      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:help: assign the window to one variable on its own (v = window(ptr, ...)) and use v
# CHECK-NEXT:Found 1 error in 1 file (1 file checked).
#
# RUN: sed 's/^    chip(x\[1\], pld.window(buf, \[16\], dtype=pl.FP32), device=1)$/    w = pld.window(buf, [16], dtype=pl.FP32)\n    chip(x[1], w, device=1)/' %s > %t.fixed.py
# RUN: %commscope-opt %t.fixed.py | %FileCheck --check-prefix=FIXED %s
# FIXED: comm_d0  devices [0, 1]  1 slot, 64 B
