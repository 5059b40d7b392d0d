# Corpus: names that do not resolve to integer constants (exit 1): ROOT is assigned
# twice in the module (once inside an `if`), RANKS is `len(...)` (not an integer
# constant expression), `leader` is bound nowhere; each `device=` that needs one of
# them is unsupported-device, reported at the call. The last program of the file uses a
# constant assigned exactly once (GOOD = 2) and is accepted.
"""Opaque names in device expressions."""

import os

import pypto.language as pl
import pypto.language.distributed as pld

DEVICES = [0, 1, 2, 3]
RANKS = len(DEVICES)
ROOT = 0
if os.environ.get("PYPTO_ROOT_LAST"):
    ROOT = 3  # a second assignment: ROOT is no longer a constant
GOOD = 2


@pl.program
class OpaqueNames:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a_buf = pld.alloc_window_buffer(16)
        b_buf = pld.alloc_window_buffer(16)
        c_buf = pld.alloc_window_buffer(16)
        a = pld.window(a_buf, [4], dtype=pl.FP32)
        b = pld.window(b_buf, [4], dtype=pl.FP32)
        c = pld.window(c_buf, [4], dtype=pl.FP32)
        self.per_rank(a, device=ROOT)
        for r in pl.range(RANKS):
            self.per_rank(b, device=r)
        self.per_rank(c, device=leader)


@pl.program
class ResolvedName:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(RANKS * 4)
        v = pld.window(buf, [4], dtype=pl.FP32)
        self.per_rank(v, device=GOOD)
