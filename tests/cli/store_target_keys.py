import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(v):
    return 0


@pl.jit.host
def keyed(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [8], dtype=pl.FP32)
    stage(va, device=0)
    owner = {}
    owner[va] = 0
    for owner[va, 1] in [1, 2]:
        pass
    for v in owner:
        stage(v, device=2)


# The key of an element stored into is stored too: a dict keeps it, for a later loop to
# dispatch (view-escapes, at the assignment and at the for target).
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: store_target_keys.py:16:5: error: a view of allocation 'a' is an operand of 'owner[...] = ...'
# CHECK: store_target_keys.py:17:9: error: a view of allocation 'a' is an operand of 'owner[va, 1] = ...'
# CHECK: Found 2 errors in 1 file (1 file checked).
#
# So is the key of an element deleted: `del owner[va]` hands it to the container's
# __delitem__, which may keep it (a dict subclass that logs what it drops). Deleting an
# element of the view itself hands nothing on.
# RUN: sed '16s/.*/    del owner[va]; del va[0]/' %s > %t.del.py
# RUN: %commscope-opt %t.del.py > %t.del; test $? -eq 1
# RUN: %FileCheck --check-prefix=DEL %s < %t.del
# DEL: del.py:16:9: error: a view of allocation 'a' is an operand of 'del owner[...]'
# DEL-NOT: del.py:16:{{.*}}del va
# DEL: Found 2 errors in 1 file (1 file checked).
