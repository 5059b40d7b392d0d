import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    chip(x[0], va, device=0)
    chip(x[0], vb, device=0)
    slots = [None, None]
    staged = slots
    for slots[0] in (vb,):
        pass
    chip(x[1], staged[0], device=1)
    return x


# A for loop whose target is an element or an attribute stores each item there, where
# the analysis does not follow it (as `slots[0] = vb` does): view-escapes at the target.
# It rebinds no name (`slots` stays the list `staged` is).
# RUN: %commscope-opt %s > %t.out 2>&1; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: for_target_stores.py:20:9: error: a view of allocation 'b' is an operand of 'slots[0] = ...', {{.*}} [view-escapes]
#
# Such targets over values that hold no view are accepted, and printed back as written.
# RUN: %commscope-opt --emit=ir %S/for_targets/attribute_targets.py > %t.py
# RUN: %FileCheck --check-prefix=IR %s < %t.py
# IR: for cfg.idx, (p, q[0]) in [(1, (2, 3))]:
# RUN: %commscope-opt --format=json %t.py | %FileCheck --check-prefix=PLAN %s
# PLAN:      "devices": [
# PLAN-NEXT:   0,
# PLAN-NEXT:   1
# PLAN-NEXT: ],
