import pypto.language as pl
import pypto.language.distributed as pld

NR = 2 ** 2
NEG = -2 ** 2 + 6
TOWER = 2 ** 1 ** 3


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    for r in pl.range(NR):
        chip(x, v, device=r)
    chip(x, v, device=NEG + TOWER)


# `**` in a constant of the file, as Python computes it: right to left, and tighter than
# a unary minus on its left (NEG is 2, TOWER 2, so device 4).
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [0, 1, 2, 3, 4]  1 slot, 256 B
