# Corpus: CRLF line endings throughout (as saved by a Windows editor), a module-level
# @pl.program with a multi-line decorator, two domains (the world and devices 0-1),
# a host docstring, comments inside the host body and a trailing `main()`.
"""Two comm domains, written on Windows."""

import sys

import pypto.language as pl
import pypto.language.distributed as pld

HIDDEN = 1024
LOCAL_ROWS = 16


@pl.program
class CrlfTwoDomains:
    """A world-wide buffer and a buffer shared by devices 0 and 1."""

    @pl.function(
        type=pl.FunctionType.Orchestration,
    )
    def per_rank(
        self,
        x: pl.Tensor[[LOCAL_ROWS, HIDDEN], pl.BF16],
        win: pld.DistributedTensor[[LOCAL_ROWS, HIDDEN], pl.BF16],
    ) -> pl.Tensor[[LOCAL_ROWS, HIDDEN], pl.BF16]:
        return x

    @pl.function(
        level=pl.Level.HOST,
        role=pl.Role.Orchestrator,
    )
    def host(
        self,
        x: pl.Tensor[[LOCAL_ROWS, HIDDEN], pl.BF16],
    ):
        """Host orchestrator."""
        # world-wide hidden-state window
        hidden_buf = pld.alloc_window_buffer([LOCAL_ROWS, HIDDEN], dtype=pl.BF16)
        # pairwise exchange between the first two devices
        pair_buf = pld.alloc_window_buffer(LOCAL_ROWS * HIDDEN * pl.BF16.get_byte())
        hidden = pld.window(hidden_buf, [LOCAL_ROWS, HIDDEN], dtype=pl.BF16)
        pair = pld.window(pair_buf, [LOCAL_ROWS, HIDDEN], dtype=pl.BF16)
        for r in pl.range(pld.world_size()):
            self.per_rank(x, hidden, device=r)
        self.per_rank(x, pair, device=0)
        self.per_rank(x, pair, device=1)  # both ends of the pair
        return x


def main() -> int:
    print(f"{CrlfTwoDomains.__name__}: {HIDDEN * LOCAL_ROWS} elements", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
