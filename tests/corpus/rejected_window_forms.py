# Corpus: where a window may stand. A window is a view only as the whole value of an
# assignment to one variable: the rewrite gives the view its window buffer through that
# variable. Its pointer may be any expression that names one allocation (read back from
# a tuple, chosen by a conditional expression). A window written inside another
# expression (a dispatch's argument, a tuple) is malformed-op there, and its allocation
# gets no other diagnostic: left unreported, its devices would be missing from the
# allocation's set. Three programs, two of them rejected (exit 1).
"""System tests: windows in the forms people write them."""

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.program
class PointerExpressions:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, flag: bool):
        buf = pld.alloc_window_buffer(SIZE)
        pointers = (buf,)
        first = pld.window(pointers[0], [SIZE // 4], dtype=pl.FP32)
        self.per_rank(first, device=0)
        second = pld.window(buf if flag else buf, [SIZE // 4], dtype=pl.FP32)
        self.per_rank(second, device=1)


@pl.program
class InlineWindow:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(SIZE)
        v = pld.window(buf, [SIZE // 4], dtype=pl.FP32)
        self.per_rank(v, device=0)
        for r in pl.range(1, 3):
            self.per_rank(pld.window(buf, [SIZE // 4], dtype=pl.FP32), device=r)


@pl.program
class PackedWindows:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a, b):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        left = pld.alloc_window_buffer(SIZE)
        right = pld.alloc_window_buffer(SIZE)
        pair = (
            pld.window(left, [SIZE // 4], dtype=pl.FP32),
            pld.window(right, [SIZE // 4], dtype=pl.FP32),
        )
        self.per_rank(pair[0], pair[1], device=0)
