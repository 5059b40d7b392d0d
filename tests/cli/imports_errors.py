# Programs across modules (docs/commscope-opt.md): an unresolved callee is malformed-op naming the
# module and the directories searched, suggesting -I, and the views it was passed are not
# reported again (no unconsumed-alloc); a syntax error in an imported module is located
# there, with a note at the import, and rejects only the program that needs it (exit 1).

# RUN: %commscope-opt --format=json %S/model_lib/host_missing.py > %t.missing 2> %t.missing.err; test $? -eq 1
# RUN: %python %S/scripts/plan_summary.py < %t.missing | %FileCheck --check-prefix=MISSING --match-full-lines %s
# RUN: %FileCheck --check-prefix=MISSING-ERR --match-full-lines %s < %t.missing.err
# RUN: test $(wc -l < %t.missing.err) -eq 1
# MISSING:      PROGRAM host_missing line 8
# MISSING-NEXT: PROGRAM test_still_fine line 17
# MISSING-NEXT:   FUNCTION fine_host
# MISSING-NEXT:     SCOPE comm_d0 [0]: ok_buf=1024
# MISSING-NEXT:     VIEW ok -> ok_buf
# MISSING-NEXT: DIAG malformed-op 13:9 call of unknown function 'missing_chip': 'missing_chip' is imported from module 'missing_layer', which was not found in {{.*}}model_lib (add its directory with -I DIR)
# MISSING-NEXT: END
# MISSING-ERR: {{.*}}model_lib/host_missing.py:13:9: error: call of unknown function 'missing_chip': 'missing_chip' is imported from module 'missing_layer', which was not found in {{.*}}model_lib (add its directory with -I DIR) [malformed-op]

# The -I and PYTHONPATH directories are listed in the order searched.
# RUN: env PYTHONPATH=/nowhere/py %commscope-opt --format=json -I /nowhere/inc -I/nowhere/inc2 %S/model_lib/host_missing.py > /dev/null 2> %t.searched; test $? -eq 1
# RUN: %FileCheck --check-prefix=SEARCHED %s < %t.searched
# SEARCHED: which was not found in {{.*}}model_lib, /nowhere/inc, /nowhere/inc2, /nowhere/py (add its directory with -I DIR) [malformed-op]

# RUN: %commscope-opt --format=json %S/model_lib/host_broken.py > %t.broken 2> %t.broken.err; test $? -eq 1
# RUN: %python %S/scripts/plan_summary.py < %t.broken | %FileCheck --check-prefix=BROKEN --match-full-lines %s
# RUN: %FileCheck --check-prefix=BROKEN-ERR --match-full-lines %s < %t.broken.err
# RUN: test $(wc -l < %t.broken.err) -eq 2
# BROKEN:      PROGRAM host_broken line 8
# BROKEN-NEXT: PROGRAM test_unaffected line 16
# BROKEN-NEXT:   FUNCTION moe_only
# BROKEN-NEXT:     SCOPE comm_d0 [1]: routed_buf=64
# BROKEN-NEXT:     VIEW routed -> routed_buf
# BROKEN-NEXT: DIAG syntax {{.*}}model_lib/broken_layer.py:5:16 '(' was never closed
# BROKEN-NEXT:   NOTE 4:1 'broken_chip' is imported from module 'broken_layer', which needs {{.*}}model_lib/broken_layer.py
# BROKEN-NEXT: END
# BROKEN-ERR:      {{.*}}model_lib/broken_layer.py:5:16: error: '(' was never closed [syntax]
# BROKEN-ERR-NEXT: {{.*}}model_lib/host_broken.py:4:1: note: 'broken_chip' is imported from module 'broken_layer', which needs {{.*}}model_lib/broken_layer.py

# A reported non-function call in a file without imports: no cascade either.
# RUN: %commscope-opt --format=json %s > /dev/null 2> %t.nocascade; test $? -eq 1
# RUN: %FileCheck --check-prefix=NOCASCADE --match-full-lines %s < %t.nocascade
# RUN: test $(wc -l < %t.nocascade) -eq 1
# NOCASCADE: {{.*}}imports_errors.py:[[@LINE+9]]:5: error: call of unknown function 'not_here' [malformed-op]
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def host():
    buf = pld.alloc_window_buffer(64)
    view = pld.window(buf, [16], dtype=pl.FP32)
    not_here(view, device=0)
