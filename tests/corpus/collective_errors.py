# Corpus: collective errors, one per program (exit 1): two windows of one allocation
# in one allreduce (collective-aliased-windows), an allreduce whose data buffer has no
# devices (uncovered-collective; its signal is not also reported as unconsumed), a
# signal-less allreduce inside a loop (collective-in-loop from signal synthesis: the
# main pass does not run on that program), a barrier whose signal has no devices of
# its own (barrier-no-coverage). A final program in the newer form is accepted.
"""Collectives the compiler must refuse."""

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 128


@pl.program
class AliasedWindows:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(SIZE * 4)
        v = pld.window(buf, [SIZE], dtype=pl.FP32)
        v2 = pld.window(buf, [SIZE], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.per_rank(v, device=r)
        pld.tensor.allreduce(v, v2)


@pl.program
class Uncovered:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        d_buf = pld.alloc_window_buffer(SIZE * 4)
        s_buf = pld.alloc_window_buffer(4)
        d = pld.window(d_buf, [SIZE], dtype=pl.FP32)
        s = pld.window(s_buf, [1], dtype=pl.INT32)
        d = pld.tensor.allreduce(d, s)
        return d


@pl.program
class SynthInLoop:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        d_buf = pld.alloc_window_buffer(SIZE * 4)
        d = pld.window(d_buf, [SIZE], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.per_rank(d, device=r)
            d = pld.tensor.allreduce(d)


@pl.program
class BarrierNoCoverage:
    @pl.function(type=pl.FunctionType.Orchestration)
    def per_rank(self, a):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        d_buf = pld.alloc_window_buffer(SIZE * 4)
        s_buf = pld.alloc_window_buffer(4)
        d = pld.window(d_buf, [SIZE], dtype=pl.FP32)
        s = pld.window(s_buf, [1], dtype=pl.INT32)
        self.per_rank(d, device=1)
        pld.tensor.barrier(s)


@pl.jit
def chip(a: pld.DistributedTensor[[SIZE], pl.FP32]):
    return a


@pl.jit.host
def fine(x):
    d_buf = pld.alloc_window_buffer(SIZE * 4)
    s_buf = pld.alloc_window_buffer(4)
    d = pld.window(d_buf, [SIZE], dtype=pl.FP32)
    s = pld.window(s_buf, [1], dtype=pl.INT32)
    chip(d, device=1)
    chip(s, device=1)
    pld.tensor.barrier(s)
