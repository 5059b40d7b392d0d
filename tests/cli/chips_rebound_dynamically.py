import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


@pl.jit
def chip_in_place(x, v):
    return v


def use_in_place_kernels():
    globals()["chip"] = chip_in_place


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    w = chip(x, v, device=1)
    chip(x, w, device=2)


# A module that may rebind its names where no statement names them (globals(), exec, a
# module-level vars() or locals()) may have made `chip` another chip function by the time
# the host runs: it may return any argument. Worked out by running it after
# use_in_place_kernels(): w is v, so buf is used on devices 1 and 2; taking chip's own
# body (it returns x) gave [1].
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [1, 2]  1 slot, 64 B
# RUN: sed 's/^    globals()\["chip"\] = .*$/    print(globals()["chip"])/' %s | %commscope-opt - | %FileCheck --check-prefix=READ %s
# READ: comm_d0  devices [1]  1 slot, 64 B
