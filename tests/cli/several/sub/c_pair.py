import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def pair():
    buf = pld.alloc_window_buffer(32, name="pair_buf")
    v = pld.window(buf, [8], dtype=pl.FP32)
    for d in pl.range(0, 2):
        chip(v, device=d)
