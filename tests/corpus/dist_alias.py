# Corpus: module aliases taken from the imports: `from pypto import language as pl` and
# `import pypto.language.distributed as dist`, so every operation is spelled `dist.*`
# (short and long forms, dist.world_size() in a size, which prints as written);
# a signal whose coverage is inherited through an allreduce and then passed on again
# by a later broadcast whose data is that signal (inheritance to a fixed point).
"""Distributed helpers imported under a different alias."""

from pypto import language as pl
import pypto.language.distributed as dist

import numpy as np

BLOCK = 64


@pl.program
class AliasedDist:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, data: dist.DistributedTensor[[BLOCK], pl.FP32]):
        return data

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        data_buf = dist.alloc_window_buffer(BLOCK * pl.FP32.get_byte())
        sig_buf = dist.tensor.alloc_window_buffer(dist.world_size() * pl.INT32.get_byte())
        sig2_buf = dist.alloc_window_buffer([1, 1], dtype=pl.INT32)
        data = dist.window(data_buf, [BLOCK], dtype=pl.FP32)
        sig = dist.tensor.window(sig_buf, [dist.system.world_size()], dtype=pl.INT32)
        sig2 = dist.window(sig2_buf, [1, 1], dtype=pl.INT32)
        world = dist.system.world_size()
        for r in pl.range(world):
            self.per_rank(data, device=r)
        data = dist.tensor.allreduce(data, sig)
        # the signal of the allreduce is the data of this broadcast
        dist.tensor.broadcast(sig, sig2)
        return data


def reference(x: np.ndarray, ranks: int) -> np.ndarray:
    return np.stack([x.sum(axis=0)] * ranks)
