import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    spare = pld.alloc_window_buffer(64)


# A symbolic link below the configuration's root is matched where it stands, as the
# output names it (and as ruff matches it), not at the file it leads to: the
# per-file-ignores of tests/** cover tests/layer.py, a link to a file outside the
# repository, and with --force-exclude the exclude of build/** covers build/model.py, a
# link to src/model.py.
# RUN: rm -rf %t.d && mkdir -p %t.d/repo/tests %t.d/repo/src %t.d/repo/build %t.d/shared
# RUN: printf '[tool.commscope]\nexclude = ["build/**"]\nper-file-ignores = { "tests/**" = ["dead-alloc"] }\n' > %t.d/repo/pyproject.toml
# RUN: cp %s %t.d/shared/layer.py && cp %s %t.d/repo/src/model.py
# RUN: ln -s ../../shared/layer.py %t.d/repo/tests/layer.py && ln -s ../src/model.py %t.d/repo/build/model.py
# RUN: cd %t.d/repo && %commscope-opt tests | %FileCheck --check-prefix=TESTS %s
# TESTS: All checks passed: 1 file, 1 program, 0 host orchestrators, 1 suppressed.
# RUN: cd %t.d/repo && %commscope-opt --force-exclude build/model.py | %FileCheck --check-prefix=BUILD %s
# BUILD: All checks passed: 0 files, 0 programs, 0 host orchestrators.
