import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(v):
    return None


@pl.jit.host
def host(x, c):
    k_buf = pld.alloc_window_buffer(64)
    v_buf = pld.alloc_window_buffer(64)
    k = pld.window(k_buf, [8], dtype=pl.FP32)
    v = pld.window(v_buf, [8], dtype=pl.FP32)
    tiles = [t.reshape(2, 4) for t in (k, v)]
    for tile in tiles:
        stage(tile, device=0)
    for (r) in pl.range(4):
        stage(k, device=r)
    src = dst = 5
    stage(v, device=src)
    stage((k if c else v).reshape(8), device=dst)


# Spellings Python reads as their plain forms: a method of a comprehension's variable
# (or of a conditional value) derives from the views it may hold, `for (r) in` is
# `for r in`, and `src = dst = 5` binds both names to 5.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [0, 1, 2, 3, 5]  1 slot, 64 B
# CHECK-NEXT: k_buf  64 B
# CHECK-NEXT: comm_d1  devices [0, 5]  1 slot, 64 B
# CHECK-NEXT: v_buf  64 B
# CHECK: All checks passed
