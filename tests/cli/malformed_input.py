# Malformed bytes of every kind: exit 3 with a located `syntax` diagnostic, never a
# crash, a hang or an abort. (This file itself is a valid program: exit 0.)
# RUN: %commscope-opt --format=json %s > /dev/null
#
# Binary garbage, NUL bytes, a truncated file; an empty file is a module without programs:
# RUN: printf '\x7fELF\x02\x01\x01\x00\x00\xff\xfe' | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=GARBAGE %s; test ${PIPESTATUS[1]} -eq 3
# GARBAGE: <stdin>:1:8: error: source code cannot contain null bytes [syntax]
# RUN: printf '\x7fELF\x02\x01' | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=CTRL %s; test ${PIPESTATUS[1]} -eq 3
# CTRL: <stdin>:1:1: error: invalid non-printable character U+007F [syntax]
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = 1\x00\n' | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=NUL %s; test ${PIPESTATUS[1]} -eq 3
# NUL: <stdin>:4:14: error: source code cannot contain null bytes [syntax]
# RUN: printf '' | %commscope-opt --format=json - | %FileCheck --check-prefix=EMPTY %s; test ${PIPESTATUS[1]} -eq 0
# EMPTY: "programs": [],
# RUN: head -c -40 %s | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=TRUNC %s; test ${PIPESTATUS[1]} -eq 3
# TRUNC: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: '(' was never closed [syntax]
# RUN: head -c 4000 /dev/urandom | %commscope-opt --format=json - > /dev/null 2>&1; test $? -eq 3
#
# An unterminated string, an unclosed bracket (reported at the bracket), a stray dedent:
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = "abc\n' | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=STR %s; test ${PIPESTATUS[1]} -eq 3
# STR: <stdin>:4:13: error: unterminated string literal [syntax]
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = f(1,\n' | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=OPEN %s; test ${PIPESTATUS[1]} -eq 3
# OPEN: <stdin>:4:14: error: '(' was never closed [syntax]
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = 1\n      y = 2\n' | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=DEDENT %s; test ${PIPESTATUS[1]} -eq 3
# DEDENT: <stdin>:5:7: error: unindent does not match any outer indentation level [syntax]
#
# Deep nesting: brackets, unary chains and blocks are capped as in Python; a long
# operator chain is read (no recursion grows with it).
# RUN: %python -c "print('@pl.program\nclass P:\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def f(self):\n        x = ' + '['*100000 + ']'*100000)" | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=DEEP %s; test ${PIPESTATUS[1]} -eq 3
# DEEP: <stdin>:5:213: error: too many nested parentheses [syntax]
# RUN: %python -c "print('@pl.program\nclass P:\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def f(self):\n        x = ' + '-'*1000000 + '1')" | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=UNARY %s; test ${PIPESTATUS[1]} -eq 3
# UNARY: <stdin>:5:{{[0-9]+}}: error: too many nested parentheses or operators (expression too complex) [syntax]
# RUN: %python -c "print('@pl.program\nclass P:\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def f(self):\n        x = 1' + ' + 1'*1000000)" | %commscope-opt --format=json - > /dev/null
# RUN: %python -c "print('@pl.program\nclass P:\n    def f(self):\n' + ''.join(' '*(8+4*i) + 'while x:\n' for i in range(500)) + ' '*2008 + 'pass')" | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=BLOCKS %s; test ${PIPESTATUS[1]} -eq 3
# BLOCKS: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: too many levels of indentation [syntax]
#
# Huge integer literals are integers, as in Python: as a size they print as written; as
# a device they are out of range.
# RUN: %commscope-opt --format=json %s | %FileCheck --check-prefix=HUGE %s
# HUGE: "size": "123456789012345678901234567890 * 4"
# RUN: sed 's/device=r/device=99999999999999999999999/' %s | %commscope-opt --format=json - 2>&1 >/dev/null | %FileCheck --check-prefix=HUGEDEV %s; test ${PIPESTATUS[1]} -eq 1
# HUGEDEV: <stdin>:{{[0-9]+}}:13: error: the dispatch of 'chip' uses device 99999999999999999999999, at or above the device limit 1048576 [device-out-of-range]
#
# CRLF line endings are ordinary line ends.
# RUN: sed 's/$/\r/' %s | %commscope-opt --format=json - | %FileCheck --check-prefix=HUGE %s; test ${PIPESTATUS[1]} -eq 0
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        big = pld.alloc_window_buffer(123456789012345678901234567890 * pl.INT32.get_byte())
        v = pld.window(big, [1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(v, device=r)
