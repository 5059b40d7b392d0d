import inspect
import sys

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def by_locals(x: pl.Tensor[[4, 16], pl.FP32]):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(x[0], va, device=0)
    names = locals()
    chip(x[3], names["va"], device=3)


@pl.jit.host
def by_exec(x: pl.Tensor[[4, 16], pl.FP32]):
    b = pld.alloc_window_buffer(64)
    for r in pl.range(2):
        exec("chip(x[2], vb, device=2)")
        vb = pld.window(b, [16], dtype=pl.FP32)
        chip(x[r], vb, device=r)


@pl.jit.host
def by_frames(x: pl.Tensor[[4, 16], pl.FP32]):
    c = pld.alloc_window_buffer(64)
    vc = pld.window(c, [16], dtype=pl.FP32)
    chip(x[0], vc, device=0)
    w = inspect.currentframe().f_locals["vc"]
    chip(x[3], w, device=3)
    u = sys._getframe(0).f_locals["vc"]
    chip(x[2], u, device=2)


# Python's builtins that reach a function's variables by name (locals(), vars(), eval,
# exec, and a frame's f_locals) may use any of its views, in a loop those bound below
# them too: view-escapes there.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: dynamic_names.py:18:13: error: a view of allocation 'a' is an operand of 'locals()', {{.*}} [view-escapes]
# CHECK: dynamic_names.py:26:9: error: a view of allocation 'b' is an operand of 'exec("chip(x[2], vb, device=2)")', {{.*}} [view-escapes]
# CHECK: dynamic_names.py:36:9: error: a view of allocation 'c' is an operand of 'inspect.currentframe()', {{.*}} [view-escapes]
# CHECK: dynamic_names.py:38:9: error: a view of allocation 'c' is an operand of 'sys._getframe(0)', {{.*}} [view-escapes]
# CHECK: Found 4 errors in 1 file (1 file checked).
# CHECK-NOT: error
