import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    views = [vb]
    alias = views
    alias += [va]
    chip(va, device=0)
    chip(vb, device=0)
    chip(views[1], device=1)


# `alias += [va]` changes the list in place: `views[1]` is `va`, which device 1 uses too.
# The view is stored where the analysis does not follow it, as by `alias.append(va)`.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}augmented_in_place.py:18:5: error: a view of allocation 'a' is an operand of 'alias += ...', which may have side effects the pass cannot follow: dispatch the view directly, or derive it through an operation without side effects [view-escapes]
# CHECK:Found 1 error in 1 file (1 file checked).
# A dict merged in place is the same.
# RUN: sed -e 's/^    views = \[vb\]$/    views = {0: vb}/' -e 's/^    alias += \[va\]$/    alias |= {1: va}/' %s > %t.dict.py
# RUN: %commscope-opt %t.dict.py > %t.dict.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=DICT %s < %t.dict.out
# DICT: .py:18:5: error: a view of allocation 'a' is an operand of 'alias |= ...'{{.*}}[view-escapes]
# A new list, `views = views + [va]`, changes no other name's: followed as a derived value.
# RUN: sed -e 's/^    alias = views$/    pass/' -e 's/^    alias += \[va\]$/    views = views + [va]/' %s > %t.new.py
# RUN: %commscope-opt %t.new.py > %t.new.out
# RUN: %FileCheck --check-prefix=NEW %s < %t.new.out
# NEW: comm_d0  devices [0, 1]  2 slots, 128 B
