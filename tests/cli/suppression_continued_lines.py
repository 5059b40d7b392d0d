import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    spare = \
        pld.alloc_window_buffer(64)  # commscope: ignore[dead-alloc]
    extra = \
        \
        pld.alloc_window_buffer(64)  # commscope: ignore[dead-alloc]
    kept = \
        pld.alloc_window_buffer(64)  # commscope: ignore[unconsumed-alloc]


# No comment may follow a backslash, so the directive of a line continued with one
# stands at the end of the statement's last line: only `kept`, whose directive names
# another code, is reported.
# RUN: %commscope-opt --no-config %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK: {{.*}}suppression_continued_lines.py:17:5: error: allocation 'kept' has no window view [dead-alloc]
# CHECK: Found 1 error in 1 file (1 file checked, 2 suppressed).
