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
    other = pld.alloc_window_buffer(64)  # a comment that ends in a backslash \
    chip(1, device=0)  # commscope: ignore[dead-alloc]


# No comment may follow a backslash, so the directive of a line continued with one
# stands at the end of the statement's last line: only `kept`, whose directive names
# another code, and `other`, whose backslash ends a comment and continues nothing, are
# reported.
# RUN: %commscope-opt --no-config %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK: {{.*}}suppression_continued_lines.py:17:5: error: allocation 'kept' has no window view [dead-alloc]
# CHECK: {{.*}}suppression_continued_lines.py:19:5: error: allocation 'other' has no window view [dead-alloc]
# CHECK: Found 2 errors in 1 file (1 file checked, 2 suppressed).
