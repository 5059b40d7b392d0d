import pypto.language as pl
import pypto.language.distributed as pld

from broken_layer import broken_chip
from moe import moe_chip


@pl.jit.host
def broken_host():
    buf = pld.alloc_window_buffer(64)
    view = pld.window(buf, [16], dtype=pl.FP32)
    broken_chip(view, device=0)


def test_unaffected():
    @pl.jit.host
    def moe_only():
        routed_buf = pld.alloc_window_buffer(64)
        routed = pld.window(routed_buf, [16], dtype=pl.FP32)
        moe_chip(routed, routed, device=1)
