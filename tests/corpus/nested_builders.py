# Corpus: a @pl.program two builder functions deep, resolving names outward through
# both enclosing functions then the module: `rows = 2` (inner builder), `chunk = 512`
# (outer builder), `LOCAL = 3` (module). The class body's own `LOCAL = 7` is not an
# enclosing scope (as in Python), so `device=LOCAL` means 3. `sz` is a parameter and
# prints as a name. A second program from the outer builder uses `world` only in types.
"""Suites of programs built by nested factories."""

from functools import lru_cache

import pypto.language as pl
import pypto.language.distributed as pld

LOCAL = 3


def make_suite(world: int):
    chunk = 512

    @lru_cache(maxsize=None)
    def build(sz: int):
        rows = 2

        @pl.program
        class Nested:
            LOCAL = 7  # class attribute: invisible to the method bodies

            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a, b=None):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self, x: pl.Tensor[[world, rows, chunk], pl.FP32]):
                tile_buf = pld.alloc_window_buffer([rows, chunk], dtype=pl.FP32)
                extra_buf = pld.alloc_window_buffer(sz * 4)
                tile = pld.window(tile_buf, [rows, chunk], dtype=pl.FP32)
                extra = pld.window(extra_buf, [sz], dtype=pl.FP32)
                for r in pl.range(rows):
                    self.per_rank(tile, device=r)
                self.per_rank(extra, device=LOCAL)
                return x

        return Nested

    @pl.program
    class Flat:
        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(self, a):
            return a

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[world, chunk], pl.FP32]):
            buf = pld.alloc_window_buffer(chunk * pl.FP32.get_byte())
            v = pld.window(buf, [chunk], dtype=pl.FP32)
            for r in pl.range(pld.world_size()):
                self.per_rank(v, device=r)
            return x

    return {"nested": build, "flat": Flat}


SUITES = {w: make_suite(w) for w in (2, 4, 8)}
