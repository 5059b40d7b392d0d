# Corpus: the same builder style without any -D binding. `nr` is a parameter of the
# builder, so a dispatch whose devices depend on it is unsupported-device (the message
# names `nr` and suggests -D); the other program of the file, which dispatches over
# the world, is still accepted (programs are analysed independently). Exit 1.
"""Builders whose rank count is only known when the test runs."""

import pytest

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 128


def build_fixed(nr):
    @pl.program
    class FixedRanks:
        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(self, x, data):
            return x

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[nr, SIZE], pl.FP32]):
            buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            data = pld.window(buf, [1, SIZE], dtype=pl.FP32)
            for r in pl.range(nr):
                self.per_rank(x[r], data, device=r)
            self.per_rank(x[0], data, device=nr)
            return x

    return FixedRanks


def build_world(nr):
    @pl.program
    class WorldRanks:
        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(self, x, data):
            return x

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[nr, SIZE], pl.FP32]):
            buf = pld.alloc_window_buffer([nr, SIZE], dtype=pl.FP32)
            data = pld.window(buf, [nr, SIZE], dtype=pl.FP32)
            for r in pl.range(pld.world_size()):
                self.per_rank(x[r], data, device=r)
            return x

    return WorldRanks


@pytest.mark.parametrize("nr", [2, 4, 8])
def test_build(nr):
    assert build_fixed(nr).__name__ == "FixedRanks"
    assert build_world(nr).__name__ == "WorldRanks"
