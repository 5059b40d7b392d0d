# An --exclude glob written as an absolute path below the current directory, as CI
# scripts write it ("$PWD/build/**", "$GITHUB_WORKSPACE/build"), is that path relative to
# it, anchored there; it matched nothing. lint/model_library has 7 Python files, its
# models/ 3 of them.
# RUN: cd %S/lint/model_library && %commscope-opt --no-config --exclude "$PWD/models/**" --exclude "$PWD/build" --exclude "$PWD/tests/" --exclude "$PWD/shared_layers/*.py" . | %FileCheck %s
# CHECK: All checks passed: 0 files, 0 programs, 0 host orchestrators.
# RUN: cd %S/lint/model_library && %commscope-opt --exclude "$PWD/models" . | %FileCheck --check-prefix=CONFIG %s
# CONFIG: All checks passed: 2 files, 3 programs, 0 host orchestrators, 1 suppressed.
