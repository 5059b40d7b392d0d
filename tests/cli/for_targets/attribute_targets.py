import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x, cfg):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    for cfg.idx, (p, q[0]) in [(1, (2, 3))]:
        chip(x[p], va, device=0)
    for k in (va,):
        chip(x[1], k, device=1)
