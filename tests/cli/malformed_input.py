# Malformed bytes of every kind: exit 3 with a located `syntax` diagnostic, never a
# crash, a hang or an abort. (This file itself is a valid program: exit 0.)
# RUN: %commscope-opt %s > /dev/null
#
# Binary garbage, NUL bytes, an empty file, a truncated file:
# RUN: printf '\x7fELF\x02\x01\x01\x00\x00\xff\xfe' | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=GARBAGE %s; test ${PIPESTATUS[1]} -eq 3
# GARBAGE: <stdin>:1:1: error: unexpected byte 0x7f [syntax]
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = 1\x00\n' | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=NUL %s; test ${PIPESTATUS[1]} -eq 3
# NUL: <stdin>:4:14: error: unexpected byte 0x00 [syntax]
# RUN: printf '' | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=EMPTY %s; test ${PIPESTATUS[1]} -eq 3
# EMPTY: <stdin>:1:1: error: expected a program: '@pl.program' followed by 'class NAME:' [syntax]
# RUN: head -c 700 %s | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=TRUNC %s; test ${PIPESTATUS[1]} -eq 3
# TRUNC: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [syntax]
# RUN: head -c 4000 /dev/urandom | %commscope-opt - > /dev/null 2>&1; test $? -eq 3
#
# An unterminated string, an unclosed bracket (reported at the bracket), a stray dedent:
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = "abc\n' | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=STR %s; test ${PIPESTATUS[1]} -eq 3
# STR: <stdin>:4:13: error: unterminated string literal [syntax]
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = f(1,\n' | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=OPEN %s; test ${PIPESTATUS[1]} -eq 3
# OPEN: <stdin>:4:14: error: '(' was never closed (unexpected end of file) [syntax]
# RUN: printf '@pl.program\nclass P:\n    def f(self):\n        x = 1\n      y = 2\n' | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=DEDENT %s; test ${PIPESTATUS[1]} -eq 3
# DEDENT: <stdin>:5:7: error: unindent does not match any outer indentation level [syntax]
#
# Deep nesting: brackets, unary chains, operator chains and blocks are capped.
# RUN: %python -c "print('@pl.program\nclass P:\n    def f(self):\n        x = ' + '['*100000 + ']'*100000)" | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=DEEP %s; test ${PIPESTATUS[1]} -eq 3
# DEEP: <stdin>:4:213: error: nesting too deep [syntax]
# RUN: %python -c "print('@pl.program\nclass P:\n    def f(self):\n        x = ' + '-'*1000000 + '1')" | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=UNARY %s; test ${PIPESTATUS[1]} -eq 3
# UNARY: <stdin>:4:{{[0-9]+}}: error: nesting too deep [syntax]
# RUN: %python -c "print('@pl.program\nclass P:\n    def f(self):\n        x = 1' + ' + 1'*1000000)" | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=CHAIN %s; test ${PIPESTATUS[1]} -eq 3
# CHAIN: <stdin>:4:13: error: expression nested too deep [syntax]
# RUN: %python -c "print('@pl.program\nclass P:\n    def f(self):\n' + ''.join(' '*(8+4*i) + 'while x:\n' for i in range(500)) + ' '*2008 + 'pass')" | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=BLOCKS %s; test ${PIPESTATUS[1]} -eq 3
# BLOCKS: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: nesting too deep [syntax]
#
# Huge integer literals are kept (not an error by themselves): as a size they print as
# written; as a device they are an unsupported device form.
# RUN: %commscope-opt %s | %FileCheck --check-prefix=HUGE %s
# HUGE: "size": "123456789012345678901234567890 * 4"
# RUN: sed 's/device=r/device=99999999999999999999999/' %s | %commscope-opt - 2>&1 >/dev/null | %FileCheck --check-prefix=HUGEDEV %s; test ${PIPESTATUS[1]} -eq 1
# HUGEDEV: <stdin>:{{[0-9]+}}:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression [unsupported-device]
#
# CRLF line endings are ordinary line ends.
# RUN: sed 's/$/\r/' %s | %commscope-opt - | %FileCheck --check-prefix=HUGE %s; test ${PIPESTATUS[1]} -eq 0
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
