# commscope: ignore-file[nosuch]
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Typos:
    """A suppression shown in a docstring is string text:

    x = f()  # commscope: ignore[CODE]
    """

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        spare = pld.alloc_window_buffer(64)  # commscope: ignore[dead-aloc]
        extra = pld.alloc_window_buffer(64)  # commscope: ignore[nosuch, dead-alloc]
        lonely = pld.alloc_window_buffer(64)  # commscope: ignore[dead-alloc, unconsumed-aloc]
        w = pld.window(lonely, [16], dtype=pl.FP32)
        return w


# A code a suppression comment does not know suppresses nothing: its diagnostic is
# reported, and a warning on standard error says why, with the nearest code within two
# edits. The known codes of the same comment still suppress (`extra`'s dead-alloc), and
# the exit status is the diagnostics' alone.
# RUN: %commscope-opt --no-config %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=WARN --match-full-lines %s < %t.err
# WARN: {{.*}}suppression_unknown_codes.py:1:26: warning: unknown code 'nosuch' in a suppression comment: it suppresses nothing
# WARN-NEXT: {{.*}}suppression_unknown_codes.py:19:66: warning: unknown code 'dead-aloc' in a suppression comment: it suppresses nothing; did you mean 'dead-alloc'?
# WARN-NEXT: {{.*}}suppression_unknown_codes.py:20:66: warning: unknown code 'nosuch' in a suppression comment: it suppresses nothing
# WARN-NEXT: {{.*}}suppression_unknown_codes.py:21:79: warning: unknown code 'unconsumed-aloc' in a suppression comment: it suppresses nothing; did you mean 'unconsumed-alloc'?
# WARN-NOT: {{.}}
# RUN: %FileCheck --check-prefix=TEXT %s < %t.out
# TEXT: suppression_unknown_codes.py:19:9: error: allocation 'spare' has no window view [dead-alloc]
# TEXT: suppression_unknown_codes.py:21:9: error: allocation 'lonely' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# TEXT: Found 2 errors in 1 file (1 file checked, 1 suppressed).
#
# Only warnings: the run still passes.
# RUN: %commscope-opt --no-config --ignore dead-alloc,unconsumed-alloc %s 2> %t.pass.err | %FileCheck --check-prefix=PASS %s
# PASS: All checks passed: 1 file, 1 program, 0 host orchestrators, 3 suppressed.
# RUN: %FileCheck --check-prefix=WARN %s < %t.pass.err
#
# -q keeps the warnings, as it keeps the warning of a directory without Python files.
# RUN: %commscope-opt --no-config -q %s 2>&1 >/dev/null | %FileCheck --check-prefix=WARN %s; test ${PIPESTATUS[0]} -eq 1
#
# The GitHub format's standard output is its workflow commands alone.
# RUN: %commscope-opt --no-config --format=github %s > %t.gh 2> %t.gh.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=GITHUB --implicit-check-not=warning %s < %t.gh
# GITHUB: ::error file={{.*}}suppression_unknown_codes.py,line=19,col=9,title=commscope dead-alloc::
# GITHUB: ::error file={{.*}}suppression_unknown_codes.py,line=21,col=9,title=commscope unconsumed-alloc::
# RUN: %FileCheck --check-prefix=WARN %s < %t.gh.err
#
# The JSON document has the diagnostics alone; the warnings go to standard error, before
# the file's one-line diagnostics.
# RUN: %commscope-opt --no-config --format=json %s > %t.json 2> %t.json.err; test $? -eq 1
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print([(x['code'], x['line'], x.get('suppressed')) for x in d['diagnostics']])" %t.json | %FileCheck --check-prefix=JSON %s
# JSON: [('dead-alloc', 19, None), ('dead-alloc', 20, 'inline'), ('unconsumed-alloc', 21, None)]
# RUN: %FileCheck --check-prefix=JSONERR %s < %t.json.err
# JSONERR: py:1:26: warning: unknown code 'nosuch'
# JSONERR: py:21:79: warning: unknown code 'unconsumed-aloc'
# JSONERR-NEXT: py:19:9: error: allocation 'spare' has no window view [dead-alloc]
#
# A column counts characters, as a diagnostic's does; a file read from standard input
# is named <stdin>.
# RUN: sed 's/^        spare = /        späre = /' %s | %commscope-opt --no-config - 2>&1 >/dev/null | %FileCheck --check-prefix=STDIN %s; test ${PIPESTATUS[1]} -eq 1
# STDIN: <stdin>:19:66: warning: unknown code 'dead-aloc' in a suppression comment: it suppresses nothing; did you mean 'dead-alloc'?
