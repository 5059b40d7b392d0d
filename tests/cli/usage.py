# Exit status 2: usage and I/O errors, with a message and no JSON on stdout.
# RUN: %commscope-opt --format=json --bogus %s > %t.out 2> %t.err; test $? -eq 2 && test ! -s %t.out
# RUN: %FileCheck --check-prefix=FLAG %s < %t.err
# FLAG: commscope-opt: error: The following argument was not expected: --bogus
# FLAG-NEXT: Run 'commscope-opt --help' for the options.
# RUN: %commscope-opt --emit=xml %s 2>&1 >/dev/null | %FileCheck --check-prefix=EMIT %s; test ${PIPESTATUS[0]} -eq 2
# EMIT: commscope-opt: error: unknown --emit value 'xml' (both, dot, ir, plan)
# RUN: %commscope-opt --format=xml %s 2>&1 >/dev/null | %FileCheck --check-prefix=FORMAT %s; test ${PIPESTATUS[0]} -eq 2
# FORMAT: commscope-opt: error: unknown --format value 'xml' (github, json, sarif, text)
# RUN: %commscope-opt --format=sarif --emit=ir %s 2>&1 >/dev/null | %FileCheck --check-prefix=SARIFEMIT %s; test ${PIPESTATUS[0]} -eq 2
# SARIFEMIT: commscope-opt: error: --format=sarif replaces the output of --emit: use one of them
# RUN: %commscope-opt --format=text --emit=plan %s 2>&1 >/dev/null | %FileCheck --check-prefix=TEXTPLAN %s; test ${PIPESTATUS[0]} -eq 2
# TEXTPLAN: commscope-opt: error: --emit=plan is a JSON document: use --format=json
# RUN: %commscope-opt --select unconsumed-alloc,no-such-code %s 2>&1 >/dev/null | %FileCheck --check-prefix=CODE %s; test ${PIPESTATUS[0]} -eq 2
# CODE: commscope-opt: error: unknown code 'no-such-code' in --select (codes: dead-alloc, {{.*}})
# RUN: %commscope-opt --ignore syntax %s 2>&1 >/dev/null | %FileCheck --check-prefix=SYNTAX %s; test ${PIPESTATUS[0]} -eq 2
# SYNTAX: commscope-opt: error: 'syntax' cannot be ignored: a file Python rejects is never checked
# RUN: %commscope-opt --config %s --no-config %s 2>&1 >/dev/null | %FileCheck --check-prefix=CONFIG %s; test ${PIPESTATUS[0]} -eq 2
# CONFIG: commscope-opt: error: --config and --no-config exclude each other
# RUN: %commscope-opt -o %t.pictures %s 2>&1 >/dev/null | %FileCheck --check-prefix=OUTDIR %s; test ${PIPESTATUS[0]} -eq 2
# OUTDIR: commscope-opt: error: -o DIR writes pictures: it takes --emit=dot
# RUN: %commscope-opt --color=sometimes %s 2>&1 >/dev/null | %FileCheck --check-prefix=COLOR %s; test ${PIPESTATUS[0]} -eq 2
# COLOR: commscope-opt: error: unknown --color value 'sometimes' (always, auto, never)
# RUN: %commscope-opt --format=json -j0 %s 2>&1 >/dev/null | %FileCheck --check-prefix=JOBS %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --format=json %s -j 2>&1 >/dev/null | %FileCheck --check-prefix=JOBSMISSING %s; test ${PIPESTATUS[0]} -eq 2
# JOBS: commscope-opt: error: malformed -j '0': expected a positive integer
# JOBSMISSING: commscope-opt: error: --jobs: 1 required N missing
# RUN: %commscope-opt --format=json %t.does-not-exist.py 2>&1 >/dev/null | %FileCheck --check-prefix=MISSING %s; test ${PIPESTATUS[0]} -eq 2
# MISSING: commscope-opt: error: cannot open '{{.*}}does-not-exist.py': No such file or directory
# A directory is several inputs: one without Python files gives an empty list.
# RUN: rm -rf %t.empty && mkdir -p %t.empty && %commscope-opt --format=json %t.empty | %FileCheck --check-prefix=DIR %s
# DIR: "files": [],
# DIR: "files": 0,
# --emit=ir takes one file.
# RUN: %commscope-opt --format=json --emit=ir %s %s 2>&1 >/dev/null | %FileCheck --check-prefix=TWO %s; test ${PIPESTATUS[0]} -eq 2
# TWO: commscope-opt: error: --emit=ir takes one input file (several given)
# --help is not an error.
# RUN: %commscope-opt --help | %FileCheck --check-prefix=HELP %s
# HELP: Usage: commscope-opt [OPTIONS] [PATH...]
# HELP: --format FORMAT text (the default: for people), json, sarif or github
# HELP: --select CODES
# HELP: Exit status:
# HELP-NEXT: 0  no error
# HELP: 3  syntax error in an input
# HELP: Codes
# HELP-NEXT: dead-alloc An allocation has no window view.
# HELP: unknown-decorator A DSL decorator that the DSL does not define, or one the front end cannot read.
# RUN: %commscope-opt --version | %FileCheck --check-prefix=VERSION %s
# VERSION: commscope-opt {{[0-9]+\.[0-9]+\.[0-9]+$}}
#
# Exit status 0 from a file, from standard input (`-`), and after `--`:
# RUN: %commscope-opt --format=json %s > /dev/null
# RUN: %commscope-opt --format=json - < %s | %FileCheck --check-prefix=STDIN %s
# RUN: %commscope-opt --format=json --verify -- %s > /dev/null
# STDIN: "name": "Usage",
# Diagnostics name the input `<stdin>` for `-`:
# RUN: sed 's/device=0/device=-3/' %s | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=STDINERR %s; test ${PIPESTATUS[1]} -eq 1
# STDINERR: <stdin>:{{[0-9]+}}:9: error: the dispatch of 'chip' uses negative device -3 [negative-device]
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Usage:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        b = pld.alloc_window_buffer(4)
        v = pld.window(b, [1], dtype=pl.INT32)
        self.chip(v, device=0)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def idle(self):
        return None
