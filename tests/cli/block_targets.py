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
    chip(x[0], va, device=0)
    for u in (va, vb):
        chip(x[1], u, device=1)
    views = [vc]
    for w in views:
        chip(x[2], w, device=2)
    with vc as z:
        chip(x[3], z, device=3)


# What a statement binds besides an assignment (`for u in items`, `with ... as z`) holds
# what its values hold, in every iteration of its body: a, b and c are used on the
# devices that dispatch the loop's and the block's variables.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK:      comm_d0  devices [0, 1]  1 slot, 64 B
# CHECK-NEXT:   a  64 B
# CHECK-NEXT: comm_d1  devices [1]  1 slot, 64 B
# CHECK-NEXT:   b  64 B
# CHECK-NEXT: comm_d2  devices [2, 3]  1 slot, 64 B
# CHECK-NEXT:   c  64 B
