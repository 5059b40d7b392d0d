import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    lone = pld.alloc_window_buffer(64)
    w = pld.window(lone, [16], dtype=pl.FP32)
    chip(w)
    for r in pl.range(4):
        chip(v, device=rank)


# The `help:` lines of the text format where the front end knows more than the code's
# hint: the name the author most likely meant, and the call that was meant to dispatch.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}help_lines.py:14:5: error: allocation 'lone' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# CHECK:{{.*}}help_lines.py:16:5: note: 'chip' is called here without device=: the call is no dispatch
# CHECK-NEXT:   16 |     chip(w)
# CHECK-NEXT:      |     ^~~~~~~
# CHECK-NEXT:help: pass device=... to the call of 'chip' to dispatch the view
# CHECK-NEXT:{{.*}}help_lines.py:18:9: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: 'rank' is not bound to an integer constant in this file (bind it with -D rank=INT) [unsupported-device]
# CHECK-NEXT:   18 |         chip(v, device=rank)
# CHECK-NEXT:      |         ^~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:help: did you mean 'r'?
#
# A misspelled decorator: no false all-clear, and the decorator it is near.
# RUN: sed 's/^@pl.jit.host$/@pl.jit.hots/' %s > %t.typo.py
# RUN: %commscope-opt %t.typo.py > %t.typo; test $? -eq 1
# RUN: %FileCheck --check-prefix=TYPO --match-full-lines %s < %t.typo
# TYPO:{{.*}}typo.py:10:2: error: unknown decorator 'pl.jit.hots': the DSL has no such decorator [unknown-decorator]
# TYPO-NEXT:   10 | @pl.jit.hots
# TYPO-NEXT:      |  ^~~~~~~~~~~
# TYPO-NEXT:help: did you mean 'pl.jit.host'?
# TYPO-NEXT:Found 1 error in 1 file (1 file checked).
#
# GitHub and SARIF carry the help too.
# RUN: %commscope-opt --format=github %t.typo.py | %FileCheck --check-prefix=GH %s; test ${PIPESTATUS[0]} -eq 1
# GH: ::error file={{.*}}typo.py,line=10,col=2,title=commscope unknown-decorator::unknown decorator 'pl.jit.hots': the DSL has no such decorator%0Ahelp: did you mean 'pl.jit.host'?
#
# A name the file binds, but not to a constant, is no misspelling: no `did you mean` a
# name that merely lies near it ('v' is one edit from 'N').
# RUN: printf 'N = compute()\n' > %t.bound.py
# RUN: sed 's/device=rank/device=N/' %s >> %t.bound.py
# RUN: %commscope-opt %t.bound.py > %t.bound; test $? -eq 1
# RUN: %FileCheck --check-prefix=BOUND %s < %t.bound
# BOUND: {{.*}}bound.py:19:9: error: {{.*}}'N' is not bound to an integer constant in this file (bind it with -D N=INT) [unsupported-device]
# BOUND-NOT: did you mean
# BOUND: help: device= accepts
