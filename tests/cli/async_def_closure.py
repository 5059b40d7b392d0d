import asyncio

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def host(x):
    buf0 = pld.alloc_window_buffer(64)
    buf1 = pld.alloc_window_buffer(64)
    v0 = pld.window(buf0, [16], dtype=pl.FP32)
    v1 = pld.window(buf1, [16], dtype=pl.FP32)
    chip(x, v1, device=0)
    w = v0

    async def later():
        chip(x, w, device=4)

    w = v1
    asyncio.run(later())


# An `async def` inside a host orchestrator is a function defined there, as a `def` is: it
# reads the views as a closure, when it is awaited, not where it stands.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: async_def_closure.py:21:5: error: a view of allocation 'buf0' is an operand of 'def later'
# CHECK: async_def_closure.py:24:5: error: a view of allocation 'buf1' is an operand of 'w = ... (read by def later)'
