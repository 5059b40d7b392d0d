import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Pipeline:
    @pl.function(type=pl.FunctionType.Orchestration)
    def step(self, x: pld.DistributedTensor[[1, 64], pl.FP32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def pipeline(self):
        a_buf = pld.alloc_window_buffer(256)
        b_buf = pld.alloc_window_buffer(256)
        first = pld.window(a_buf, [1, 64], dtype=pl.FP32)
        second = pld.window(b_buf, [1, 64], dtype=pl.FP32)
        for stage in pl.range(4):
            if stage > 0:
                self.step(previous, device=stage)
            self.step(first, device=0)
            previous = first if stage % 2 == 0 else second


# A name read in a loop before the loop binds it reads the previous iteration's value:
# `previous` is bound only below its dispatch, yet that dispatch passes a view of either
# allocation on devices 1 to 3 (run on 4 devices: a_buf on {0, 1, 3}, b_buf on {2}; the
# analysis cannot tell the iterations apart: both on 1 to 3, in one domain).
# RUN: %commscope-opt --show-plan %s | %FileCheck %s
# RUN: %commscope-opt --emit=ir %s > %t.ir.py
# RUN: %commscope-opt --verify %t.ir.py | %FileCheck --check-prefix=CLEAN %s
# CHECK:      host orchestrator 'pipeline': 1 comm domain
# CHECK-NEXT:   comm_d0  devices [0, 1, 2, 3]  2 slots, 512 B
# CHECK-NEXT:     a_buf  256 B
# CHECK-NEXT:     b_buf  256 B
# CLEAN: All checks passed
