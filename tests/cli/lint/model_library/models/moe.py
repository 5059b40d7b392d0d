"""Experts on two devices, with a debugging hook the pass cannot follow."""
import pypto.language as pl
import pypto.language.distributed as pld


def trace(tensor):
    print(tensor)


@pl.program
class MoE:
    @pl.function(type=pl.FunctionType.Orchestration)
    def expert(self, x: pld.DistributedTensor[[128], pl.FP16]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        tokens = pld.alloc_window_buffer(128 * pl.FP16.get_byte())
        t = pld.window(tokens, [128], dtype=pl.FP16)
        for e in pl.range(0, 2):
            self.expert(t, device=e)
        trace(t)  # commscope: ignore[view-escapes]  (debug builds only)
        return 0
