import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(v):
    return 0


@pl.jit.host
def in_targets(x):
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [8], dtype=pl.FP32)
    stage(vb, device=0)
    slots = [0, 0]
    for slots[stage(vb, device=3)] in [1, 2]:
        pass
    with open("log.txt") as slots[stage(vb, device=5)]:
        pass


# A dispatch in the key of a for or with target runs as Python evaluates the target
# (on each item of the for): b needs devices 0, 3 and 5.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [0, 3, 5]  1 slot, 64 B
