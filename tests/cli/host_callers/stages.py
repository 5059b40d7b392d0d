import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def fill(x):
    return x


@pl.jit.host
def make_buffers():
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    fill(v, device=0)
    return v


@pl.jit.host
def make_pointer():
    raw = pld.alloc_window_buffer(256)
    w = pld.window(raw, [64], dtype=pl.FP32)
    fill(w, device=0)
    return raw


@pl.jit.host
def make_star():
    star_buf = pld.alloc_window_buffer(256)
    s = pld.window(star_buf, [64], dtype=pl.FP32)
    fill(s, device=0)
    return s


@pl.jit.host
def local_only():
    tmp = pld.alloc_window_buffer(256)
    t = pld.window(tmp, [64], dtype=pl.FP32)
    fill(t, device=0)
    return t


@pl.jit.host
def make_relay():
    relay_buf = pld.alloc_window_buffer(256)
    r = pld.window(relay_buf, [64], dtype=pl.FP32)
    fill(r, device=0)
    return r
