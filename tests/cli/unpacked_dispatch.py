import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32]):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    args = (x[0], v)
    chip(*args, device=0)


# A dispatch with * or ** unpacking is refused where a view is among what it unpacks, and
# the message says why (not that chip is a function the pass does not follow).
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}unpacked_dispatch.py:15:5: error: a view of allocation 'buf' is passed to 'chip' in a call with * or ** unpacking, which the analysis does not read as a dispatch: where its arguments land is not known before it runs [view-escapes]
# CHECK:help: pass the dispatch's arguments one by one, without * or **
# CHECK-NEXT:Found 1 error in 1 file (1 file checked).
