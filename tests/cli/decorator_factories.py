import functools

import pypto.language as pl
import pypto.language.distributed as pld


def host_kernel(f):
    return pl.jit.host(f)


@host_kernel
def host(x):
    leaked = pld.alloc_window_buffer(64)


def _impl(x):
    leaked = pld.alloc_window_buffer(64)


cached = functools.cache(pl.jit.host(_impl))
HOSTS = {"ring": pl.jit.host(_impl)}
annotated: object = pl.jit.host(_impl)


# The DSL's decorators named where the front end reads no decorator (a decorator factory,
# an argument of another call, a display, an annotated binding) make host orchestrators
# it would not see: unknown-decorator at each, never "0 host orchestrators".
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: decorator_factories.py:8:12: error: cannot read 'pl.jit.host' here, where it is no decorator of a function: a function it makes would drop out of the check unseen [unknown-decorator]
# CHECK: help: apply it as a decorator ('@pl.jit.host'), or wrap a function of the same scope ('host = pl.jit.host(impl)')
# CHECK: decorator_factories.py:20:26: error: cannot read 'pl.jit.host' here
# CHECK: decorator_factories.py:21:18: error: cannot read 'pl.jit.host' here
# CHECK: decorator_factories.py:22:21: error: cannot read 'pl.jit.host' here
# CHECK: Found 4 errors in 1 file (1 file checked).
