import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, data):
    return data


@pl.jit.host
def stream(x):
    buf = pld.alloc_window_buffer(64)
    for r in pl.range(2):
        v = pld.window(buf, [16], dtype=pl.FP32)
        chip(x[r], v, device=r)
        yield v
    yield


# A host orchestrator may be a generator: `yield v` (a statement) hands its value out as
# a return does, and Python reads the file; a yield assigned to is its syntax error, where
# Python 3.11 puts it.
# RUN: %commscope-opt --format=json %s | %python %S/scripts/plan_summary.py | %FileCheck %s
# CHECK: SCOPE comm_d0 [0, 1]: buf=64
# CHECK: END
# RUN: sed 's/^    yield$/    yield = 3/' %s > %t.assign.py
# RUN: %commscope-opt %t.assign.py > %t.out 2>&1; test $? -eq 3
# RUN: %FileCheck --check-prefix=ASSIGN %s < %t.out
# ASSIGN: assign.py:17:5: error: assignment to yield expression not possible [syntax]
