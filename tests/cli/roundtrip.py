# Print -> parse -> same plan: a program with three domains, collectives, all loop
# forms, branches, copies, keyword names and a size that needs parentheses.
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff %t.plan1 %t.plan2
# The printed IR is a fixed point of print . parse . pass, and it verifies.
# RUN: %commscope-opt --format=json --emit=ir %t.ir.py > %t.ir2.py
# RUN: diff %t.ir.py %t.ir2.py
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %FileCheck --check-prefix=PLAN %s < %t.plan2
# The text plan of the printed IR, read back from its scopes, is the input's, bytes too.
# RUN: %commscope-opt %s | sed 1d > %t.table1
# RUN: %commscope-opt %t.ir.py | sed 1d > %t.table2
# RUN: diff %t.table1 %t.table2
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class RoundTrip:
    """Docstrings and comments are dropped by the parser."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pld.DistributedTensor[[8, 64], pl.BF16], y) -> pld.DistributedTensor[[8, 64], pl.BF16]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(self, x, y):
        z = self.kernel(x, y)
        return z

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, n: int):
        data = pld.alloc_window_buffer((n + 1) * 64 * pl.BF16.get_byte())
        sig = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte(), name="signal")
        tgt = pld.tensor.alloc_window_buffer(n // 2 - (n - 1) % 3)
        tsig = pld.alloc_window_buffer(16)
        local = pld.alloc_window_buffer(8)
        d = pld.window(data, [8, 64], dtype=pl.BF16)
        alias = data
        d2 = pld.window(alias, [8, 64], pl.BF16)
        s = pld.window(sig, [pld.world_size()], dtype=pl.INT32)
        t = pld.tensor.window(tgt, [4], dtype=pl.FP32)
        ts = pld.window(tsig, [4], dtype=pl.INT32)
        lv = pld.window(local, [2], dtype=pl.FP32)
        w = pld.world_size()
        for r in range(w):
            self.chip_orch(d, d2, device=r)
        d = pld.tensor.allreduce(d, s, op=pl.ReduceOp.SUM)
        for r in pl.range(6, 0, -2):
            if r > 2 and not False:
                self.chip_orch(t, 1, device=r)
            elif r == 2:
                self.chip_orch(t, 2, device=1)
            else:
                pass
        pld.tensor.allgather(d, t, ts)
        k = 0
        while k < 3:
            k = k + 1
        self.chip_orch(lv, None, device=7)
        return d, (t,)

# IR:      def host_orch(self, n: int):
# IR-NEXT:     with pld.comm_domain("comm_d0", devices="all", slots=[data, signal]):
# IR-NEXT:         with pld.comm_domain("comm_d1", devices=[1, 2, 4, 6], slots=[tgt, tsig]):
# IR-NEXT:             with pld.comm_domain("comm_d2", devices=[7], slots=[local]):
# IR-NEXT:                 data = pld.alloc_window_buffer((n + 1) * 64 * pl.BF16.get_byte())
# IR-NEXT:                 sig = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte(), name="signal")
# IR-NEXT:                 tgt = pld.tensor.alloc_window_buffer(n // 2 - (n - 1) % 3)
# IR:                      d = pld.window(data, [8, 64], dtype=pl.BF16) # window_buffer=data
# IR-NEXT:                 alias = data
# IR-NEXT:                 d2 = pld.window(alias, [8, 64], pl.BF16) # window_buffer=data
# IR-NEXT:                 s = pld.window(sig, [pld.world_size()], dtype=pl.INT32) # window_buffer=signal
# IR:                      for r in range(w):
# IR:                      for r in pl.range(6, 0, -2):
# IR-NEXT:                     if r > 2 and not False:
# IR:                          elif r == 2:
# IR:                          else:
# IR-NEXT:                         pass
# IR:                      return d, (t,)

# PLAN:      "name": "comm_d1",
# PLAN-NEXT: "devices": [
# PLAN-NEXT:   1,
# PLAN-NEXT:   2,
# PLAN-NEXT:   4,
# PLAN-NEXT:   6
# PLAN-NEXT: ],
# PLAN:      "name": "tgt",
# PLAN-NEXT: "size": "n // 2 - (n - 1) % 3"
