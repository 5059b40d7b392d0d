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
    assert ok, f"bad tile {tile} of shape {tile.shape}"
    try:
        assert ok, ("bad tile", tile)
    except AssertionError as err:
        _, bad = err.args[0]
        stage(bad, device=3)


# An assert's message is kept in the exception, for a handler to take out and dispatch
# again: a view in it is view-escapes. A formatted message holds no view.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: assert_message_view.py:17:20: error: a view of allocation 'a' is an operand of 'AssertionError(...)'
# CHECK: Found 1 error in 1 file (1 file checked).
