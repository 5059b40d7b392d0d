import pypto.language as pl
import pypto.language.distributed as pld

TP, EPOCHS = 4, 3
(FIRST, LAST) = 1, TP - 1
A, B = B, A = 5, 6
STAR, REST = [*range(2)]


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32]):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    for r in pl.range(TP):
        chip(x, va, device=r)
    chip(x, vb, device=EPOCHS)
    chip(x, vb, device=A)
    chip(x, vb, device=STAR)


# Module constants bound by unpacking a display, one element per name (`TP, EPOCHS = 4,
# 3`), are constants as `TP = 4` is; names bound twice (A, B) or from an unpacked value
# (STAR) are not.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK-NOT: 'TP'
# CHECK-NOT: 'EPOCHS'
# CHECK:     constants_unpacked.py:24:5: error: {{.*}} 'A' is not bound to an integer constant in this file {{.*}}[unsupported-device]
# CHECK:     constants_unpacked.py:25:5: error: {{.*}} 'STAR' is not bound to an integer constant in this file {{.*}}[unsupported-device]
# CHECK:     Found 2 errors in 1 file (1 file checked).
