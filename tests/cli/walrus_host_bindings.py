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
    if (d := 5) > 0:
        chip(va, device=d)
    chip(va, device=d)


# A `:=` binds where no statement shows it: Python dispatches on 5, not 3. Every binding
# of a name a `:=` binds is a value the pass does not follow, wherever the `:=` stands.
# RUN: %commscope-opt %s > %t.out 2>&1; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: walrus_host_bindings.py:16:9: error: {{.*}} [unsupported-device]
# CHECK: walrus_host_bindings.py:17:5: error: {{.*}} [unsupported-device]
# RUN: sed 's/^    if (d := 5) > 0:$/    while (d := 5) < 0:/' %s > %t.while.py
# RUN: %commscope-opt %t.while.py > %t.while.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNFOLLOWED %s < %t.while.out
# RUN: sed 's/^    if (d := 5) > 0:$/    print((d := 5)); assert n\n    if n:/' %s > %t.print.py
# RUN: %commscope-opt %t.print.py > %t.print.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNFOLLOWED %s < %t.print.out
# RUN: sed 's/^    if (d := 5) > 0:$/    assert (d := 5); x = [y for y in range(n)]; assert x\n    if n:/' %s > %t.assert.py
# RUN: %commscope-opt %t.assert.py > %t.assert.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNFOLLOWED %s < %t.assert.out
# RUN: sed 's/^    if (d := 5) > 0:$/    s = f"{(d := 5)}"; assert s\n    if n:/' %s > %t.fstring.py
# RUN: %commscope-opt %t.fstring.py > %t.fstring.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNFOLLOWED %s < %t.fstring.out
# RUN: sed 's/^    if (d := 5) > 0:$/    x = [y for y in range((d := 5))]; assert x\n    if n:/' %s > %t.comprehension.py
# RUN: %commscope-opt %t.comprehension.py > %t.comprehension.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNFOLLOWED %s < %t.comprehension.out
# RUN: sed 's/^    if (d := 5) > 0:$/    def f(k=(d := 5)): return k\n    if n:/' %s > %t.default.py
# RUN: %commscope-opt %t.default.py > %t.default.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNFOLLOWED %s < %t.default.out
# UNFOLLOWED: .py:{{1[78]}}:5: error: {{.*}} [unsupported-device]
# A loop bound: `for r in pl.range(d)` after `print((d := 6))` runs to 5, not to 2.
# RUN: sed -e 's/^    if (d := 5) > 0:$/    print((d := 6))/' -e 's/^        chip(va, device=d)$/    for r in pl.range(d):\n        chip(va, device=r)/' %s > %t.bound.py
# RUN: %commscope-opt %t.bound.py > %t.bound.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=BOUND %s < %t.bound.out
# BOUND: .py:17:9: error: {{.*}} [unsupported-device]
