import pypto.language as pl
import pypto.language.distributed as pld
from rich import print

TRACED = []


def len(values):
    TRACED.append(values)
    return 8


@pl.jit
def stage(v):
    return None


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    va = pld.window(a, [8], dtype=pl.FP32)
    vb = pld.window(b, [8], dtype=pl.FP32)
    stage(va, device=0)
    stage(vb, device=1)
    print(va)
    n = len(vb)
    ok = isinstance(vb, list)
    for t in TRACED:
        stage(t, device=3)


# A read-only builtin's name that the file binds itself is the file's function, which
# may keep the view (here len's, for the loop that dispatches it on device 3): the pass
# does not follow it. isinstance, which the file does not bind, only reads its operands.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: shadowed_builtins.py:26:5: error: a view of allocation 'a' is passed to 'print', a function the pass does not follow: dispatch the view directly, or inline 'print' first [view-escapes]
# CHECK: shadowed_builtins.py:27:9: error: a view of allocation 'b' is passed to 'len', a function the pass does not follow: dispatch the view directly, or inline 'len' first [view-escapes]
# CHECK-NOT: isinstance
# CHECK: Found 2 errors in 1 file (1 file checked).
