import pypto.language as pl
import pypto.language.distributed as pld

from broken_chip import chip


@pl.jit.host
def host():
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    chip(v, device=0)
