import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Quiet:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        spare = pld.alloc_window_buffer(64)  # commscope: ignore[dead-alloc]
        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        return 0


@pl.program
class Loud:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        spare = pld.alloc_window_buffer(64)  # noqa: F841  # commscope: ignore
        lonely = pld.alloc_window_buffer(64)
        w = pld.window(lonely, [16], dtype=pl.FP32)
        return w


# Choosing and suppressing diagnostics. `Quiet` has one error, suppressed by the comment
# at the end of its line: the program is still rejected (the pass is all or nothing) and
# the text says so in one line, but the run passes. `Loud` has a suppressed dead-alloc
# (a bare `ignore`, after another tool's directive) and an unconsumed-alloc that is not.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=TEXT %s < %t.out
# TEXT-NOT: dead-alloc
# TEXT: {{.*}}suppressions.py:5:1: note: program 'Quiet' is not transformed: its 1 error is suppressed, and a program with errors is rejected
# TEXT: {{.*}}suppressions.py:29:9: error: allocation 'lonely' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# TEXT: Found 1 error in 1 file (1 file checked, 2 suppressed).
#
# JSON keeps the suppressed diagnostics and says why; standard error has only the others.
# RUN: %commscope-opt --format=json %s > %t.json 2> %t.err; test $? -eq 1
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print([(x['code'], x['line'], x.get('suppressed')) for x in d['diagnostics']]); print(len(d['programs'][0]['functions']), len(d['programs'][1]['functions']))" %t.json | %FileCheck --check-prefix=JSON %s
# JSON: [('dead-alloc', 13, 'inline'), ('dead-alloc', 28, 'inline'), ('unconsumed-alloc', 29, None)]
# JSON-NEXT: 0 0
# RUN: %FileCheck --check-prefix=ERR --implicit-check-not=dead-alloc %s < %t.err
# ERR: suppressions.py:29:9: error: {{.*}} [unconsumed-alloc]
#
# SARIF marks them suppressed, in source.
# RUN: %commscope-opt --format=sarif %s 2> /dev/null > %t.sarif; test $? -eq 1
# RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]['results']; print([(x['ruleId'], x.get('suppressions')) for x in r])" %t.sarif | %FileCheck --check-prefix=SARIF %s
# SARIF: [('dead-alloc', [{'kind': 'inSource'}]), ('dead-alloc', [{'kind': 'inSource'}]), ('unconsumed-alloc', None)]
#
# --ignore and --select: the rest passes; the JSON says where the choice was made.
# RUN: %commscope-opt --ignore unconsumed-alloc %s | %FileCheck --check-prefix=IGNORED %s
# IGNORED: All checks passed: 1 file, 2 programs, 0 host orchestrators, 3 suppressed.
# RUN: %commscope-opt --select=dead-alloc,collective-in-loop %s | %FileCheck --check-prefix=IGNORED %s
# RUN: %commscope-opt --format=json --select dead-alloc %s | %FileCheck --check-prefix=ORIGIN %s
# ORIGIN: "suppressed": "command-line"
#
# The GitHub format prints the reported diagnostics alone, one workflow command each.
# RUN: %commscope-opt --format=github %s > %t.gh 2> %t.gh.err; test $? -eq 1 && test ! -s %t.gh.err
# RUN: %FileCheck --check-prefix=GITHUB --match-full-lines %s < %t.gh
# GITHUB: ::error file={{.*}}suppressions.py,line=29,col=9,title=commscope unconsumed-alloc::allocation 'lonely' has views but no dispatch or collective gives it devices%0A{{.*}}suppressions.py:30:9: note: a view of it is taken here%0Ahelp: pass a view of it to a chip orchestrator with device=..., or to a collective whose data buffer is covered
# GITHUB-NOT: ::
#
# `ignore-file` in the comments that open a file covers the whole file.
# RUN: (echo '#!/usr/bin/env python3'; echo '# commscope: ignore-file[unconsumed-alloc, dead-alloc]'; cat %s) > %t.file.py
# RUN: %commscope-opt %t.file.py | %FileCheck --check-prefix=FILE %s
# FILE: All checks passed: 1 file, 2 programs, 0 host orchestrators, 3 suppressed.
#
# A file that cannot be read is an annotation too (and exit 2).
# RUN: %commscope-opt --format=github %t.missing.py > %t.gh.io 2> /dev/null; test $? -eq 2
# RUN: %FileCheck --check-prefix=GHIO %s < %t.gh.io
# GHIO: ::error file={{.*}}missing.py,title=commscope::cannot open '{{.*}}missing.py': No such file or directory
#
# A suppressed finding of no program (a misspelled decorator outside any) is suppressed
# like any other: counted, and no exit status 1.
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit.hots  # commscope: ignore[unknown-decorator]\ndef f():\n    return 0\n' > %t.deco.py
# RUN: %commscope-opt %t.deco.py | %FileCheck --check-prefix=DECO %s
# DECO: All checks passed: 1 file, 0 programs, 0 host orchestrators, 1 suppressed.
