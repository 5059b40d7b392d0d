import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host(n: int):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    d = 3

    def f():
        nonlocal d
        d = 5

    f()
    chip(va, device=d)


# A nested def that declares the host's name nonlocal may rebind it whenever it is
# called (f() makes d 5), and an import inside the host binds the name it imports: from
# there on the name is a value the pass does not follow.
# RUN: %commscope-opt %s > %t.out 2>&1; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: rebound_in_host.py:21:5: error: {{.*}} [unsupported-device]
# RUN: sed 's/^        nonlocal d$/        pass/' %s > %t.local.py
# RUN: %commscope-opt %t.local.py | %FileCheck --check-prefix=LOCAL %s
# LOCAL: All checks passed
# RUN: sed 's/^    f()$/    from m import d/' %s | sed 's/^        nonlocal d$/        pass/' > %t.import.py
# RUN: %commscope-opt %t.import.py > %t.import.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=IMPORT %s < %t.import.out
# IMPORT: .py:21:5: error: {{.*}} [unsupported-device]
