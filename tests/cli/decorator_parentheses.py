import pypto.language as pl
import pypto.language.distributed as pld


@(pl.jit)
def chip(x):
    return x


@(pl.jit.host)
def host():
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(va, device=1)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)


# Parentheses around a whole decorator only group it (Python 3.9): `host` is a host
# orchestrator and `chip` a chip orchestrator. The host dropped out of the check.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: decorator_parentheses.py:15:5: error: allocation 'b' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# CHECK: Found 1 error in 1 file (1 file checked).
# RUN: sed -e 's/^@(pl.jit.host)$/@((pl.jit.hots))/' %s > %t.unknown.py
# RUN: %commscope-opt %t.unknown.py > %t.unknown.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNKNOWN %s < %t.unknown.out
# UNKNOWN: .py:10:4: error: unknown decorator 'pl.jit.hots': the DSL has no such decorator [unknown-decorator]
