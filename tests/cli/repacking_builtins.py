import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def pairs(x: pl.Tensor[[4, 16], pl.FP32]):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    c = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    vc = pld.window(c, [16], dtype=pl.FP32)
    views = [va, vb]
    for i, v in enumerate(views, start=1):
        chip(x[i], v, device=2)
    for p, q in zip(views, list(reversed(views))):
        chip(p, q, device=3)
    by_name = dict(c=vc)
    for r in pl.range(4):
        chip(x[r], by_name["c"], device=r)
    for w in tuple(set([vc])):
        chip(x[0], w, device=5)


# Python's builtins that hand back what they are given, repacked (enumerate, zip,
# reversed, list, tuple, dict, set, frozenset), are followed: their values may hold the
# views among their arguments. Every dispatch above runs: a and b on 2 and 3, c on 0-3
# and 5.
# RUN: %commscope-opt --format=json %s > %t.out; test $? -eq 0
# RUN: %FileCheck %s < %t.out
# CHECK:      "name": "comm_d0",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   2,
# CHECK-NEXT:   3
# CHECK-NEXT: ],
# CHECK:      "name": "a",
# CHECK:      "name": "b",
# CHECK:      "name": "comm_d1",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   1,
# CHECK-NEXT:   2,
# CHECK-NEXT:   3,
# CHECK-NEXT:   5
# CHECK-NEXT: ],
# CHECK:      "name": "c",
# CHECK:      "diagnostics": []
