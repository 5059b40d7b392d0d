# Corpus: clustering order and several host orchestrators in one @pl.program: the
# allocations {0}, all, {0}, {1, 2}, all give comm_d0 = [0] (a, c), comm_d1 = all
# (b, e), comm_d2 = [1, 2] (d), outermost first by first appearance; a second host
# orchestrator without any allocation (empty scopes and views); a third host with
# constants computed from other constants (`HALF = STAGE_CHUNK // 2` prints 4096,
# loop bounds `range(FIRST_PEER, PEER_END)`, `range(LAST_STAGE, -1, -1)`);
# `host` decorated with type=Orchestration instead of role=Orchestrator.
"""A staged pipeline with per-stage windows."""

import logging
from typing import Final

import pypto.language as pl
import pypto.language.distributed as pld

log = logging.getLogger(__name__)

STAGE_CHUNK = 8192
HALF = STAGE_CHUNK // 2
N_STAGES = 3
FIRST_PEER = (N_STAGES + 1) % 3  # 1
PEER_END = FIRST_PEER + 2  # 3
LAST_STAGE = N_STAGES - 1  # 2
VERSION: Final = "1.2"


@pl.program
class StagedPipeline:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a, b):
        return a

    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def stage(self, a, b=None):
        return self.kernel(a, b)

    @pl.function(type=pl.FunctionType.Graph)
    def graph(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def prologue(self, x):
        a = pld.alloc_window_buffer(STAGE_CHUNK)
        b = pld.alloc_window_buffer(STAGE_CHUNK * 2)
        c = pld.alloc_window_buffer(HALF * 2)
        d = pld.alloc_window_buffer(64 * pl.UINT8.get_byte())
        e = pld.alloc_window_buffer(8 * pl.INT64.get_byte())
        av = pld.window(a, [STAGE_CHUNK // 4], dtype=pl.FP32)
        bv = pld.window(b, [STAGE_CHUNK // 2], dtype=pl.FP32)
        cv = pld.window(c, [HALF], dtype=pl.FP16)
        dv = pld.window(d, [64], dtype=pl.UINT8)
        ev = pld.window(e, [8], dtype=pl.INT64)
        self.stage(av, device=0)
        self.stage(cv, device=0)
        for r in pl.range(pld.world_size()):
            self.stage(bv, device=r)
            self.stage(ev, x, device=r)
        for p in pl.range(FIRST_PEER, PEER_END):
            self.stage(dv, device=p)
        self.graph(x)  # a graph is no dispatch target (a view passed to it would escape)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def middle(self, x):
        # no windows here: the function is listed with empty scopes and views
        for s in pl.range(N_STAGES):
            self.stage(x, device=s)
        return x

    @pl.function(level=pl.Level.HOST, type=pl.FunctionType.Orchestration)
    def epilogue(self, x):
        out_buf = pld.alloc_window_buffer(HALF * pl.FP64.get_byte())
        out = pld.window(out_buf, [HALF], dtype=pl.FP64)
        for s in pl.range(LAST_STAGE, -1, -1):
            self.stage(out, device=s)
        return x


def run(stages: int = N_STAGES) -> None:
    log.info("running %d stages of %d bytes (v%s)", stages, STAGE_CHUNK, VERSION)
