import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(v):
    return None


KERNELS = {"a": stage}


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [8], dtype=pl.FP32)
    stage(v, device=0)
    getters = [lambda: v]
    stage(getters[0](), device=1)
    KERNELS["a"](x, v, device=1)


# A function reached through an element (a registry, a list of lambdas) is named in the
# message as the file spells it.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: callee_subscript_spelling.py:19:11: error: a view of allocation 'buf' is passed to 'getters[0]', a function the pass does not follow: dispatch the view directly, or inline 'getters[0]' first [view-escapes]
# CHECK: callee_subscript_spelling.py:20:5: error: a view of allocation 'buf' is passed to 'KERNELS["a"]', a function the pass does not follow
