# Corpus: the class-less form at module level (one @pl.jit group, named after the file
# stem), a shape allocation over a module constant, the world-size dispatch loop, and
# ordinary Python around it (argparse, main(), f-strings, lambdas, SystemExit).
"""Step 01: one window buffer shared by every rank.

Run it::

    python examples/distributed/01_window_buffer.py -p a2a3sim -d 0,1

Each rank writes its slice into a symmetric window and reads it back.
"""

from __future__ import annotations

import argparse
import sys

import torch

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64
N_RANKS = 2


@pl.jit.incore
def step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    data: pld.DistributedTensor[[1, SIZE], pl.FP32],
) -> pl.Tensor[[1, SIZE], pl.FP32]:
    """Kernel: copy the input into the window, read it back."""
    tile = pl.load(x, [0, 0], [1, SIZE])
    data = pl.store(tile, [0, 0], data)  # publish this rank's slice
    back = pl.load(data, [0, 0], [1, SIZE])  # read own slice back
    y = pl.store(back, [0, 0], y)
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    data: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    # Chip orchestrator: one incore call on this device.
    return step(x, y, data)


@pl.jit.host
def window_program(
    x: pl.Tensor[[N_RANKS, 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, 1, SIZE], pl.FP32]],
):
    # The host owns the window: allocated once, one view per rank.
    data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
        per_rank(x[r], y[r], data, device=r)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-p", "--platform", default="a2a3sim", help="target platform")
    parser.add_argument(
        "-d",
        "--devices",
        type=lambda s: [int(t) for t in s.split(",") if t],
        default=[0, 1],
        help="comma-separated device ids",
    )
    return parser.parse_args(argv)


def main() -> int:
    args = parse_args()
    ids = args.devices
    if len(ids) != N_RANKS:
        print(f"need {N_RANKS} devices, got {ids}", file=sys.stderr)
        return 2
    x = torch.arange(N_RANKS * SIZE, dtype=torch.float32).reshape(N_RANKS, 1, SIZE)
    y = torch.zeros_like(x)
    window_program(x, y, platform=args.platform, devices=ids)
    assert torch.allclose(x, y), (
        f"mismatch: max abs err {float((x - y).abs().max()):.3e}"
    )
    print("OK")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
