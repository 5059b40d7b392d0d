"""`norm` lives in vendor/, found only through -I or PYTHONPATH."""

import pypto.language as pl
import pypto.language.distributed as pld

from norm import NORM_WIDTH, norm_chip


@pl.jit.host
def norm_host():
    nbuf = pld.alloc_window_buffer(NORM_WIDTH * 4)
    nview = pld.window(nbuf, [NORM_WIDTH], dtype=pl.FP32)
    norm_chip(nview, device=3)
