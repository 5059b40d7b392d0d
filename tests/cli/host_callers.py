# A host orchestrator that another input file of the run imports and calls hands what it
# returns or yields to that caller, which the pass checks as a program of its own: a view
# or window pointer among those values is view-escapes in the file of the host, with the
# caller named (docs/commscope-opt.md, "Programs across modules"). Callers found through
# `from M import h as g`, `import M as m` then `m.h()`, a star import, a package's
# re-export, a sibling module's re-export (common.py) and `from . import h` inside the
# package; a call at a module's level (the runtime's) is none. Worked out by hand: run
# alone, stages.py gave buf the devices [0] while pipeline.py dispatches it on device 1.

# RUN: cd %S && %commscope-opt host_callers > %t.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.out
# ERR-DAG: host_callers/lib/inner.py:15:5: error: a view of allocation 'inner_buf' is returned by 'make_inner' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_inner' is called by 'run_reexport' in host_callers/reexport_user.py, line 9) [view-escapes]
# ERR-DAG: host_callers/lib/inner.py:23:5: error: a view of allocation 'inner_b_buf' is returned by 'make_inner_b' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_inner_b' is called by 'run_sibling' in host_callers/lib/sibling.py, line 9) [view-escapes]
# ERR-DAG: host_callers/stages.py:47:5: error: a view of allocation 'relay_buf' is returned by 'make_relay' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_relay' is called by 'run_relay' in host_callers/via_common.py, line 9) [view-escapes]
# ERR-DAG: host_callers/stages.py:15:5: error: a view of allocation 'buf' is returned by 'make_buffers' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_buffers' is called by 'run_pipeline' in host_callers/pipeline.py, line 10) [view-escapes]
# ERR-DAG: host_callers/stages.py:23:5: error: the window pointer of allocation 'raw' is returned by 'make_pointer' to callers the pass does not follow: a caller could take windows of it on devices the allocation's scope lacks ('make_pointer' is called by 'run_attribute' in host_callers/attribute_user.py, line 9) [view-escapes]
# ERR-DAG: host_callers/stages.py:31:5: error: a view of allocation 'star_buf' is returned by 'make_star' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks ('make_star' is called by 'run_star' in host_callers/star_user.py, line 8) [view-escapes]
# The caller's window of make_pointer's pointer is one of no allocation of its own.
# ERR-DAG: host_callers/attribute_user.py:10:5: error: a window is taken of a pointer that names no allocation of this host orchestrator (a parameter, a helper's result, a value of the module): the pass cannot tell which devices use it, and no scope would hold it [malformed-op]
# RUN: %FileCheck --check-prefix=COUNT --match-full-lines %s < %t.out
# COUNT: Found 7 errors in 3 files (11 files checked).
#
# local_only is returned only to the runtime (runtime_user.py's `__main__` block): no error.
# RUN: %FileCheck --check-prefix=LOCAL %s < %t.out
# LOCAL-NOT: local_only
#
# The same on one thread, and in the JSON.
# RUN: cd %S && %commscope-opt -j 1 host_callers > %t.one; cmp %t.out %t.one
# RUN: cd %S && %commscope-opt --format=json host_callers > %t.json; test $? -eq 1
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print(sorted((f['file'], x['code'], x['line']) for f in d['files'] for x in f['diagnostics']))" %t.json | %FileCheck --check-prefix=JSON %s
# JSON: [('host_callers/attribute_user.py', 'malformed-op', 10), ('host_callers/lib/inner.py', 'view-escapes', 15), ('host_callers/lib/inner.py', 'view-escapes', 23), ('host_callers/stages.py', 'view-escapes', 15), ('host_callers/stages.py', 'view-escapes', 23), ('host_callers/stages.py', 'view-escapes', 31), ('host_callers/stages.py', 'view-escapes', 47)]
#
# Only the files of the run are searched for callers: stages.py checked alone, or with
# files that do not call its hosts, passes (a caller outside the run cannot be seen).
# RUN: cd %S && %commscope-opt host_callers/stages.py host_callers/runtime_user.py host_callers/common.py | %FileCheck --check-prefix=ALONE %s
# ALONE: All checks passed: 3 files, 2 programs, 6 host orchestrators.
