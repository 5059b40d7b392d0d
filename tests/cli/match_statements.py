import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32], mode, n: int):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    match (mode, va):
        case ("fast", w) if n > 1:
            chip(x[1], w, device=1)
        case Config(level=2, view=w) | [_, w]:
            chip(x[2], w, device=2)
        case _:
            chip(x[0], vb, device=0)


# A match statement: case guards are no conditional expressions, class patterns call
# nothing, and what a pattern captures (w) may be any view the subject holds.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK:      comm_d0  devices [1, 2]  1 slot, 64 B
# CHECK-NEXT:   a  64 B
# CHECK-NEXT: comm_d1  devices [0]  1 slot, 64 B
# CHECK-NEXT:   b  64 B
