# A small model library checked as its authors check it: `commscope-opt .` at its root,
# configured by the [tool.commscope] table of its pyproject.toml (lint/model_library):
# include-dirs for the shared layers, a define for the rank count, excluded build copies
# and parser tests, per-file ignores for the tests, an inline suppression in a model.
# RUN: cd %S/lint/model_library && %commscope-opt . > %t.out 2> %t.err; test $? -eq 0 && test ! -s %t.err
# RUN: %FileCheck --check-prefix=LIB --match-full-lines %s < %t.out
# The same with the long form of -j.
# RUN: cd %S/lint/model_library && %commscope-opt --jobs 2 . > %t.jobs.out; test $? -eq 0 && cmp %t.out %t.jobs.out
# LIB: models/moe.py:10:1: note: program 'MoE' is not transformed: its 1 error is suppressed, and a program with errors is rejected
# LIB-NEXT: tests/test_models.py:11:1: note: program 'test_spare_buffer_is_allowed' is not transformed: its 1 error is suppressed, and a program with errors is rejected
# LIB-NEXT: All checks passed: 5 files, 5 programs, 1 host orchestrator, 2 suppressed.
#
# The JSON says which suppression came from where.
# RUN: cd %S/lint/model_library && %commscope-opt --format=json . > %t.json
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print(sorted((f['file'], x['code'], x.get('suppressed')) for f in d['files'] for x in f['diagnostics']))" %t.json | %FileCheck --check-prefix=ORIGINS %s
# ORIGINS: [('models/moe.py', 'view-escapes', 'inline'), ('tests/test_models.py', 'dead-alloc', 'config')]
#
# From another directory the same table is found above the first input.
# RUN: cd %S/lint && %commscope-opt model_library/models | %FileCheck --check-prefix=SUB %s
# SUB: All checks passed: 3 files, 2 programs, 1 host orchestrator, 1 suppressed.
#
# Without it: the import is not found, nr is open, and the excluded files are read.
# RUN: cd %S/lint/model_library && %commscope-opt --no-config . > %t.bare; test $? -eq 3
# RUN: %FileCheck --check-prefix=BARE %s < %t.bare
# BARE: build/lib/models/llama.py:24:9: error: call of unknown function 'attention'{{.*}}[malformed-op]
# BARE: models/llama.py:25:9: error: {{.*}}'nr' is not bound to an integer constant in this file (bind it with -D nr=INT) [unsupported-device]
# BARE: tests/ut/ir/parser/test_rejects.py:2:11: error: '(' was never closed [syntax]
# BARE: Found 6 errors in 4 files (7 files checked, 1 suppressed).
#
# A file named on the command line is checked even when excluded, unless --force-exclude
# (as the pre-commit hook passes it).
# RUN: cd %S/lint/model_library && %commscope-opt build/lib/models/llama.py > /dev/null; test $? -eq 1
# RUN: cd %S/lint/model_library && %commscope-opt --force-exclude build/lib/models/llama.py models/llama.py | %FileCheck --check-prefix=FORCE %s
# FORCE: All checks passed: 1 file, 1 program, 1 host orchestrator.
# RUN: cd %S/lint/model_library && %commscope-opt --format=json --force-exclude build/lib/models/llama.py | %FileCheck --check-prefix=NOTHING %s
# NOTHING: "files": [],
# RUN: cd %S/lint/model_library && %commscope-opt --exclude 'models/**' . | %FileCheck --check-prefix=EXCLUDE %s
# EXCLUDE: All checks passed: 2 files, 3 programs, 0 host orchestrators, 1 suppressed.
#
# --config names a table; command-line options override it.
# RUN: cd %S/lint && %commscope-opt --config model_library/pyproject.toml -D nr=0 model_library/models/llama.py > %t.cfg; test $? -eq 1
# RUN: %FileCheck --check-prefix=OVERRIDE %s < %t.cfg
# OVERRIDE: model_library/models/llama.py:18:5: error: allocation 'kv_buf' is only dispatched from empty loops, so its device set is empty [empty-coverage]
#
# A broken table is a usage error that names the key and the file.
# RUN: rm -rf %t.bad && mkdir -p %t.bad && printf '[tool.commscope]\njobs = "four"\n' > %t.bad/pyproject.toml && cp %s %t.bad/m.py
# RUN: %commscope-opt %t.bad/m.py 2> %t.bad.err; test $? -eq 2
# RUN: %FileCheck --check-prefix=BAD %s < %t.bad.err
# BAD: commscope-opt: error: 'jobs' in [tool.commscope] of {{.*}}pyproject.toml must be a positive integer
# RUN: printf '[tool.commscope]\nselect = ["unconsumed-alloc", "dead-aloc"]\n' > %t.bad/pyproject.toml
# RUN: %commscope-opt %t.bad/m.py 2> %t.bad.err; test $? -eq 2
# RUN: %FileCheck --check-prefix=BADCODE %s < %t.bad.err
# BADCODE: commscope-opt: error: unknown code 'dead-aloc' in 'select' in [tool.commscope] of {{.*}}pyproject.toml (codes: dead-alloc, {{.*}})
# RUN: printf '[tool.commscope]\ninclude_dirs = ["x"]\n' > %t.bad/pyproject.toml
# RUN: %commscope-opt %t.bad/m.py 2> %t.bad.err; test $? -eq 2
# RUN: %FileCheck --check-prefix=BADKEY %s < %t.bad.err
# BADKEY: commscope-opt: error: unknown key 'include_dirs' in [tool.commscope] of {{.*}}pyproject.toml (did you mean 'include-dirs'?)
#
# A directory with nothing to check is a warning, not an error.
# RUN: rm -rf %t.none && mkdir -p %t.none && %commscope-opt --no-config %t.none > %t.none.out 2> %t.none.err
# RUN: %FileCheck --check-prefix=NONE %s < %t.none.err
# NONE: commscope-opt: warning: no Python files under {{.*}}none
