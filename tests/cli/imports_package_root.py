# An absolute import of the library's own package (`from model_lib.moe import moe_chip`
# in model_lib/host_absolute.py) is found the way Python finds it: from a directory on the
# search path (the file's own, -I, PYTHONPATH). Run from the directory above the package
# without -I, it is not found there, and the message names the directory to add and the
# file it would read; with that -I the program is accepted.
# RUN: cd %S && env -u PYTHONPATH %commscope-opt model_lib/host_absolute.py > %t.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=HINT --match-full-lines %s < %t.out
# HINT: model_lib/host_absolute.py:12:5: error: call of unknown function 'moe_chip': 'moe_chip' is imported from module 'model_lib.moe', which was not found in model_lib (add -I . to read it from model_lib/moe.py) [malformed-op]
# From inside the package, the directory to add is its parent.
# RUN: cd %S/model_lib && env -u PYTHONPATH %commscope-opt host_absolute.py > %t.inside; test $? -eq 1
# RUN: %FileCheck --check-prefix=INSIDE %s < %t.inside
# INSIDE: (add -I .. to read it from moe.py) [malformed-op]
# RUN: cd %S && env -u PYTHONPATH %commscope-opt --format=json -I . model_lib/host_absolute.py | %python %S/scripts/plan_summary.py | %FileCheck --check-prefix=FOUND --match-full-lines %s
# FOUND:      PROGRAM host_absolute line 8
# FOUND-NEXT:   FUNCTION moe_absolute
# FOUND-NEXT:     SCOPE comm_d0 [1]: routed_buf=8 * 256 * 2
# FOUND-NEXT:     VIEW routed -> routed_buf
# FOUND-NEXT: END
