import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Extremes:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        with pld.comm_domain("comm_d0", devices=[9223372036854775807, range(1, pld.world_size())], slots=[a]):
            a = pld.alloc_window_buffer(64)
            v = pld.window(a, [8], dtype=pl.FP32)
            for r in pl.range(1, pld.world_size()):
                self.chip(v, device=r)

# A hand-written scope whose id is the largest int64: --verify judges its canonical form
# without overflowing (the world that could hold that id is beyond any bound the
# canonical form is built for, so only its merging applies and the set is taken as
# written).
# RUN: %commscope-opt --format=json --verify %s > /dev/null
