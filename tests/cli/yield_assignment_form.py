import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32], c: pl.Scalar[pl.BOOL]):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    d = pld.alloc_window_buffer(64)
    e = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    vd = pld.window(d, [16], dtype=pl.FP32)
    ve = pld.window(e, [16], dtype=pl.FP32)
    for i, (p,) in pl.range(2, init_values=(va,)):
        chip(x, p, device=i)
        res = pl.yield_(vb)
    chip(x, res, device=3)
    if c:
        y = pl.yield_(vd)
    else:
        y = pl.yield_(ve)
    chip(x, y, device=2)


# The DSL's assignment form of pl.yield_, which it requires in a loop with init_values:
# closing the loop it rebinds the carried p (b gets device 1 through p) and binds res,
# which after a loop that never ran is the entry value (a gets device 3 through res);
# closing the branches of an if it binds y to either branch's value.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK:      comm_d0  devices [0, 1, 3]  2 slots, 128 B
# CHECK-NEXT:   a  64 B
# CHECK-NEXT:   b  64 B
# CHECK-NEXT: comm_d1  devices [2]  2 slots, 128 B
# CHECK-NEXT:   d  64 B
# CHECK-NEXT:   e  64 B
# CHECK-NEXT: All checks passed: 1 file, 1 program, 1 host orchestrator.
# RUN: %commscope-opt --emit=ir %s > %t.ir.py
# RUN: %commscope-opt --format=json %t.ir.py | %FileCheck --check-prefix=AGAIN %s
# AGAIN: "diagnostics": []
