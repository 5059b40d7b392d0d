import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Base:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x, v):
        return v


@pl.program
class Middle(Base):
    @pl.function(type=pl.FunctionType.Orchestration)
    def other(self, x, v):
        return x


@pl.program
class Derived(Middle):
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [64], dtype=pl.FP32)
        w = self.chip(x, v, device=0)
        self.other(x, w, device=1)


@pl.program
class Override(Base):
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x, v):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x):
        buf2 = pld.alloc_window_buffer(256)
        v = pld.window(buf2, [64], dtype=pl.FP32)
        w = self.chip(x, v, device=0)
        self.chip(x, w, device=1)


# A program class has the functions of the program classes it derives from (of the same
# scope, and theirs in turn), its own first: Derived's self.chip is Base's, which returns
# its view (devices 0 and 1); Override's is its own, which does not (device 0).
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: program 'Derived'
# CHECK: comm_d0  devices [0, 1]  1 slot, 256 B
# CHECK: program 'Override'
# CHECK: comm_d0  devices [0]  1 slot, 256 B
