import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


W = 2
match 8:
    case W:
        pass


@pl.jit.host
def host():
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    for r in pl.range(W):
        chip(va, device=r)


def build():
    N = 2
    match 8:
        case [N] | N:
            pass

    @pl.jit.host
    def inner():
        b = pld.alloc_window_buffer(64)
        vb = pld.window(b, [16], dtype=pl.FP32)
        for r in pl.range(N):
            chip(vb, device=r)

    return inner


# A name is a constant only when bound once: a capture pattern binds it again, as do a
# `:=` in a def's default value and a star import of a module that may bind it (one
# that defines it, or one the front end cannot read). Each makes W 8 when host runs.
# RUN: %commscope-opt %s > %t.out 2>&1; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: constants_rebound_patterns.py:21:9: error: {{.*}}'W' is not bound to an integer constant{{.*}} [unsupported-device]
# CHECK: constants_rebound_patterns.py:35:13: error: {{.*}}'N' is not bound to an integer constant{{.*}} [unsupported-device]
# RUN: sed -e 's/^match 8:$/def f(k=(W := 8)):/' -e 's/^    case W:$/    if k:/' %s > %t.default.py
# RUN: %commscope-opt %t.default.py > %t.default.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=REBOUND %s < %t.default.out
# REBOUND: .py:21:9: error: {{.*}}'W' is not bound to an integer constant{{.*}} [unsupported-device]
# RUN: rm -rf %t.d && mkdir %t.d && printf 'W = 8\n' > %t.d/config.py
# RUN: sed -e 's/^match 8:$/from config import */' -e '12,13d' %s > %t.d/star.py
# RUN: %commscope-opt %t.d/star.py > %t.star.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=STAR %s < %t.star.out
# STAR: .py:19:9: error: {{.*}}'W' is not bound to an integer constant{{.*}} [unsupported-device]
# RUN: printf 'X = 8\n' > %t.d/config.py
# RUN: %commscope-opt %t.d/star.py > %t.star-other.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=OTHER %s < %t.star-other.out
# OTHER-NOT: .py:19:9: error
# OTHER: .py:{{[0-9]+}}:13: error: {{.*}}'N'
