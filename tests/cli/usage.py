# Exit status 2: usage and I/O errors, with a message and no JSON on stdout.
# RUN: %commscope-opt --bogus %s > %t.out 2> %t.err; test $? -eq 2 && test ! -s %t.out
# RUN: %FileCheck --check-prefix=FLAG %s < %t.err
# FLAG: commscope-opt: error: unknown option '--bogus'
# FLAG-NEXT: usage: commscope-opt [--emit=plan|ir|both|dot] [--format=json|sarif] [--verify] [--explain]
# RUN: %commscope-opt --emit=xml %s 2>&1 >/dev/null | %FileCheck --check-prefix=EMIT %s; test ${PIPESTATUS[0]} -eq 2
# EMIT: commscope-opt: error: unknown --emit value 'xml' (plan, ir, both or dot)
# RUN: %commscope-opt --format=xml %s 2>&1 >/dev/null | %FileCheck --check-prefix=FORMAT %s; test ${PIPESTATUS[0]} -eq 2
# FORMAT: commscope-opt: error: unknown --format value 'xml' (json or sarif)
# RUN: %commscope-opt --format=sarif --emit=ir %s 2>&1 >/dev/null | %FileCheck --check-prefix=SARIFEMIT %s; test ${PIPESTATUS[0]} -eq 2
# SARIFEMIT: commscope-opt: error: --format=sarif replaces the output of --emit: use one of them
# RUN: %commscope-opt -j0 %s 2>&1 >/dev/null | %FileCheck --check-prefix=JOBS %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt %s -j 2>&1 >/dev/null | %FileCheck --check-prefix=JOBSMISSING %s; test ${PIPESTATUS[0]} -eq 2
# JOBS: commscope-opt: error: malformed -j '0': expected a positive integer
# JOBSMISSING: commscope-opt: error: -j needs a number of files
# RUN: %commscope-opt %t.does-not-exist.py 2>&1 >/dev/null | %FileCheck --check-prefix=MISSING %s; test ${PIPESTATUS[0]} -eq 2
# MISSING: commscope-opt: error: cannot open '{{.*}}does-not-exist.py'
# A directory is several inputs: one without Python files gives an empty list.
# RUN: rm -rf %t.empty && mkdir -p %t.empty && %commscope-opt %t.empty | %FileCheck --check-prefix=DIR %s
# DIR: "files": [],
# DIR: "files": 0,
# --emit=ir takes one file.
# RUN: %commscope-opt --emit=ir %s %s 2>&1 >/dev/null | %FileCheck --check-prefix=TWO %s; test ${PIPESTATUS[0]} -eq 2
# TWO: commscope-opt: error: --emit=ir takes one input file (several given)
# --help is not an error.
# RUN: %commscope-opt --help | %FileCheck --check-prefix=HELP %s
# HELP: usage: commscope-opt
#
# Exit status 0 from a file, from standard input (`-`), and after `--`:
# RUN: %commscope-opt %s > /dev/null
# RUN: %commscope-opt - < %s | %FileCheck --check-prefix=STDIN %s
# RUN: %commscope-opt --verify -- %s > /dev/null
# STDIN: "name": "Usage",
# Diagnostics name the input `<stdin>` for `-`:
# RUN: sed 's/device=0/device=-3/' %s | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=STDINERR %s; test ${PIPESTATUS[1]} -eq 1
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
