import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return 0


@pl.jit.host
def host(ready):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    assert ready, chip(vb, device=9)
    chip(va, device=5)
    for r in pl.range(6, pld.world_size() - 2):
        chip(va, device=r)


# An assert's message runs only when the assert fails (and `python -O` runs no assert):
# device 9 need not exist, so the world may be 7, where `range(6, ws - 2)` is empty and
# device 5 must stay an id of its own (a smallest world of 10 absorbed it into
# `range(5, ws - 2)`, empty in a world of 7).
# RUN: %commscope-opt %s > %t.out
# RUN: %FileCheck %s < %t.out
# CHECK: comm_d0  devices [5, range(6, world_size() - 2)]  1 slot, 64 B
