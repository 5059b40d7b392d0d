import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    spare = pld.alloc_window_buffer(64)  # commscope: ignore [unconsumed-alloc]
    lonely = pld.alloc_window_buffer(64)  # commscope: ignore  [ dead-alloc ]


# A code list after blanks is still the list: `ignore [unconsumed-alloc]` suppresses that
# code alone, not every code of its line (the dead-alloc at line 12 is reported).
# RUN: %commscope-opt --no-config %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK: {{.*}}suppression_spaced_codes.py:12:5: error: allocation 'spare' has no window view [dead-alloc]
# CHECK: Found 1 error in 1 file (1 file checked, 1 suppressed).
#
# The same in the comments that open a file.
# RUN: (echo '# commscope: ignore-file [unconsumed-alloc]'; cat %s) > %t.file.py
# RUN: %commscope-opt --no-config %t.file.py > %t.file.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=FILE %s < %t.file.out
# FILE: Found 1 error in 1 file (1 file checked, 1 suppressed).
