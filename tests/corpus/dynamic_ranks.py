# Corpus: names the file leaves open, bound on the command line: run with
# `-D nr=4 -DWORLD=2`. `nr` is a builder parameter used as a loop bound and in a shape
# (it prints as its value 4; `sz`, unbound, prints as a name); `WORLD = 8` is a module
# constant that the -D binding overrides (2, so devices 0 and 1).
"""Builders parameterised by the rank count, as the DSL's parser binds them."""

import argparse

import pypto.language as pl
import pypto.language.distributed as pld

WORLD = 8  # overridden by -DWORLD=2 in the corpus run
ALIGN = 32


def build(nr, sz):
    """Build a program for ``nr`` ranks and ``sz`` elements per rank."""

    @pl.program
    class DynamicRanks:
        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(
            self,
            x: pl.Tensor[[1, sz], pl.FP32],
            data: pld.DistributedTensor[[nr, sz], pl.FP32],
        ):
            return x

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[nr, 1, sz], pl.FP32]):
            data_buf = pld.alloc_window_buffer([nr, sz], dtype=pl.FP32)
            pad_buf = pld.alloc_window_buffer(ALIGN * nr)
            data = pld.window(data_buf, [nr, sz], dtype=pl.FP32)
            pad = pld.window(pad_buf, [nr, 8], dtype=pl.INT32)
            for r in pl.range(nr):
                self.per_rank(x[r], data, device=r)
            for w in pl.range(WORLD):
                self.per_rank(x[w], pad, device=w)
            return x

    return DynamicRanks


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nr", type=int, default=4)
    parser.add_argument("--sz", type=int, default=128)
    ns = parser.parse_args()
    prog = build(ns.nr, ns.sz)
    print(f"{prog.__name__}: {ns.nr=} {ns.sz=}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
