# Programs across modules (docs/commscope-opt.md): model_lib/vendor/norm.py is found only
# through -I DIR (also -IDIR) or a PYTHONPATH directory; without either its callee is unresolved.

# RUN: %commscope-opt --format=json -I %S/model_lib/vendor %S/model_lib/host_include.py | %python %S/scripts/plan_summary.py | %FileCheck --check-prefix=FOUND --match-full-lines %s
# RUN: %commscope-opt --format=json -I%S/model_lib/vendor %S/model_lib/host_include.py | %python %S/scripts/plan_summary.py | %FileCheck --check-prefix=FOUND --match-full-lines %s
# RUN: env PYTHONPATH=/nowhere:%S/model_lib/vendor %commscope-opt --format=json %S/model_lib/host_include.py | %python %S/scripts/plan_summary.py | %FileCheck --check-prefix=FOUND --match-full-lines %s
# FOUND:      PROGRAM host_include line 9
# FOUND-NEXT:   FUNCTION norm_host
# FOUND-NEXT:     SCOPE comm_d0 [3]: nbuf=128 * 4
# FOUND-NEXT:     VIEW nview -> nbuf
# FOUND-NEXT: END

# RUN: env -u PYTHONPATH %commscope-opt --format=json %S/model_lib/host_include.py > /dev/null 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=UNFOUND --match-full-lines %s < %t.err
# UNFOUND: {{.*}}host_include.py:13:5: error: call of unknown function 'norm_chip': 'norm_chip' is imported from module 'norm', which was not found in {{.*}}model_lib (add its directory with -I DIR) [malformed-op]

# RUN: %commscope-opt --format=json -I > /dev/null 2> %t.usage; test $? -eq 2
# RUN: %FileCheck --check-prefix=USAGE %s < %t.usage
# USAGE: commscope-opt: error: -I: 1 required DIR missing
