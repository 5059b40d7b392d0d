# Corpus: device errors in both program forms (exit 1). Module-level @pl.jit group:
# an integer literal far beyond the device limit (device-out-of-range, not
# unsupported-device: integers are unbounded), a negative constant, a descending loop over
# the world (partial-world-range). A @pl.program in a test function: a step-0 constant
# loop (unsupported-device) and a descending loop reaching below zero (negative-device).
"""Device ids the analysis must refuse."""

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 16


@pl.jit
def per_rank(a: pld.DistributedTensor[[SIZE], pl.FP32]):
    return a


@pl.jit.host
def bad_devices():
    buf = pld.alloc_window_buffer([SIZE], dtype=pl.FP32)
    v = pld.window(buf, [SIZE], dtype=pl.FP32)
    per_rank(v, device=123456789012345678901234567890)
    per_rank(v, device=-3)
    for r in pl.range(3, pld.world_size(), -1):
        per_rank(v, device=r)


def test_bad_loops():
    @pl.program
    class BadLoops:
        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(self, a):
            return a

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            buf = pld.alloc_window_buffer(SIZE * 4)
            v = pld.window(buf, [SIZE], dtype=pl.FP32)
            for r in pl.range(0, 4, 0):
                self.per_rank(v, device=r)
            for r in pl.range(2, -2, -1):
                self.per_rank(v, device=r)

    assert BadLoops
