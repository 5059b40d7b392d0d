import pypto.language as pl
import pypto.language.distributed as pld

from cycle_a import a_chip, b_chip
from cycle_b import ghost_chip


@pl.jit.host
def cycle_host():
    buf = pld.alloc_window_buffer(64)
    view = pld.window(buf, [16], dtype=pl.FP32)
    a_chip(view, device=0)
    b_chip(view, device=1)
    return view


def test_ghost():
    @pl.jit.host
    def ghost_host():
        lost_buf = pld.alloc_window_buffer(64)
        lost = pld.window(lost_buf, [16], dtype=pl.FP32)
        ghost_chip(lost, device=0)
