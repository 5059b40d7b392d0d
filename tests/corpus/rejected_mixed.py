# Corpus: four programs in one system-test module, three of them rejected (exit 1):
# a dead allocation (no view), a duplicate allocation name in one domain (reported at
# the later allocation), and a view passed only as a keyword argument (keyword
# arguments give no coverage: unconsumed-alloc). The accepted program is still listed
# with its plan; the rejected ones have no functions.
"""Negative system tests: the compiler must refuse these programs."""

import pytest

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 32


@pl.program
class Good:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(SIZE)
        v = pld.window(buf, [SIZE // 4], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.per_rank(v, device=r)


class TestRejected:
    def test_dead_alloc(self):
        @pl.program
        class DeadAlloc:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                unused_buf = pld.alloc_window_buffer(SIZE * 2)
                used_buf = pld.alloc_window_buffer(SIZE)
                v = pld.window(used_buf, [SIZE // 4], dtype=pl.FP32)
                self.per_rank(v, device=0)

        with pytest.raises(ValueError, match=r"dead-alloc"):
            DeadAlloc.compile()

    def test_duplicate_name(self):
        @pl.program
        class DupName:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a, b):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                first = pld.alloc_window_buffer(SIZE, name="scratch")
                second = pld.alloc_window_buffer(
                    SIZE * 2,
                    name="scratch",
                )
                a = pld.window(first, [8], dtype=pl.FP32)
                b = pld.window(second, [16], dtype=pl.FP32)
                for d in pl.range(2):
                    self.per_rank(a, b, device=d)

        with pytest.raises(ValueError, match="duplicate-name"):
            DupName.compile()

    def test_keyword_view(self):
        @pl.program
        class KeywordView:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, x, data=None):
                return x

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self, x):
                buf = pld.alloc_window_buffer(SIZE)
                v = pld.window(buf, [8], dtype=pl.FP32)
                for r in pl.range(pld.world_size()):
                    self.per_rank(x, data=v, device=r)

        with pytest.raises(ValueError):
            KeywordView.compile()
