import functools
import pypto.language as pl
import pypto.language.distributed as pld
from compat import host_jit, host_kernel, maybe, log_calls


@functools.cache
def helper():
    return 1


@log_calls
@pl.jit
def chip(x, v):
    return x


@host_kernel
def host(x):
    leaked = pld.alloc_window_buffer(64)


@maybe
def host2(x):
    leaked2 = pld.alloc_window_buffer(64)


def _impl(x):
    leaked3 = pld.alloc_window_buffer(64)


host3 = host_jit(_impl)
host4 = host_kernel(_impl)


# A decorator that another module of the program makes from the DSL's decorators in a
# way the front end does not read (a factory, a conditional) is reported: the function
# would drop out of the check. So is a call of any such decorator that wraps a def, which
# the front end reads by the DSL's own spellings alone. Decorators of libraries (functools) and of the program's
# modules that are none of the DSL's (log_calls) are left alone.
# RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/model.py
# RUN: printf 'import pypto.language as pl\nhost_jit = pl.jit.host\nFAST = True\n\n\ndef host_kernel(f):\n    return pl.jit.host(f)\n\n\nmaybe = pl.jit.host if FAST else pl.jit\n\n\ndef log_calls(f):\n    return f\n' > %t.d/compat.py
# RUN: %commscope-opt %t.d/model.py > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: model.py:18:2: error: cannot read '@host_kernel': module {{.*}}compat.py makes 'host_kernel' from the DSL's decorators in a way the front end does not read, so the function it decorates would drop out of the check [unknown-decorator]
# CHECK: help: decorate the function with the DSL's decorator itself ('@pl.jit.host'), or bind the name once in a module of the program as a plain alias of it ('host_jit = pl.jit.host')
# CHECK: model.py:23:2: error: cannot read '@maybe': module {{.*}}compat.py makes 'maybe'
# CHECK: model.py:32:9: error: cannot read 'host3 = host_jit(...)': 'host_jit', through module 'compat', is the DSL's pl.jit.host, and the function this call makes would drop out of the check [unknown-decorator]
# CHECK: help: decorate the def with '@host_jit' instead
# CHECK: model.py:33:9: error: cannot read 'host4 = host_kernel(...)': 'host_kernel', through module 'compat', may make DSL functions
# CHECK-NOT: log_calls
# CHECK: Found 4 errors in 1 file (1 file checked).
