import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32]):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    c = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    vc = pld.window(c, [16], dtype=pl.FP32)
    init = (va,)
    for i, (p,) in pl.range(2, init_values=init):
        chip(x, p, device=i)
    for i, (p, q) in pl.range(2, 4, init_values=(*[vb, vc],)):
        chip(x, q, device=i)
    chip(x, va, device=3)
    chip(x, vb, device=3)
    chip(x, vc, device=3)


# init_values not written as one element per loop-carried name (a name bound to the
# tuple, a starred element): each carried name may hold any view of the value, so a
# gets devices 0 and 1 through p, and b and c devices 2 and 3 through q.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK:      comm_d0  devices [0, 1, 3]  1 slot, 64 B
# CHECK-NEXT:   a  64 B
# CHECK-NEXT: comm_d1  devices [2, 3]  2 slots, 128 B
# CHECK-NEXT:   b  64 B
# CHECK-NEXT:   c  64 B
# CHECK-NEXT: All checks passed: 1 file, 1 program, 1 host orchestrator.
