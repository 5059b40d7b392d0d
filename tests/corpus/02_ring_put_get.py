# Corpus: one module-level @pl.jit group with two host orchestrators (two functions in
# one program), incore kernels whose bodies hold `with pl.at(...)` blocks and
# `for i, (acc,) in pl.range(..., init_values=...)` loops with pl.yield_, and a host
# body whose dispatch loop stands inside a `with pl.at(...)` block.
"""Step 02: ring put / ring get between neighbouring ranks."""

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64  # elements per rank
NR = pl.dynamic("NR")  # the rank count is a runtime dimension (opaque here)


@pl.jit.incore
def put_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    me = pld.rank()
    peer = (me + 1) % pld.world_size()
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage_in"):
        tile = pl.load(x, [0, 0], [1, SIZE])
        src = pl.store(tile, [0, 0], src)
    # Accumulate in chunks of 16, carrying the running sum.
    for i, (acc,) in pl.range(0, SIZE, 16, init_values=(tile,)):
        part = pl.load(src, [0, i], [1, 16])
        nxt = pl.add(acc, part)
        pl.yield_(nxt)
    pld.put(dst, src, peer=peer)
    pld.notify(signal, peer=peer)
    pld.wait(signal, 1)
    y = pl.store(pl.load(dst, [0, 0], [1, SIZE]), [0, 0], y)
    return y


@pl.jit.incore
def get_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    me = pld.rank()
    prev = (me + pld.world_size() - 1) % pld.world_size()
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="publish"):
        src = pl.store(pl.load(x, [0, 0], [1, SIZE]), [0, 0], src)
    pld.barrier_all()
    pld.get(dst, src, peer=prev)
    return pl.store(pl.load(dst, [0, 0], [1, SIZE]), [0, 0], y)


@pl.jit
def per_rank_put(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return put_step(x, y, src, dst, signal)


@pl.jit
def per_rank_get(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return get_step(x, y, src, dst, signal)


@pl.jit.host
def ring_put(
    x: pl.Tensor[[NR, 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
):
    """Host orchestrator: the leading world dim is the dynamic rank count."""
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        per_rank_put(x[r], y[r], src, dst, signal, device=r)


@pl.jit.host
def ring_get(
    x: pl.Tensor[[NR, 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
) -> pl.Tensor[[NR, 1, SIZE], pl.FP32]:
    """Host orchestrator: same windows, dispatched inside a pl.at block."""
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    dst_buf = pld.alloc_window_buffer((1, SIZE), dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    with pl.at(level=pl.Level.HOST, name_hint="dispatch"):
        for r in pl.range(pld.world_size()):
            src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
            dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            per_rank_get(
                x[r],
                y[r],
                src,
                dst,
                signal,
                device=r,
            )
    return y


if __name__ == "__main__":
    import torch

    n = torch.cuda.device_count() if torch.cuda.is_available() else 2
    print({"ranks": n, "size": SIZE, "programs": [f.__name__ for f in (ring_put, ring_get)]})
