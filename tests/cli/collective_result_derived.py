import pypto.language as pl
import pypto.language.distributed as pld

HALF = 128


@pl.jit
def stage(t):
    return None


@pl.jit.host
def host(x):
    grad_buf = pld.alloc_window_buffer(2 * HALF * 4)
    grad = pld.window(grad_buf, [2 * HALF], dtype=pl.FP32)
    for r in pl.range(2):
        stage(grad, device=r)
    # Reduce the first half only, then use it on device 3.
    reduced = pld.tensor.allreduce(grad[0:HALF], op=pl.ReduceOp.SUM)
    stage(reduced, device=3)


# The result of a collective whose data is a slice of a view is (part of) that view: its
# dispatch on device 3 reaches grad_buf, and the signal synthesized for the allreduce
# inherits the same devices.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [0, 1, 3]  2 slots
# CHECK-NEXT: grad_buf
# CHECK-NEXT: __allreduce_signal_buf_0
