import pypto.language as pl
import pypto.language.distributed as pld
import pytest


@pl.jit
def stage(x, v):
    return x


def require_world(n):
    if pld.world_size() < n:
        pytest.skip(f"needs {n} ranks")


@pl.jit.host
def skipped(x):
    buf = pld.alloc_window_buffer(64)
    last = pld.alloc_window_buffer(64)
    v = pld.window(buf, [8], dtype=pl.FP32)
    w = pld.window(last, [8], dtype=pl.FP32)
    stage(x, v, device=1)
    for r in pl.range(2, pld.world_size() - 1):
        stage(x, v, device=r)
    if pld.world_size() < 6:
        pytest.skip("needs 6 ranks")
    stage(x, w, device=5)


@pl.jit.host
def checked(x):
    buf = pld.alloc_window_buffer(64)
    last = pld.alloc_window_buffer(64)
    v = pld.window(buf, [8], dtype=pl.FP32)
    w = pld.window(last, [8], dtype=pl.FP32)
    stage(x, v, device=1)
    for r in pl.range(2, pld.world_size() - 1):
        stage(x, v, device=r)
    require_world(6)
    stage(x, w, device=5)


@pl.jit.host
def printed(x):
    buf = pld.alloc_window_buffer(64)
    last = pld.alloc_window_buffer(64)
    v = pld.window(buf, [8], dtype=pl.FP32)
    w = pld.window(last, [8], dtype=pl.FP32)
    stage(x, v, device=1)
    for r in pl.range(2, pld.world_size() - 1):
        stage(x, v, device=r)
    print("ready")
    stage(x, w, device=5)


# A call of a function the front end does not know may raise in some worlds and not in
# others (pytest.skip under a test of the world's size, a helper that checks it): no
# dispatch after it surely runs, so worlds of 2 to 5 ranks stay possible and device 1
# stays apart from the range. Worked out by running `skipped` and `checked` in a world
# of 2: v is dispatched on device 1, range(2, 1) is empty, then the skip raises; merged
# into range(1, world_size() - 1), device 1 would be missing there. print, a builtin,
# raises in no world of its own: in `printed` the dispatch on device 5 surely runs, so
# worlds have at least 6 ranks, and device 1 joins the range.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: host orchestrator 'skipped': 2 comm domains
# CHECK-NEXT: comm_d0  devices [1, range(2, world_size() - 1)]  1 slot, 64 B
# CHECK: host orchestrator 'checked': 2 comm domains
# CHECK-NEXT: comm_d0  devices [1, range(2, world_size() - 1)]  1 slot, 64 B
# CHECK: host orchestrator 'printed': 2 comm domains
# CHECK-NEXT: comm_d0  devices [range(1, world_size() - 1)]  1 slot, 64 B
# CHECK: All checks passed
#
# The rewritten file keeps the statements as written, and nothing else.
# RUN: %commscope-opt --emit=ir %s | %FileCheck --check-prefix=IR --match-full-lines %s
# IR:                 stage(x, v, device=r)
# IR-NEXT:             if pld.world_size() < 6:
# IR-NEXT:                 pytest.skip("needs 6 ranks")
# IR-NEXT:             stage(x, w, device=5)
# IR:             require_world(6)
# IR-NEXT:             stage(x, w, device=5)
