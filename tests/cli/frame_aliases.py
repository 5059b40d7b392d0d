import sys
from sys import _getframe as frame

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def by_alias(x):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    chip(x, v, device=1)
    views = frame().f_locals
    chip(x, views["v"], device=2)


@pl.jit.host
def by_traceback(x):
    tb_buf = pld.alloc_window_buffer(64)
    w = pld.window(tb_buf, [16], dtype=pl.FP32)
    chip(x, w, device=1)
    try:
        raise ValueError("look")
    except ValueError as e:
        names = e.__traceback__.tb_frame.f_locals
    chip(x, names["w"], device=2)


@pl.jit.host
def by_builtin(x):
    plain = pld.alloc_window_buffer(64)
    u = pld.window(plain, [16], dtype=pl.FP32)
    chip(x, u, device=1)
    print(len("no frame"))


# A frame reached other than by calling `sys._getframe` or `inspect.currentframe` by
# that name (an alias from an import, a traceback's frame) gives the function's names as
# locals() does: view-escapes where it may happen. Worked out by running by_alias: v is
# dispatched on devices 1 and 2, where taking frame() for an ordinary call gave [1]. In
# such a file every call of a function the front end does not know may be one; Python's
# builtins are not.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: frame_aliases.py:18:13: error: a view of allocation 'buf' is an operand of 'frame()'
# CHECK: frame_aliases.py:30:17: error: a view of allocation 'tb_buf' is an operand of 'e.__traceback__.tb_frame.f_locals'
# CHECK-NOT: plain
# CHECK: Found 2 errors in 1 file (1 file checked).
