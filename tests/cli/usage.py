# Exit status 2: usage and I/O errors, with a message and no JSON on stdout.
# RUN: %commscope-opt --bogus %s > %t.out 2> %t.err; test $? -eq 2 && test ! -s %t.out
# RUN: %FileCheck --check-prefix=FLAG %s < %t.err
# FLAG: commscope-opt: error: unknown option '--bogus'
# FLAG-NEXT: usage: commscope-opt [--emit=plan|ir|both] [--verify] [--explain] [--no-synthesize-signals]
# RUN: %commscope-opt --emit=xml %s 2>&1 >/dev/null | %FileCheck --check-prefix=EMIT %s; test ${PIPESTATUS[0]} -eq 2
# EMIT: commscope-opt: error: unknown --emit value 'xml' (plan, ir or both)
# RUN: %commscope-opt %t.does-not-exist.py 2>&1 >/dev/null | %FileCheck --check-prefix=MISSING %s; test ${PIPESTATUS[0]} -eq 2
# MISSING: commscope-opt: error: cannot open '{{.*}}does-not-exist.py'
# RUN: %commscope-opt %S 2>&1 >/dev/null | %FileCheck --check-prefix=DIR %s; test ${PIPESTATUS[0]} -eq 2
# DIR: commscope-opt: error: cannot read '{{.*}}': is a directory
# RUN: %commscope-opt %s %s 2>&1 >/dev/null | %FileCheck --check-prefix=TWO %s; test ${PIPESTATUS[0]} -eq 2
# TWO: commscope-opt: error: more than one input file
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
