import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def carried(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(x[0], va, device=0)
    picked = [w for w in (va,) if (last := w) is not None]
    chip(x[1], last, device=1)
    return picked
