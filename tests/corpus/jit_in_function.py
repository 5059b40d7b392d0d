# Corpus: @pl.jit groups at three places: the module level (program named after the
# file stem), inside `make_pipeline` and inside `make_pair` (programs named after the
# enclosing function); constants of the enclosing function (`CHUNK = 128`,
# `stages_max = 2 * 2`) resolve for the host orchestrator defined in it; decorators
# with arguments (`@pl.jit.incore(...)`); nested helpers that are not DSL.
"""Pipelines built at run time from @pl.jit groups."""

from dataclasses import dataclass, field

import pypto.language as pl
import pypto.language.distributed as pld

TILE = 32


@dataclass
class PipelineConfig:
    stages: int = 2
    names: list[str] = field(default_factory=lambda: ["load", "compute", "store"])

    def describe(self) -> str:
        return ", ".join(f"{i}:{n}" for i, n in enumerate(self.names))


@pl.jit
def module_per_rank(t: pld.DistributedTensor[[TILE], pl.FP32]):
    return t


@pl.jit.host
def module_host(x: pl.Tensor[[TILE], pl.FP32]):
    # a module-level host: its own program, named after the file
    tile_buf = pld.alloc_window_buffer(TILE * pl.FP32.get_byte())
    tile = pld.window(tile_buf, [TILE], dtype=pl.FP32)
    module_per_rank(tile, device=0)


def make_pipeline(cfg: PipelineConfig):
    """Return the host entry point of a pipeline with ``cfg.stages`` stages."""
    CHUNK = 128
    stages_max = 2 * 2

    def _log(msg: str) -> None:  # an ordinary nested helper
        print(f"[pipeline] {msg}")

    @pl.jit.incore(name_hint="stage_kernel")
    def stage_kernel(
        x: pl.Tensor[[2, CHUNK], pl.FP16],
        buf: pld.DistributedTensor[[2, CHUNK], pl.FP16],
    ):
        for s in pl.range(stages_max):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage"):
                buf = pl.store(pl.load(x, [0, 0], [2, CHUNK]), [0, 0], buf)
        return buf

    @pl.jit
    def stage_rank(
        x: pl.Tensor[[2, CHUNK], pl.FP16],
        buf: pld.DistributedTensor[[2, CHUNK], pl.FP16],
    ):
        return stage_kernel(x, buf)

    @pl.jit.host()
    def pipeline_host(
        x: pl.Tensor[[stages_max, 2, CHUNK], pl.FP16],
    ) -> pl.Tensor[[stages_max, 2, CHUNK], pl.FP16]:
        ring_buf = pld.alloc_window_buffer([2, CHUNK], dtype=pl.FP16)
        ring = pld.window(ring_buf, [2, CHUNK], dtype=pl.FP16)
        for s in pl.range(stages_max):
            stage_rank(x[s], ring, device=s)
        return x

    _log(cfg.describe())
    return pipeline_host


def make_pair():
    @pl.jit
    def left(a: pld.DistributedTensor[[TILE], pl.INT32]):
        return a

    @pl.jit
    def right(a: pld.DistributedTensor[[TILE], pl.INT32]):
        return a

    @pl.jit.host
    def pair_host():
        l_buf = pld.alloc_window_buffer([TILE], dtype=pl.INT32)
        r_buf = pld.alloc_window_buffer([TILE], dtype=pl.INT32)
        lv = pld.window(l_buf, [TILE], dtype=pl.INT32)
        rv = pld.window(r_buf, [TILE], dtype=pl.INT32)
        left(lv, device=0)
        right(rv, device=1)
        left(rv, device=1)

    @pl.jit.host
    def idle_host():
        # no allocation: listed with empty scopes and views
        left(None, device=0)

    return pair_host, idle_host


if __name__ == "__main__":
    host = make_pipeline(PipelineConfig())
    print(host, make_pair())
