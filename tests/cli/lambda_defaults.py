import pypto.language as pl
import pypto.language.distributed as pld

STASH = []


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def send_later(x):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    chip(x, v, device=0)
    send = lambda t=v: chip(x, t, device=3)  # the default binds the view now
    send()


@pl.jit.host
def per_rank(x):
    kv = pld.alloc_window_buffer(256)
    k = pld.window(kv, [64], dtype=pl.FP32)
    chip(x, k, device=0)
    for r in pl.range(pld.world_size()):
        step = lambda t=k, d=r: chip(x, t, device=d)
        step()


@pl.jit.host
def stashed(x):
    kept = pld.alloc_window_buffer(256)
    w = pld.window(kept, [64], dtype=pl.FP32)
    chip(x, w, device=0)
    keep = lambda t=w: STASH.append(t)
    keep()


# A lambda's parameter with a default holds what the default held when the lambda was
# made: `lambda t=v: chip(x, t, device=3)` dispatches v on device 3 when it is called.
# Worked out by running the hosts in worlds of 1 to 8: buf is used on devices 0 and 3,
# kv on every device; STASH keeps a view of `kept`. The parameter was an unknown name:
# buf and kv got [0], and the stash passed.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: lambda_defaults.py:36:24: error: a view of allocation 'kept' is passed to 'STASH.append'
# CHECK: Found 1 error in 1 file (1 file checked).
# RUN: sed 's/STASH.append(t)/t is None/' %s | %commscope-opt - | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'send_later': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0, 3]  1 slot, 256 B
# PLAN: host orchestrator 'per_rank': 1 comm domain
# PLAN-NEXT: comm_d0  devices all  1 slot, 256 B
