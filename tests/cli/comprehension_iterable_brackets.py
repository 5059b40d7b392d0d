import pypto.language as pl
import pypto.language.distributed as pld

FLAG = True


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    chip(x, va, device=0)
    chip(x, vb, device=0)
    [chip(x, t, device=1) for t in ((vb if FLAG else va), vb)]
    [chip(x, t, device=2) for t in [va if FLAG else vb]]
    [chip(x, t, device=3) for t in (va, vb)[0 if FLAG else 1 :] if (t is va if FLAG else True)]
    return [f"{n if FLAG else 0}" for n in (f"{1 if FLAG else 2}",)]


# A comprehension's iterable ends where an `if` begins its filter, but inside brackets a
# conditional expression is whole: Python reads this file, and so must the front end
# (which took `if` in `((vb if FLAG else va), vb)` for a filter: a syntax error). Each
# conditional expression may yield either view, so both allocations get devices 1 to 3.
# RUN: %commscope-opt --format=json %s > %t.json
# RUN: %FileCheck %s < %t.json
# CHECK:      "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   1,
# CHECK-NEXT:   2,
# CHECK-NEXT:   3
# CHECK-NEXT: ],
# CHECK-NEXT: "slots": [
# CHECK:        "name": "a",
# CHECK:        "name": "b",
# CHECK:      "diagnostics": []
