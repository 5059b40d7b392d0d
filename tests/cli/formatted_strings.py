import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(v):
    return None


@pl.jit.host
def host(x, ok: bool):
    a = pld.alloc_window_buffer(64)
    tile = pld.window(a, [8], dtype=pl.FP32)
    stage(tile, device=0)
    assert ok, "bad tile %s" % tile
    assert ok, "bad tile {}".format(tile)
    for ((r)) in pl.range(3):
        stage(tile, device=r)


# A string formatted from a view (`%`, a string's own methods such as format) holds
# none of it, in an assert's message as anywhere; `for ((r)) in` is `for r in`.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [0, 1, 2]  1 slot, 64 B
# CHECK: All checks passed
