import functools

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(v):
    return None


KERNELS = {"a": stage}


def make(d):
    return lambda t: stage(t, device=d)


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [8], dtype=pl.FP32)
    stage(v, device=0)
    getters = [lambda: v]
    stage(getters[0](), device=1)
    KERNELS["a"](x, v, device=1)
    functools.partial(stage, x)(v, device=2)
    make(3)(v)


# A function reached through an element (a registry, a list of lambdas) or made by a call
# (a partial application, a factory) is named in the message as the file spells it.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: callee_spelling.py:25:11: error: a view of allocation 'buf' is passed to 'getters[0]', a function the pass does not follow: dispatch the view directly, or inline 'getters[0]' first [view-escapes]
# CHECK: callee_spelling.py:26:5: error: a view of allocation 'buf' is passed to 'KERNELS["a"]', a function the pass does not follow
# CHECK: callee_spelling.py:27:5: error: a view of allocation 'buf' is passed to 'functools.partial(stage, x)', a function the pass does not follow: dispatch the view directly, or inline 'functools.partial(stage, x)' first [view-escapes]
# CHECK: callee_spelling.py:28:5: error: a view of allocation 'buf' is passed to 'make(3)', a function the pass does not follow
# A long callee is cut short: a chain of calls spells each of its callees, which in full
# would take memory growing with the square of the chain (24 GB for 200,000 calls, and
# for 100,000 items called).
# RUN: %python -c "print('import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.jit.host\ndef host(x):\n    a = pld.alloc_window_buffer(64)\n    v = pld.window(a, [8], dtype=pl.FP32)\n    f' + '()' * 100000 + '(v)')" > %t.chain.py
# RUN: %commscope-opt %t.chain.py > %t.chain.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=CHAIN %s < %t.chain.out
# CHAIN: error: a view of allocation 'a' is passed to 'f()(){{(\(\))+}}()...', a function the pass does not follow
# The same for a chain of items and calls, whose every call's callee is an item.
# RUN: %python -c "print('import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.jit.host\ndef host(x):\n    a = pld.alloc_window_buffer(64)\n    v = pld.window(a, [8], dtype=pl.FP32)\n    f' + '[0]()' * 100000 + '(v)')" > %t.items.py
# RUN: %commscope-opt %t.items.py > %t.items.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=ITEMS %s < %t.items.out
# ITEMS: error: a view of allocation 'a' is passed to 'f[0](){{(\[0\]\(\))+}}[...', a function the pass does not follow
