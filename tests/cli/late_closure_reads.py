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
    cur = vb
    later = lambda: chip(cur, device=2)
    cur = va
    later()
    chip(va, device=0)
    chip(vb, device=0)


# A lambda reads `cur` when it is called: Python dispatches `va` on device 2, not `vb`.
# A binding after it of a name it reads is a store, as for a nested def.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}late_closure_reads.py:18:5: error: a view of allocation 'a' is an operand of 'cur = ... (read later by a lambda or a generator expression)', which may have side effects the pass cannot follow: dispatch the view directly, or derive it through an operation without side effects [view-escapes]
# CHECK:Found 1 error in 1 file (1 file checked).
# A generator expression's element runs when it is iterated: the same.
# RUN: sed -e 's/^    later = lambda: chip(cur, device=2)$/    later = (chip(cur, device=2) for _ in range(1))/' -e 's/^    later()$/    list(later)/' %s > %t.gen.py
# RUN: %commscope-opt %t.gen.py > %t.gen.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=LATE %s < %t.gen.out
# LATE: .py:18:5: error: a view of allocation 'a' is an operand of 'cur = ... (read later by a lambda or a generator expression)'{{.*}}[view-escapes]
# A device bound again after the lambda: Python dispatches on 3, not 1.
# RUN: sed -e 's/^    cur = vb$/    d = 1/' -e 's/^    later = lambda: chip(cur, device=2)$/    later = lambda: chip(va, device=d)/' -e 's/^    cur = va$/    d = 3/' %s > %t.device.py
# RUN: %commscope-opt %t.device.py > %t.device.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=DEVICE %s < %t.device.out
# DEVICE: .py:17:21: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: 'd' is read when the lambda or generator expression runs, and the function binds it again below, which the analysis does not follow there [unsupported-device]
# DEVICE: help: call the lambda where it stands, or bind the name once
# In a loop, a later iteration may call it after a binding above it in the text: at the
# second iteration `later` dispatches `vb`, bound above the lambda and then replaced.
# RUN: sed -e 's/^    cur = vb$/    later = None\n    for i in pl.range(2):\n        cur = vb\n        if later:\n            later()\n        cur = 0\n        if i == 0:\n            later = lambda: chip(cur, device=2)/' -e '/^    later = lambda/d' -e '/^    cur = va$/d' -e '/^    later()$/d' %s > %t.loop.py
# RUN: %commscope-opt %t.loop.py > %t.loop.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=LOOP %s < %t.loop.out
# LOOP: .py:18:9: error: a view of allocation 'b' is an operand of 'cur = ... (read later by a lambda or a generator expression)'{{.*}}[view-escapes]
# A nested def in the loop instead of the lambda: the same binding is a store.
# RUN: sed -e 's/^            later = lambda: chip(cur, device=2)$/            def later():\n                chip(cur, device=2)/' %t.loop.py > %t.def.py
# RUN: %commscope-opt %t.def.py > %t.def.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=DEF %s < %t.def.out
# DEF: .py:18:9: error: a view of allocation 'b' is an operand of 'cur = ... (read by a nested definition)'{{.*}}[view-escapes]
# A lambda called where it stands, with nothing bound after it, is followed as before.
# RUN: head -n 17 %s > %t.ok.py
# RUN: printf '    later()\n    chip(va, device=0)\n' >> %t.ok.py
# RUN: %commscope-opt %t.ok.py > %t.ok.out
# RUN: %FileCheck --check-prefix=OK %s < %t.ok.out
# OK: comm_d0  devices [0]  1 slot, 64 B
# OK: comm_d1  devices [2]  1 slot, 64 B
# A lambda's parameters and a generator's targets are their own, in a loop too: the
# host's `v` and `y` bound in the loop stay followed.
# RUN: head -n 15 %s > %t.own.py
# RUN: printf '    for r in pl.range(2):\n        n = sorted([1], key=lambda v, y=0: v)\n        m = sum(1 for v in (1,) for y in (v,))\n        g = (x for x in (lambda y=va: y)())\n        v = va\n        y = vb\n        chip(v, device=r)\n        chip(y, device=r)\n' >> %t.own.py
# RUN: %commscope-opt %t.own.py > %t.own.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=OWN %s < %t.own.out
# OWN: .py:19:25: error: a view of allocation 'a' is passed to 'lambda y=va: y'{{.*}}[view-escapes]
# OWN-NOT: error
# OWN: Found 1 error in 1 file (1 file checked).
