import pypto.language as pl
import pypto.language.distributed  # noqa: F401  (loads the submodule pl.distributed names)


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    buf = pl.distributed.alloc_window_buffer(64)
    v = pl.distributed.window(buf, [16], dtype=pl.FP32)
    for r in range(pl.distributed.world_size()):
        chip(x[r], v, device=r)
    part = pl.distributed.alloc_window_buffer(32)
    p = pl.distributed.window(part, [8], dtype=pl.FP32)
    for r in range(1, pl.distributed.world_size()):
        chip(x[r], p, device=r)
