import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Spare:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        spare = pld.alloc_window_buffer(64)
        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        return 0


# A code list that names no code (CI's `--select "$CODES"` with the variable unset) is a
# usage error: selecting nothing, the run would pass with `spare`'s dead-alloc unreported.
# RUN: %commscope-opt --no-config --select "" %s > %t.out 2> %t.err; test $? -eq 2 && test ! -s %t.out
# RUN: %FileCheck --check-prefix=SELECT %s < %t.err
# SELECT: commscope-opt: error: --select got no codes (codes: dead-alloc, {{.*}})
# SELECT-NEXT: Run 'commscope-opt --help' for the options.
# Blanks and commas alone, and an empty value after `=`, name no code either; the file
# that follows is not taken for the codes.
# RUN: %commscope-opt --no-config --select " , " %s 2>&1 >/dev/null | %FileCheck --check-prefix=SELECT %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --no-config --select "," %s 2>&1 >/dev/null | %FileCheck --check-prefix=SELECT %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --no-config --select= %s 2>&1 >/dev/null | %FileCheck --check-prefix=SELECT %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --no-config %s --select= 2>&1 >/dev/null | %FileCheck --check-prefix=SELECT %s; test ${PIPESTATUS[0]} -eq 2
# Each --select is a list of its own.
# RUN: %commscope-opt --no-config --select dead-alloc --select "" %s 2>&1 >/dev/null | %FileCheck --check-prefix=SELECT %s; test ${PIPESTATUS[0]} -eq 2
# --ignore likewise.
# RUN: %commscope-opt --no-config --ignore "," %s 2>&1 >/dev/null | %FileCheck --check-prefix=IGNORE %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --no-config --ignore= %s 2>&1 >/dev/null | %FileCheck --check-prefix=IGNORE %s; test ${PIPESTATUS[0]} -eq 2
# IGNORE: commscope-opt: error: --ignore got no codes (codes: dead-alloc, {{.*}})
# A list with codes may have blanks after its commas, and a trailing comma.
# RUN: %commscope-opt --no-config --select "view-escapes, dead-alloc," %s | %FileCheck --check-prefix=LISTED %s; test ${PIPESTATUS[0]} -eq 1
# LISTED: select_no_codes.py:13:9: error: allocation 'spare' has no window view [dead-alloc]
# RUN: %commscope-opt --no-config --ignore "dead-alloc, " %s | %FileCheck --check-prefix=PASSED %s
# PASSED: All checks passed: 1 file, 1 program, 0 host orchestrators, 1 suppressed.
#
# In the configuration: `select = []` names the key and the file.
# RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/m.py
# RUN: printf '[tool.commscope]\nselect = []\n' > %t.d/pyproject.toml
# RUN: %commscope-opt %t.d/m.py > %t.cfg.out 2> %t.cfg.err; test $? -eq 2 && test ! -s %t.cfg.out
# RUN: %FileCheck --check-prefix=CONFIG %s < %t.cfg.err
# CONFIG: commscope-opt: error: 'select' in [tool.commscope] of {{.*}}pyproject.toml got no codes (codes: dead-alloc, {{.*}})
# RUN: printf '[tool.commscope]\nselect = [" "]\n' > %t.d/pyproject.toml
# RUN: %commscope-opt %t.d/m.py 2>&1 >/dev/null | %FileCheck --check-prefix=CONFIG %s; test ${PIPESTATUS[0]} -eq 2
# The command line's --select replaces the file's, whose codes are still checked.
# RUN: printf '[tool.commscope]\nselect = []\n' > %t.d/pyproject.toml
# RUN: %commscope-opt --select dead-alloc %t.d/m.py 2>&1 >/dev/null | %FileCheck --check-prefix=CONFIG %s; test ${PIPESTATUS[0]} -eq 2
# An empty `ignore`, or an empty list of `per-file-ignores`, ignores nothing: the error
# is reported.
# RUN: printf '[tool.commscope]\nignore = []\nper-file-ignores = { "*.py" = [] }\n' > %t.d/pyproject.toml
# RUN: %commscope-opt %t.d/m.py | %FileCheck --check-prefix=REPORTED %s; test ${PIPESTATUS[0]} -eq 1
# REPORTED: m.py:13:9: error: allocation 'spare' has no window view [dead-alloc]
# REPORTED: Found 1 error in 1 file (1 file checked).
#
# Any option that takes a value, written with '=' and nothing after it, is refused alike:
# CLI11 would take the next argument (the file) for its value.
# RUN: %commscope-opt --config= %s 2>&1 >/dev/null | %FileCheck --check-prefix=CONFIGEQ %s; test ${PIPESTATUS[0]} -eq 2
# CONFIGEQ: commscope-opt: error: --config= got no value
# RUN: %commscope-opt --no-config --format= %s 2>&1 >/dev/null | %FileCheck --check-prefix=FORMATEQ %s; test ${PIPESTATUS[0]} -eq 2
# FORMATEQ: commscope-opt: error: --format= got no value
# A flag with '=' is CLI11's own (`--version=` prints the version).
# RUN: %commscope-opt --version= | %FileCheck --check-prefix=VERSION %s
# VERSION: commscope-opt {{[0-9]+}}.{{[0-9]+}}.{{[0-9]+}}
