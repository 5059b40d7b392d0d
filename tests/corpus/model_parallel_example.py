#!/usr/bin/env python3
# Corpus: a long example script in the class-less form (a shebang first, then this
# comment): dataclasses, a dict-of-lambdas registry, torch, argparse with
# subcommands, `def main() -> int`, `raise SystemExit(main())`. Two host
# orchestrators in the module-level group: one with a carried loop
# `for i, (acc,) in pl.range(0, TP, 2, init_values=(x,))` dispatching on devices 0 and
# 2 plus an allgather whose target is dispatched over the world; one that only
# dispatches with a device= that is a copy of a constant temporary.
"""Tensor-parallel embedding lookup with an all-gather on the host.

Usage::

    python model_parallel_example.py run --tp 4 --tokens 128
    python model_parallel_example.py check
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Callable

import torch

import pypto.language as pl
import pypto.language.distributed as pld

TP = 4
SP_T = 128
D = 256
GROUP_T_MAX = SP_T * TP  # 512


@dataclasses.dataclass(frozen=True)
class Shape:
    tokens: int = SP_T
    hidden: int = D

    @property
    def numel(self) -> int:
        return self.tokens * self.hidden


ACTIVATIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "relu": lambda t: t.clamp_min(0),
    "gelu": torch.nn.functional.gelu,
    "id": lambda t: t,
}


@pl.jit.incore
def lookup_kernel(
    ids: pl.Tensor[[1, SP_T], pl.INT64],
    table: pl.Tensor[[SP_T, D], pl.BF16],
    out: pl.Out[pl.Tensor[[SP_T, D], pl.BF16]],
):
    for t, (row,) in pl.range(0, SP_T, 1, init_values=(out,)):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="gather_row"):
            row = pl.store(pl.load(table, [t, 0], [1, D]), [t, 0], row)
        pl.yield_(row)
    return out


@pl.jit
def lookup_rank(
    ids: pl.Tensor[[1, SP_T], pl.INT64],
    table: pl.Tensor[[SP_T, D], pl.BF16],
    out: pl.Out[pl.Tensor[[SP_T, D], pl.BF16]],
    gather_window: pld.DistributedTensor[[1, GROUP_T_MAX], pl.INT64],
    scatter_window: pld.DistributedTensor[[GROUP_T_MAX, D], pl.BF16],
) -> pl.Tensor[[SP_T, D], pl.BF16]:
    return lookup_kernel(ids, table, out)


@pl.jit.host
def l3_lookup_embedding_tp(
    input_ids_local: pl.Tensor[[TP, SP_T], pl.INT64],
    embed_weight_local: pl.Tensor[[TP, SP_T, D], pl.BF16],
    hidden_states_local: pl.Out[pl.Tensor[[TP, SP_T, D], pl.BF16]],
):
    gather_window_buffer = pld.alloc_window_buffer([1, GROUP_T_MAX], dtype=pl.INT64)
    gather_signal_buffer = pld.alloc_window_buffer([TP, 1], dtype=pl.INT32)
    scatter_window_buffer = pld.alloc_window_buffer([GROUP_T_MAX, D], dtype=pl.BF16)

    gather_window = pld.window(gather_window_buffer, [1, GROUP_T_MAX], dtype=pl.INT64)
    gather_signal = pld.window(gather_signal_buffer, [TP, 1], dtype=pl.INT32)
    scatter_window = pld.window(scatter_window_buffer, [GROUP_T_MAX, D], dtype=pl.BF16)

    # even ranks only, carrying the running hidden state
    for i, (acc,) in pl.range(0, TP, 2, init_values=(hidden_states_local,)):
        acc = lookup_rank(
            input_ids_local[i],
            embed_weight_local[i],
            acc[i],
            gather_window,
            scatter_window,
            device=i,
        )
        pl.yield_(acc)
    for rank in pl.range(pld.world_size()):
        lookup_rank(
            input_ids_local[rank],
            embed_weight_local[rank],
            hidden_states_local[rank],
            gather_window,
            scatter_window,
            device=rank,
        )
    gathered = pld.tensor.allgather(gather_window, scatter_window, gather_signal)
    return gathered


@pl.jit.host
def l3_probe(ids: pl.Tensor[[TP, SP_T], pl.INT64]):
    probe_buf = pld.alloc_window_buffer(8)
    probe = pld.window(probe_buf, [1], dtype=pl.INT64)
    target = 1
    dev = target
    lookup_rank(ids[0], None, None, probe, None, device=dev)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="model_parallel_example", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="run on devices")
    run.add_argument("--tp", type=int, default=TP)
    run.add_argument("--tokens", type=int, default=SP_T)
    run.add_argument("--act", choices=sorted(ACTIVATIONS), default="id")
    sub.add_parser("check", help="compare against torch")
    return parser


def golden(ids: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    return torch.stack([table[r][ids[r]] for r in range(ids.shape[0])])


def main() -> int:
    args = build_parser().parse_args()
    if args.cmd == "check":
        shape = Shape()
        report = {
            "numel": shape.numel,
            "tp": TP,
            "ok": all(v > 0 for v in dataclasses.asdict(shape).values()),
        }
        print(json.dumps(report, indent=2, sort_keys=True))
        return 0 if report["ok"] else 1
    ids = torch.randint(0, SP_T, (args.tp, args.tokens))
    table = torch.randn(args.tp, SP_T, D, dtype=torch.bfloat16)
    out = torch.empty(args.tp, args.tokens, D, dtype=torch.bfloat16)
    l3_lookup_embedding_tp(ids, table, out)
    act = ACTIVATIONS[args.act]
    err = (act(out.float()) - act(golden(ids, table).float())).abs().max().item()
    print(f"max err {err:.3e} over {args.tp} ranks", file=sys.stderr if err else sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
