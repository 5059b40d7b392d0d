import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def host():
    spare = pld.alloc_window_buffer(64)
    return 0


# A directory whose Python files are all excluded is checked no more than one without
# any: its warning says what the exclusions left out, so that the last line, 0 files
# checked, does not read as an all-clear. The exit status stays 0.
# RUN: rm -rf %t.d && mkdir -p %t.d/repo/gen %t.d/repo/models && cp %s %t.d/repo/gen/a.py && cp %s %t.d/repo/models/b.py && cp %s %t.d/repo/models/c.py
# RUN: cd %t.d/repo && %commscope-opt --no-config --exclude gen --exclude 'models/*.py' . > %t.out 2> %t.err
# RUN: %FileCheck --check-prefix=BOTH --match-full-lines %s < %t.err
# BOTH: commscope-opt: warning: no Python files under . (2 files and 1 directory excluded)
# RUN: %FileCheck --check-prefix=LAST %s < %t.out
# LAST: All checks passed: 0 files, 0 programs, 0 host orchestrators.
# RUN: cd %t.d/repo && %commscope-opt --no-config --exclude 'models/*.py' models 2>&1 >/dev/null | %FileCheck --check-prefix=FILES --match-full-lines %s
# FILES: commscope-opt: warning: no Python files under models (2 files excluded)
# The configuration's `exclude` alike, and in every format.
# RUN: printf '[tool.commscope]\nexclude = ["gen/**"]\n' > %t.d/repo/pyproject.toml
# RUN: cd %t.d/repo && %commscope-opt --format=json gen 2> %t.json.err | %FileCheck --check-prefix=JSON %s
# JSON: "files": [],
# RUN: %FileCheck --check-prefix=DIR --match-full-lines %s < %t.json.err
# DIR: commscope-opt: warning: no Python files under gen (1 file excluded)
# RUN: cd %t.d/repo && %commscope-opt --format=github gen 2>&1 >/dev/null | %FileCheck --check-prefix=DIR --match-full-lines %s
# A directory with no Python files at all says nothing of exclusions.
# RUN: mkdir -p %t.d/repo/empty && cd %t.d/repo && %commscope-opt empty 2>&1 >/dev/null | %FileCheck --check-prefix=EMPTY --match-full-lines %s
# EMPTY: commscope-opt: warning: no Python files under empty
# Files given by name and all excluded by --force-exclude (pre-commit on a commit of
# excluded files alone): the same warning, not a silent pass. One of them not excluded
# is checked, without the warning.
# RUN: cd %t.d/repo && %commscope-opt --force-exclude gen/a.py 2>&1 >/dev/null | %FileCheck --check-prefix=NAMED --match-full-lines %s
# NAMED: commscope-opt: warning: no Python files to check (1 file excluded)
# RUN: cd %t.d/repo && %commscope-opt --force-exclude gen/a.py models/b.py > %t.one.out 2> %t.one.err; test $? -eq 1 && test ! -s %t.one.err
