import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(x, v):
    return x


@pl.jit.host
def coroutine(x):
    buf = pld.alloc_window_buffer(64)
    last = pld.alloc_window_buffer(64)
    v = pld.window(buf, [8], dtype=pl.FP32)
    w = pld.window(last, [8], dtype=pl.FP32)
    stage(x, v, device=1)
    for r in pl.range(2, pld.world_size() - 1):
        stage(x, v, device=r)
    got = yield x  # the consumer sends a value back, or stops here
    stage(got, w, device=5)


@pl.jit.host
def logged(x):
    buf = pld.alloc_window_buffer(64)
    last = pld.alloc_window_buffer(64)
    v = pld.window(buf, [8], dtype=pl.FP32)
    w = pld.window(last, [8], dtype=pl.FP32)
    stage(x, v, device=1)
    for r in pl.range(2, pld.world_size() - 1):
        stage(x, v, device=r)
    print((yield))
    stage(x, w, device=5)


# A yield inside an expression (`got = yield x`, `print((yield))`) may stop the generator
# there as a yield statement does: the dispatch on device 5 after it does not surely run,
# so worlds of 2 to 5 ranks stay possible and device 1 stays apart from the range (at 2
# ranks range(1, world_size() - 1) would be empty while device 1 runs). Worked out by
# hand: a consumer that stops at the yield in a world of 2 dispatches v on device 1 alone.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: host orchestrator 'coroutine': 2 comm domains
# CHECK-NEXT: comm_d0  devices [1, range(2, world_size() - 1)]  1 slot, 64 B
# CHECK: host orchestrator 'logged': 2 comm domains
# CHECK-NEXT: comm_d0  devices [1, range(2, world_size() - 1)]  1 slot, 64 B
# CHECK: All checks passed
#
# The rewritten file keeps the statements as written, and nothing else.
# RUN: %commscope-opt --emit=ir %s | %FileCheck --check-prefix=IR --match-full-lines %s
# IR:                 stage(x, v, device=r)
# IR-NEXT:             got = yield x  # the consumer sends a value back, or stops here
# IR-NEXT:             stage(got, w, device=5)
# IR:             print((yield))
# IR-NEXT:             stage(x, w, device=5)
