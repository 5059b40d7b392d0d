# Copyright (c) the pipeline examples' authors.
# Host programs that rebind their window views under control flow, in the styles of
# a model repository's examples and its system tests: a double-buffered pipeline that
# swaps its two views each step (`cur, nxt = nxt, cur`), a stage that picks its output
# buffer from a config flag, a reduction that runs only when asked, and a loop that
# carries its view through init_values and pl.yield_.
import pytest

import pypto.language as pl
import pypto.language.distributed as pld

TILE = 128
STEPS = 4


@pl.jit
def compute_tile(
    src: pld.DistributedTensor[[1, TILE], pl.FP32],
    dst: pld.DistributedTensor[[1, TILE], pl.FP32],
):
    return dst


@pl.jit.host
def double_buffered(x: pl.Tensor[[STEPS, 1, TILE], pl.FP32]):
    """Ping-pong: each step reads one buffer and writes the other, then they swap."""
    ping_buf = pld.alloc_window_buffer([1, TILE], dtype=pl.FP32)
    pong_buf = pld.alloc_window_buffer([1, TILE], dtype=pl.FP32)
    cur = pld.window(ping_buf, [1, TILE], dtype=pl.FP32)
    nxt = pld.window(pong_buf, [1, TILE], dtype=pl.FP32)
    for step in pl.range(STEPS):
        compute_tile(cur, nxt, device=step)
        cur, nxt = nxt, cur
    # the last result, in whichever buffer the swaps left it
    compute_tile(cur, cur, device=7)


def build_staged(use_spare: bool):
    @pl.program
    class Staged:
        @pl.function(type=pl.FunctionType.Orchestration)
        def stage(self, data: pld.DistributedTensor[[1, TILE], pl.FP32]):
            return data

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, reduce: bool):
            main_buf = pld.alloc_window_buffer(TILE * pl.FP32.get_byte())
            spare_buf = pld.alloc_window_buffer(TILE * pl.FP32.get_byte())
            sig_buf = pld.alloc_window_buffer(8 * pl.INT32.get_byte(), name="sig")
            out = pld.window(main_buf, [1, TILE], dtype=pl.FP32)
            sig = pld.window(sig_buf, [8], dtype=pl.INT32)
            if use_spare:
                # the spare buffer takes the output on ranks 4..7
                out = pld.window(spare_buf, [1, TILE], dtype=pl.FP32)
                for r in pl.range(4, 8):
                    self.stage(out, device=r)
            else:
                for r in pl.range(4):
                    self.stage(out, device=r)
            if reduce:
                out = pld.tensor.allreduce(out, sig, op=pl.ReduceOp.SUM)
            self.stage(out, device=0)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def carried(self, seed: pl.Tensor[[1, TILE], pl.FP32]):
            acc_buf = pld.alloc_window_buffer(TILE * 4)
            acc0 = pld.window(acc_buf, [1, TILE], dtype=pl.FP32)
            for i, (acc,) in pl.range(0, 8, 2, init_values=(acc0,)):
                self.stage(acc, device=i)
                pl.yield_(acc)

    return Staged


class TestControlFlow:
    @pytest.mark.parametrize("use_spare", [False, True])
    def test_staged(self, use_spare):
        assert build_staged(use_spare) is not None
