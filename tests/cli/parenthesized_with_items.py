import contextlib

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    with (pl.at(level=pl.Level.HOST) as scope, contextlib.nullcontext() as w):
        chip(x[0], v, device=0)
    with (
        pl.at(level=pl.Level.HOST),
    ):
        chip(x[1], v, device=1)
    return scope


# Parenthesized with items (Python 3.10): each item is read, each `as` binds, and the
# file prints back as written.
# RUN: %commscope-opt --format=json %s | %FileCheck %s
# CHECK:      "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   1
# CHECK-NEXT: ],
# RUN: %commscope-opt --emit=ir %s > %t.py
# RUN: %FileCheck --check-prefix=IR %s < %t.py
# IR: with (pl.at(level=pl.Level.HOST) as scope, contextlib.nullcontext() as w):
# RUN: %commscope-opt --format=json %t.py | %FileCheck %s
