# Corpus: one test class holding twelve @pl.program classes (one per test method, the
# classes sit 8 columns deep), covering every host collective and how coverage flows
# through it (signal <- data, signal <- target, recv_counts <- target, a result that
# resolves through allgather), constant loops (ascending, stepped, descending),
# if/elif/else and while, copies of the base pointer and of the world size, name=
# keywords, annotated module constants (`N: int = 4`, `LAST = N - 1`), and
# `with pl.at(...)` plus an init_values loop with pl.yield_ inside a host body.
"""Host collectives: one small program per case, checked on the simulator."""

import functools

import pytest

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256
N: int = 4
LAST = N - 1  # an integer constant expression over another constant
ROOTS = {"allreduce": 0, "broadcast": 1}  # a dict literal: not a constant


def _sim_only(fn):
    """Decorator of ordinary Python: skipped by the analysis."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


class TestHostCollectives:
    """Each test builds one program; the analysis reads all twelve."""

    def test_allreduce_rebind(self):
        @pl.program
        class AllreduceRebind:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, data: pld.DistributedTensor[[SIZE], pl.FP32]):
                return data

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
                sig_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
                data = pld.window(data_buf, [SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [pld.world_size()], dtype=pl.INT32)
                for r in pl.range(pld.world_size()):
                    self.per_rank(data, device=r)
                data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)
                for r in pl.range(pld.world_size()):
                    self.per_rank(data, device=r)
                return data

        assert AllreduceRebind is not None

    def test_broadcast_from_root(self):
        @pl.program
        class BroadcastFromRoot:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, data):
                return data

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                data_buf = pld.alloc_window_buffer(SIZE * pl.BF16.get_byte())
                sig_buf = pld.alloc_window_buffer(2 * pl.INT32.get_byte())
                data = pld.window(data_buf, [SIZE], dtype=pl.BF16)
                sig = pld.window(sig_buf, [2], dtype=pl.INT32)
                for d in pl.range(2):
                    self.per_rank(data, device=d)
                pld.tensor.broadcast(data, sig, root=0)

        assert BroadcastFromRoot is not None

    def test_reduce_scatter_two_domains(self):
        @pl.program
        class ReduceScatterTwoDomains:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, data):
                return data

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                a_buf = pld.alloc_window_buffer([4, SIZE], dtype=pl.FP16)
                b_buf = pld.alloc_window_buffer(64)
                a_sig_buf = pld.alloc_window_buffer(pld.world_size() * 4)
                b_sig_buf = pld.tensor.alloc_window_buffer(16)
                a = pld.window(a_buf, [4, SIZE], dtype=pl.FP16)
                b = pld.window(b_buf, [16], dtype=pl.FP32)
                a_sig = pld.window(a_sig_buf, [pld.world_size()], dtype=pl.INT32)
                b_sig = pld.tensor.window(b_sig_buf, [4], dtype=pl.INT32)
                for r in pl.range(pld.world_size()):
                    self.per_rank(a, device=r)
                for d in pl.range(4):
                    self.per_rank(b, device=d)
                a = pld.tensor.allreduce(a, a_sig)
                pld.tensor.reduce_scatter(b, b_sig)

        assert ReduceScatterTwoDomains is not None

    def test_barrier_own_coverage(self):
        @pl.program
        class BarrierOwnCoverage:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, data, sig):
                return data

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                data_buf = pld.alloc_window_buffer(128)
                sig_buf = pld.alloc_window_buffer(8)
                data = pld.window(data_buf, [32], dtype=pl.FP32)
                sig = pld.window(sig_buf, [2], dtype=pl.INT32)
                self.per_rank(data, sig, device=0)
                self.per_rank(data, sig, device=2)
                pld.tensor.barrier(sig)

        assert BarrierOwnCoverage is not None

    def test_allgather_target(self):
        @pl.program
        class AllgatherTarget:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, t):
                return t

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                in_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
                tgt_buf = pld.alloc_window_buffer([N, SIZE], dtype=pl.FP32)
                sig_buf = pld.alloc_window_buffer([N], dtype=pl.INT32)
                inp = pld.window(in_buf, [1, SIZE], dtype=pl.FP32)
                tgt = pld.window(tgt_buf, [N, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [N], dtype=pl.INT32)
                for r in pl.range(pld.world_size()):
                    self.per_rank(inp, device=r)
                for r in pl.range(0, 8, 2):
                    self.per_rank(tgt, device=r)
                gathered = pld.tensor.allgather(inp, tgt, sig)
                # the result resolves to the target view: device 7 joins its set
                self.per_rank(gathered, device=7)

        assert AllgatherTarget is not None

    def test_all_to_all_descending(self):
        @pl.program
        class AllToAllDescending:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a, b):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                in_buf = pld.alloc_window_buffer(1024)
                out_buf = pld.alloc_window_buffer(1024)
                sig_buf = pld.alloc_window_buffer(16)
                inp = pld.window(in_buf, [256], dtype=pl.FP32)
                out = pld.window(out_buf, [256], dtype=pl.FP32)
                sig = pld.window(sig_buf, [4], dtype=pl.INT32)
                for r in pl.range(6, 0, -2):  # 6, 4, 2
                    self.per_rank(inp, out, device=r)
                pld.tensor.all_to_all(inp, out, sig)

        assert AllToAllDescending is not None

    def test_all_to_all_v(self):
        @pl.program
        class AllToAllV:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a, b):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self, counts: pl.Tensor[[N], pl.INT32]):
                in_buf = pld.alloc_window_buffer(SIZE * 4)
                tgt_buf = pld.alloc_window_buffer(SIZE * 4)
                sig_buf = pld.alloc_window_buffer(N * 4)
                recv_buf = pld.alloc_window_buffer(N * 4)
                inp = pld.window(in_buf, [SIZE], dtype=pl.FP32)
                tgt = pld.window(tgt_buf, [SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [N], dtype=pl.INT32)
                recv = pld.window(recv_buf, [N], dtype=pl.INT32)
                for r in pl.range(pld.world_size()):
                    self.per_rank(inp, tgt, device=r)
                pld.tensor.all_to_all_v(inp, tgt, sig, counts, recv)

        assert AllToAllV is not None

    @_sim_only
    def test_named_slots(self):
        @pl.program(name="named")
        class NamedSlots:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a, b):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                staging = pld.alloc_window_buffer(
                    64 * pl.FP16.get_byte(),
                    name="staging_area",
                )
                part = pld.window(staging, [64], dtype=pl.FP16)
                alias = staging
                part2 = pld.window(alias, [32], dtype=pl.FP16)
                self.per_rank(part, part2, device=3)

        assert NamedSlots is not None

    def test_branches_and_while(self):
        @pl.program
        class BranchesAndWhile:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self, flag: pl.Scalar[pl.BOOL]):
                a_buf = pld.alloc_window_buffer(32)
                b_buf = pld.alloc_window_buffer(32)
                a = pld.window(a_buf, [8], dtype=pl.FP32)
                b = pld.window(b_buf, [8], dtype=pl.FP32)
                for r in pl.range(4):
                    if r > 2:
                        self.per_rank(a, device=r)
                    elif r == 1:
                        self.per_rank(a, device=9)
                    elif flag:
                        continue
                    else:
                        pass
                k = 0
                while k < 3:
                    self.per_rank(b, device=5)
                    k += 1
                    if k == 2:
                        break

        assert BranchesAndWhile is not None

    def test_constants_from_module(self):
        @pl.program
        class ConstantsFromModule:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                v_buf = pld.alloc_window_buffer(N * 16)
                w_buf = pld.alloc_window_buffer([N, SIZE], dtype=pl.BF16)
                v = pld.window(v_buf, [N, 4], dtype=pl.FP32)
                w = pld.window(w_buf, [N, SIZE], dtype=pl.BF16)
                for r in pl.range(N):
                    self.per_rank(v, device=r)
                self.per_rank(w, device=LAST)

        assert ConstantsFromModule is not None

    @pytest.mark.parametrize("world", [2, 8])
    def test_copy_chains(self, world):
        @pl.program
        class CopyChains:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                buf = pld.alloc_window_buffer(512)
                base = buf
                base2 = base
                v = pld.window(base2, [128], dtype=pl.FP32)
                ws = pld.world_size()
                n = ws
                for r in pl.range(n):
                    d = r
                    self.per_rank(v, device=d)

        assert CopyChains is not None, f"world={world}"

    def test_host_at_block_and_carried_loop(self):
        @pl.program
        class HostAtBlock:
            @pl.function(type=pl.FunctionType.Orchestration)
            def per_rank(self, a, acc):
                return a

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self, seed: pl.Tensor[[1, SIZE], pl.FP32]):
                buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
                v = pld.window(buf, [1, SIZE], dtype=pl.FP32)
                with pl.at(level=pl.Level.HOST, name_hint="stage0"):
                    for i, (acc,) in pl.range(0, 8, 4, init_values=(seed,)):
                        self.per_rank(v, acc, device=i)
                        nxt = pl.add(acc, 1.0)
                        pl.yield_(nxt)
                return seed

        assert HostAtBlock is not None
