import pypto.language as pl
import pypto.language.distributed as pld


def alloc_kv(n):
    """A helper of the model library: one KV window per rank."""
    return pld.alloc_window_buffer(n)


@pl.jit
def attn(x, kv):
    return None


@pl.jit.host
def decoder(x):
    kv_buf = alloc_kv(256)
    kv = pld.window(kv_buf, [64], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        attn(x[r], kv, device=r)


@pl.jit.host
def from_parameter(x, buf):
    v = pld.window(buf, [64], dtype=pl.FP32)
    attn(x, v, device=1)


@pl.jit.host
def through_value(x):
    alloc = pld.alloc_window_buffer
    buf = alloc(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    attn(x, v, device=2)


# A window of what the host orchestrator does not allocate itself (a helper's result, a
# parameter, a call through a value) is used on devices the pass cannot know, and no
# scope would hold it: malformed-op, never a silent pass.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: error_window_unknown_pointer.py:18:5: error: a window is taken of a pointer that names no allocation of this host orchestrator (a parameter, a helper's result, a value of the module): the pass cannot tell which devices use it, and no scope would hold it [malformed-op]
# CHECK: help: allocate the window buffer in this host orchestrator (p = pld.alloc_window_buffer(size)) and take the window of that variable
# CHECK: error_window_unknown_pointer.py:25:5: error: a window is taken of a pointer
# CHECK: error_window_unknown_pointer.py:33:5: error: a window is taken of a pointer
# CHECK: Found 3 errors in 1 file (1 file checked).
