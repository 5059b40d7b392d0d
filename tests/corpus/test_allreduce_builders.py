# Corpus: a pytest system-test module in the builder style: `def build_*(nr, ...)`
# functions that define a @pl.program class and return it, closing over the builder's
# parameters (only in types and shapes: they print as names) and over module
# constants (which print as their values); one more program defined directly inside a
# test function; fixtures, parametrize, asserts with parenthesised messages.
"""System tests: two-phase and revealing allreduce built per rank count."""

from __future__ import annotations

import os

import pytest
import torch

import pypto.language as pl
import pypto.language.distributed as pld
from pypto.runtime import run_on_devices  # noqa: F401  (used by the harness)

SIZE = 256
DEVICE_IDS = [int(d) for d in os.environ.get("PYPTO_DEVICES", "0,1").split(",")]


def build_two_phase(nr: int, sz: int = SIZE):
    """Return a program that reduces in two phases over ``nr`` ranks."""

    @pl.program
    class TwoPhaseAllreduce:
        @pl.function(type=pl.FunctionType.InCore)
        def reduce_step(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            data: pld.DistributedTensor[[1, SIZE], pl.FP32],
            result: pld.DistributedTensor[[1, SIZE], pl.FP32],
            signal: pl.InOut[pld.DistributedTensor[[2, nr], pl.INT32]],
        ) -> pl.Tensor[[1, SIZE], pl.FP32]:
            # phase 1: scatter-reduce; phase 2: all-gather
            for phase in pl.range(2):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint=f"phase{phase}"):
                    acc = pl.load(data, [0, 0], [1, SIZE])
                    result = pl.store(acc, [0, 0], result)
            return pl.store(pl.load(result, [0, 0], [1, SIZE]), [0, 0], y)

        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            data: pld.DistributedTensor[[1, SIZE], pl.FP32],
            result: pld.DistributedTensor[[1, SIZE], pl.FP32],
            signal: pld.DistributedTensor[[2, nr], pl.INT32],
        ) -> pl.Tensor[[1, SIZE], pl.FP32]:
            """Per-device orchestration: one incore call, on this device."""
            return self.reduce_step(x, y, data, result, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def two_phase_allreduce(
            self,
            x: pl.Tensor[[nr, 1, SIZE], pl.FP32],
            y: pl.Out[pl.Tensor[[nr, 1, SIZE], pl.FP32]],
        ) -> pl.Tensor[[nr, 1, SIZE], pl.FP32]:
            """Host orchestrator: shared data + result + signal windows, one dispatch per rank."""
            data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            result_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            signal_buf = pld.alloc_window_buffer([2, nr], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
                result = pld.window(result_buf, [1, SIZE], dtype=pl.FP32)
                signal = pld.window(signal_buf, [2, nr], dtype=pl.INT32)
                self.per_rank(x[r], y[r], data, result, signal, device=r)
            return y

    return TwoPhaseAllreduce


def build_reveal(nr: int, sig_rows: int, sig_cols: int):
    """A program whose host also runs a host-level allreduce after the dispatch."""

    @pl.program
    class AllreduceReveal:
        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            data: pld.DistributedTensor[[1, SIZE], pl.FP32],
            signal: pld.DistributedTensor[[sig_rows, sig_cols], pl.INT32],
        ):
            return x

        @pl.function(
            level=pl.Level.HOST,
            type=pl.FunctionType.Orchestration,
        )
        def allreduce_reveal(
            self,
            x: pl.Tensor[[nr, 1, SIZE], pl.FP32],
        ) -> pl.Tensor[[nr, 1, SIZE], pl.FP32]:
            data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            signal_buf = pld.alloc_window_buffer([sig_rows, sig_cols], dtype=pl.INT32)
            data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
            signal = pld.window(signal_buf, [sig_rows, sig_cols], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                self.per_rank(x[r], data, signal, device=r)
            # The reduced value rebinds `data`: still a view of data_buf.
            data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Sum)
            return x

    return AllreduceReveal


def expected_allreduce(inputs: torch.Tensor) -> torch.Tensor:
    """Every rank receives the element-wise sum of all rank slices."""
    reduced = inputs.sum(dim=0)
    return torch.stack([reduced for _ in range(inputs.shape[0])])


@pytest.fixture(scope="module")
def device_ids() -> list[int]:
    if len(DEVICE_IDS) < 2:
        pytest.skip(f"need 2 devices, got {DEVICE_IDS}")
    return DEVICE_IDS


@pytest.mark.parametrize("nr", [2, 4])
def test_two_phase(device_ids, nr):
    program = build_two_phase(nr)
    x = torch.randn(nr, 1, SIZE)
    y = torch.zeros_like(x)
    program.two_phase_allreduce(x, y, devices=device_ids[:nr])
    expected = expected_allreduce(x)
    assert torch.allclose(y, expected, atol=1e-5), (
        f"two-phase allreduce mismatch for nr={nr}: "
        f"{(y - expected).abs().max().item():.2e}"
    )


@pytest.mark.parametrize(
    ("nr", "rows", "cols"),
    [
        (2, 1, 2),
        (4, 2, 4),
    ],
)
def test_reveal(device_ids, nr, rows, cols):
    program = build_reveal(nr, rows, cols)
    assert program is not None


def test_inline_program(device_ids):
    """A program defined right here, in the test body."""

    @pl.program
    class Inline:
        @pl.function(role=pl.Role.Orchestrator)
        def chip(self, t: pld.DistributedTensor[[SIZE], pl.FP16]):
            return t

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            stage = pld.alloc_window_buffer(SIZE * pl.FP16.get_byte())
            view = pld.window(stage, [SIZE], dtype=pl.FP16)
            for d in pl.range(2):  # devices 0 and 1 only
                self.chip(view, device=d)
            return 0

    assert Inline.host is not None, "program must expose its host orchestrator"
