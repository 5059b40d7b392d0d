import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host(state):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(va, device=1)
    with va as (x):
        chip(x, device=2)


# A `with` target in brackets binds its names as a bare one does: `x` is what `va`
# gives, and device 2 uses it.
# RUN: %commscope-opt %s > %t.out
# RUN: %FileCheck %s < %t.out
# CHECK: comm_d0  devices [1, 2]  1 slot, 64 B
# RUN: sed 's/^    with va as (x):$/    with pl.at(0), va as [x, y]:/' %s > %t.list.py
# RUN: %commscope-opt %t.list.py > %t.list.out
# RUN: %FileCheck %s < %t.list.out
# An attribute as the target stores what the manager gives where the analysis does not
# follow it; Python reads it, so it is no syntax error.
# RUN: sed -e 's/^    with va as (x):$/    with va as state.cur:/' -e 's/^        chip(x, device=2)$/        chip(state.cur, device=2)/' %s > %t.attribute.py
# RUN: %commscope-opt %t.attribute.py > %t.attribute.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=ATTRIBUTE %s < %t.attribute.out
# ATTRIBUTE: .py:15:16: error: a view of allocation 'a' is an operand of 'state.cur = ...'{{.*}}[view-escapes]
