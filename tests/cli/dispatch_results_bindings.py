import contextlib

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def matched(x, data):
    match data:
        case t:
            return t


@pl.jit
def unpacked(x, data):
    with contextlib.nullcontext((data, x)) as (t, u):
        pass
    return t


@pl.jit
def defaulted(x, data):
    def inner(t=data):
        return t

    f = inner
    return f()


@pl.jit
def sink(w, x):
    return x


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    b = pld.alloc_window_buffer(128)
    vb = pld.window(b, [32], dtype=pl.FP32)
    c = pld.alloc_window_buffer(256)
    vc = pld.window(c, [64], dtype=pl.FP32)
    w = matched(x, va, device=0)
    sink(w, x, device=1)
    w = unpacked(x, vb, device=0)
    sink(w, x, device=2)
    w = defaulted(x, vc, device=0)
    sink(w, x, device=3)


# A chip may hand back its argument through a name that a `case` pattern captures, that
# `as (t, u)` binds, or through a nested def (`def inner(t=data)`): each dispatch's value
# is that view, so the next dispatch gives its device to the view's allocation too.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK-DAG: devices [0, 1]  1 slot, 64 B
# CHECK-DAG: devices [0, 2]  1 slot, 128 B
# CHECK-DAG: devices [0, 3]  1 slot, 256 B
# CHECK: All checks passed
