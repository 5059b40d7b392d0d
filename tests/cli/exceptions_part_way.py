import contextlib

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    c = pld.alloc_window_buffer(64)
    d = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    vc = pld.window(c, [16], dtype=pl.FP32)
    vd = pld.window(d, [16], dtype=pl.FP32)
    chip(x[0], va, device=0)
    chip(x[0], vb, device=0)
    chip(x[0], vc, device=0)
    chip(x[0], vd, device=0)
    cur = va
    try:
        cur = vb
        int("not a number")
        cur = va
    except ValueError:
        pass
    chip(x[1], cur, device=1)
    got = vc
    with contextlib.suppress(KeyError):
        got = vd
        {}["missing"]
        got = vc
    chip(x[2], got, device=2)
    with pl.at(level=pl.Level.HOST):
        last = vd
        last = vc
    chip(x[3], last, device=3)


# An exception may stop a try body, or a with body whose manager swallows it, part way,
# and what follows still runs: it may see a value bound in the middle (vb after the try,
# vd after the suppress), as running the file does. The DSL's own `with pl.at(...)`
# swallows nothing: after it `last` is vc alone, so d does not get device 3.
# RUN: %commscope-opt --format=json %s | %FileCheck %s
# CHECK:      "name": "comm_d0",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   1
# CHECK-NEXT: ],
# CHECK:      "name": "a",
# CHECK:      "name": "b",
# CHECK:      "name": "comm_d1",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   2,
# CHECK-NEXT:   3
# CHECK-NEXT: ],
# CHECK:      "name": "c",
# CHECK:      "name": "comm_d2",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   2
# CHECK-NEXT: ],
# CHECK:      "name": "d",
