# Corpus: host allreduces without a signal (`data = pld.tensor.allreduce(data, op=...)`):
# the signal-synthesis pass gives each one a private signal window, named
# __allreduce_signal_buf_N with N counted per program in source order, sized
# `__allreduce_signal_world_size_N * CORES * 4` and placed in the data's domain; one
# call with `core_num=2`; an allreduce with an explicit signal stays as it is.
"""Allreduce on the host, signal windows synthesized by the compiler."""

import torch

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit
def per_rank(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    data: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    return y


@pl.jit.host
def allreduce_host(
    x: pl.Tensor[[2, 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[2, 1, SIZE], pl.FP32]],
):
    data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        per_rank(x[r], y[r], data, device=r)
    data = pld.tensor.allreduce(data, op=pld.ReduceOp.Sum)  # signal synthesized here
    part_buf = pld.alloc_window_buffer(16 * pl.BF16.get_byte())
    part = pld.window(part_buf, [16], dtype=pl.BF16)
    for d in pl.range(2):
        per_rank(x[d], y[d], part, device=d)
    part = pld.tensor.allreduce(
        part,
        op=pld.ReduceOp.Max,
        core_num=2,
    )
    flag_buf = pld.alloc_window_buffer(4)
    flag_sig_buf = pld.alloc_window_buffer(4)
    flag = pld.window(flag_buf, [1], dtype=pl.INT32)
    flag_sig = pld.window(flag_sig_buf, [1], dtype=pl.INT32)
    per_rank(x[0], y[0], flag, device=0)
    flag = pld.tensor.allreduce(flag, flag_sig)  # explicit signal: unchanged
    return y


def golden(x: torch.Tensor) -> torch.Tensor:
    return x.sum(dim=0, keepdim=True).expand_as(x)
