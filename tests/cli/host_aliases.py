import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def make(x):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    chip(x, v, device=0)
    return v


def _make_kv(x):
    kv = pld.alloc_window_buffer(256)
    w = pld.window(kv, [64], dtype=pl.FP32)
    chip(x, w, device=0)
    return w


make_kv = pl.jit.host(_make_kv)


@pl.jit.host
def make_plain(x):
    plain = pld.alloc_window_buffer(256)
    p = pld.window(plain, [64], dtype=pl.FP32)
    chip(x, p, device=0)
    return p


build = make
HOSTS = {"build": build}


@pl.jit.host
def run(x):
    w = HOSTS["build"](x)
    chip(x, w, device=3)
    u = _make_kv(x)
    chip(x, u, device=3)


if __name__ == "__main__":
    make_plain(None)


# A host orchestrator that another one reaches under another name of the module (an
# alias of an alias in a dict, the def it wraps) hands it what it returns: view-escapes
# at the return. make_plain is only called by the module's own code, the runtime's: its
# return stands.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: host_aliases.py:15:5: error: a view of allocation 'buf' is returned by 'make' to callers the pass does not follow
# CHECK: host_aliases.py:22:5: error: a view of allocation 'kv' is returned by 'make_kv' to callers the pass does not follow
# CHECK-NOT: plain
# CHECK: Found 2 errors in 1 file (1 file checked).
