import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def passthru(v):
    return v


@pl.jit
def stage(v):
    return None


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(64)
    va = pld.window(buf, [8], dtype=pl.FP32)
    w = passthru(va, device=1).view(8)
    stage(w, device=3)


# A method of a dispatch's result derives from what the chip returns (its view): w is
# that view, which device 3 uses too.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [1, 3]  1 slot, 64 B
