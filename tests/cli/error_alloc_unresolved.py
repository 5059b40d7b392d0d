import helpers
import pypto.language as pl


@pl.jit
def chip(x, v):
    return None


@pl.jit.host
def host(x):
    buf = helpers.alloc_window_buffer(64)
    chip(x, buf, device=3)


# An allocation the front end cannot tell for the DSL's (a helper of that name, the DSL's
# module reached through a value) would go unchecked: malformed-op, never a silent pass.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: error_alloc_unresolved.py:12:11: error: cannot read 'helpers.alloc_window_buffer(...)' as the DSL's pld.alloc_window_buffer: the allocation it may make would go unchecked [malformed-op]
# CHECK: help: call it through a name that the file binds to the DSL's module by an import ('import pypto.language.distributed as pld', then 'pld.alloc_window_buffer(...)')
# CHECK: Found 1 error in 1 file (1 file checked).
