import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def touch(x):
    return x


@pl.jit.host
def make_inner():
    inner_buf = pld.alloc_window_buffer(128)
    i = pld.window(inner_buf, [32], dtype=pl.FP32)
    touch(i, device=0)
    yield i


@pl.jit.host
def make_inner_b():
    inner_b_buf = pld.alloc_window_buffer(128)
    j = pld.window(inner_b_buf, [32], dtype=pl.FP32)
    touch(j, device=0)
    return j
