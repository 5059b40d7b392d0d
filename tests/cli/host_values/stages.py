import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def fill(x):
    return x


@pl.jit.host
def make_alias():
    alias_buf = pld.alloc_window_buffer(256)
    v = pld.window(alias_buf, [64], dtype=pl.FP32)
    fill(v, device=0)
    return v


@pl.jit.host
def make_registered():
    registered_buf = pld.alloc_window_buffer(256)
    v = pld.window(registered_buf, [64], dtype=pl.FP32)
    fill(v, device=0)
    return v


@pl.jit.host
def make_getter():
    getter_buf = pld.alloc_window_buffer(256)
    v = pld.window(getter_buf, [64], dtype=pl.FP32)
    fill(v, device=0)
    return v


@pl.jit.host
def make_run_only():
    run_buf = pld.alloc_window_buffer(256)
    v = pld.window(run_buf, [64], dtype=pl.FP32)
    fill(v, device=0)
    return v
