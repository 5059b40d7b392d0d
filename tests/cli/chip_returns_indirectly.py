import pypto.language as pl
import pypto.language.distributed as pld

STASH = []


@pl.jit
def stashed(x, v):
    STASH.append(v)
    return STASH[-1]


@pl.jit
def caught(x, v):
    try:
        raise KeyError(v)
    except KeyError as e:
        return e.args[0]


@pl.jit
def looked_up(x, v):
    return locals()["v"]


@pl.jit
def plain(x, v):
    return x


@pl.jit.host
def host(x):
    a_buf = pld.alloc_window_buffer(64)
    b_buf = pld.alloc_window_buffer(64)
    c_buf = pld.alloc_window_buffer(64)
    d_buf = pld.alloc_window_buffer(64)
    a = pld.window(a_buf, [16], dtype=pl.FP32)
    b = pld.window(b_buf, [16], dtype=pl.FP32)
    c = pld.window(c_buf, [16], dtype=pl.FP32)
    d = pld.window(d_buf, [16], dtype=pl.FP32)
    plain(x, stashed(x, a, device=1), device=3)
    plain(x, caught(x, b, device=1), device=3)
    plain(x, looked_up(x, c, device=1), device=3)
    plain(x, plain(x, d, device=1), device=3)


# A chip function may hand an argument back other than by naming it in its return: from
# a module's list it stored it into, from an exception it raised and caught, through
# locals(). Worked out by running host in worlds of 4 to 8: a_buf, b_buf and c_buf are
# used on devices 1 and 3 (the second dispatch is passed the first one's value, the view);
# d_buf on device 1 alone, since plain returns x. Read from their returns alone, the three
# gave [1].
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [1, 3]  3 slots, 192 B
# CHECK-NEXT: a_buf  64 B
# CHECK-NEXT: b_buf  64 B
# CHECK-NEXT: c_buf  64 B
# CHECK-NEXT: comm_d1  devices [1]  1 slot, 64 B
# CHECK-NEXT: d_buf  64 B
