import pypto.language as pl
import pypto.language.distributed as pld

TP = 2


@pl.jit
def shard(x, w):
    return x


@pl.jit.host
def forward(x):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    for r in pl.range(TP):
        shard(x[r], v, device=r)
    return x


def main(tp):
    global TP
    TP = tp
    return forward(None)


def builder(n):
    N = 2

    def configure():
        nonlocal N
        N = n

    @pl.jit.host
    def inner(x):
        b = pld.alloc_window_buffer(64)
        w = pld.window(b, [16], dtype=pl.FP32)
        for r in pl.range(N):
            shard(x[r], w, device=r)

    configure()
    return inner


# A module constant that a function rebinds through `global`, or a function's that an
# inner one rebinds through `nonlocal`, is bound more than once: no constant, and a
# device= that depends on it is unsupported-device (main(4) would dispatch on 0..3).
# RUN: %commscope-opt %s > %t.out 2>&1; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: constants_rebound_elsewhere.py:17:9: error: {{.*}}'TP' is not bound to an integer constant{{.*}} [unsupported-device]
# CHECK: constants_rebound_elsewhere.py:39:13: error: {{.*}}'N' is not bound to an integer constant{{.*}} [unsupported-device]
