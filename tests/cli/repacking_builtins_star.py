import pypto.language as pl
import pypto.language.distributed as pld
from .helpers import *


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def starred(x: pl.Tensor[[4, 16], pl.FP32]):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(x[0], va, device=0)
    for p, q in zip([va], [va]):
        chip(p, q, device=1)


# A star import may bind any name, zip among them: its call is one the pass does not
# follow.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: repacking_builtins_star.py:16:17: error: a view of allocation 'a' is passed to 'zip', {{.*}} [view-escapes]
# CHECK: Found 1 error in 1 file (1 file checked).
