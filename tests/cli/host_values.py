# A host orchestrator that another input file of the run holds as a value, outside any
# DSL function (`build = make_alias`, a dict of `stages.make_registered`, a plain function
# returning `make_getter`), may be called from anywhere there: what it returns is
# view-escapes, with that use named. One that the other files only import and call at
# their top level (the runtime's calls) is not. Worked out by hand: run alone, stages.py
# gives alias_buf and registered_buf the devices [0], while run_pipeline dispatches them
# on devices 1 and 2.

# RUN: cd %S && %commscope-opt host_values > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK-DAG: host_values/stages.py:15:5: error: a view of allocation 'alias_buf' is returned by 'make_alias' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_alias' is used as a value in host_values/pipeline.py, line 10) [view-escapes]
# CHECK-DAG: host_values/stages.py:23:5: error: a view of allocation 'registered_buf' is returned by 'make_registered' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_registered' is used as a value in host_values/pipeline.py, line 11) [view-escapes]
# CHECK-DAG: host_values/stages.py:31:5: error: a view of allocation 'getter_buf' is returned by 'make_getter' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_getter' is used as a value in host_values/getters.py, line 9) [view-escapes]
# RUN: %FileCheck --check-prefix=RUNTIME %s < %t.out
# RUNTIME-NOT: run_buf
# RUNTIME: Found 3 errors in 1 file (3 files checked).
