import pypto.language as pl
import pypto.language.distributed as pld

H = G = pl.jit.host
(P,) = (pl.jit.host,)
A = pl.jit
A = A.host
for F in [pl.jit.host]:
    pass


@H
def chained(x):
    a = pld.alloc_window_buffer(64)


@P
def parenthesized(x):
    a = pld.alloc_window_buffer(64)


@A
def rebound(x):
    a = pld.alloc_window_buffer(64)


@F
def looped(x):
    a = pld.alloc_window_buffer(64)


# A decorator through a name that a binding the front end does not read binds to the DSL's
# decorators (a chained assignment, a parenthesized target, a for loop, an alias bound
# again) may make a host orchestrator, which would drop out of the check: each is
# unknown-decorator, never an all-clear with the function left out.
# RUN: %commscope-opt -q %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: decorator_alias_bindings.py:12:2: error: cannot read the decorator 'H' of 'chained', {{.*}}: 'H' is bound on line 4 by 'H = G = pl.jit.host': {{.*}} [unknown-decorator]
# CHECK: decorator_alias_bindings.py:17:2: error: cannot read the decorator 'P' of 'parenthesized', {{.*}}: 'P' is bound on line 5 by '(P,) = (pl.jit.host,)': {{.*}} [unknown-decorator]
# CHECK: decorator_alias_bindings.py:22:2: error: cannot read the decorator 'A' of 'rebound', {{.*}}: 'A' is bound on line 7 to 'A.host': {{.*}} [unknown-decorator]
# CHECK: decorator_alias_bindings.py:27:2: error: cannot read the decorator 'F' of 'looped', {{.*}}: 'F' is bound on line 8 by 'for F in [pl.jit.host]:': {{.*}} [unknown-decorator]
