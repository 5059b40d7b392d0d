# Corpus: lexical torture around one real program. Triple-quoted strings and comments
# that look like DSL code (`@pl.program`, `@pl.jit.host`) must not be discovered;
# nested f-strings with conversions and format specs, byte/raw/unicode prefixes in
# every case, every number form (an unbounded integer included), the walrus, the
# matrix-multiply operator, `...`, backslash continuations (also inside the host body),
# lambdas, set/dict comprehensions, a decorator that is an arbitrary expression.
# @pl.program
# class CommentedOut:  (a comment: not a program)
"""Module docstring mentioning @pl.program and @pl.jit.host in prose.

@pl.program
class Fake:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(1)
"""

import math
import re

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 0x40  # 64, written in hex
BIG = 123_456_789_012_345_678_901_234_567_890  # an unbounded integer
MASK = 0o777 | 0b1010_1010
RATIO = 1_000.5e-3 + 2j.imag + .5
FAKE_SOURCE = """@pl.program
class Fake:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        x = pld.alloc_window_buffer(8)
"""
FAKE_JIT = r'''
@pl.jit.host
def not_a_program():
    pld.alloc_window_buffer(1)
'''
PATTERN = re.compile(rb"@pl\.program\s+class\s+(\w+)")
PREFIXES = [b"bytes", B"BYTES", Rb"\d", bR"\w", rB"\s", u"unicode", U"UNI", Rf"{SIZE}\n"]
WIDTH = 12


def fmt(value, w=WIDTH):
    """Nested f-strings and format specs."""
    name = "value"
    return f"{name!r:>{w}} = {value:{'>' if value else '<'}{w}.{3}} {f'{value!s}'!a}"


def weird_decorator(arg):
    return lambda f: f


@(weird_decorator)(lambda: None)
def decorated():
    if (n := len(PREFIXES)) > 3:
        total = n + \
            SIZE
        return total
    return ...


class Matrix:
    def __matmul__(self, other):
        return {k: v for k, v in zip("ab", (1, 2))}

    def __rmatmul__(self, other):
        return {x @ x for x in ()}


@pl.program
class RealOne:
    """The only program of this file.

    @pl.program
    class AlsoFake: ...
    """

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a, b, c):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        """Host docstring: `x = pld.alloc_window_buffer(3)` is only text here."""
        buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())  # '#' in a comment
        sig_buf = \
            pld.alloc_window_buffer(4)
        hashy = pld.alloc_window_buffer(SIZE * 2, name="hash#tag")
        v = pld.window(buf, [SIZE], dtype=pl.FP32)
        s = pld.window(sig_buf, [1], dtype=pl.INT32)
        h = pld.window(hashy, [SIZE], dtype=pl.FP16)
        label = f"{SIZE:#x} {'}'} {{literal}}"  # braces inside an f-string
        for r in pl.range(pld.world_size()):
            self.per_rank(v, s, label, device=r)
        self.per_rank(h, (1, 2), {"k": [3, 4]}, device=0x2)
        return label


if __name__ == "__main__":
    print(fmt(math.pi), BIG % 97, MASK, RATIO, PATTERN.findall(FAKE_SOURCE.encode()))
