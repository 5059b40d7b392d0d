# Rebinding in loops (docs/semantics.md, "Rebinding and control flow"), in a @pl.program class:
# a loop body runs zero or more times, so a use at its top sees the binding of the
# previous iteration as well as the one from before the loop, and a use after it sees
# both; what is bound before a break reaches the loop's exit; a loop-carried value
# starts as its init_values and is rebound by the body's closing pl.yield_.
#   ping_pong: a view rebound in a loop, dispatched at the loop top: both {0..3}
#   drain:     work, spare and done {2}: done is bound just before the break
#   carried:   buf {0, 2} through the loop-carried acc
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %FileCheck %s < %t.plan1
# RUN: %commscope-opt --format=json --explain %s | %FileCheck --check-prefix=EXPLAIN %s
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff %t.plan1 %t.plan2
# RUN: %commscope-opt --format=json --emit=ir %t.ir.py | diff %t.ir.py -
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class RebindLoops:
    @pl.function(type=pl.FunctionType.Orchestration)
    def step(self, x: pld.DistributedTensor[[1, 64], pl.FP32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def ping_pong(self, x: pl.Tensor[[1, 64], pl.FP32]):
        ping_buf = pld.alloc_window_buffer(64 * pl.FP32.get_byte())
        pong_buf = pld.alloc_window_buffer(64 * pl.FP32.get_byte())
        current = pld.window(ping_buf, [1, 64], dtype=pl.FP32)
        for step_index in pl.range(4):
            self.step(current, device=step_index)
            current = pld.window(pong_buf, [1, 64], dtype=pl.FP32)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def drain(self, n: int):
        work_buf = pld.alloc_window_buffer(256)
        spare_buf = pld.alloc_window_buffer(256)
        done_buf = pld.alloc_window_buffer(256)
        work = pld.window(work_buf, [1, 64], dtype=pl.FP32)
        while n > 0:
            if n == 1:
                work = pld.window(done_buf, [1, 64], dtype=pl.FP32)
                break
            work = pld.window(spare_buf, [1, 64], dtype=pl.FP32)
            n = n - 1
        self.step(work, device=2)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def carried(self, seed: pl.Tensor[[1, 64], pl.FP32]):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [1, 64], dtype=pl.FP32)
        for i, (acc,) in pl.range(0, 4, 2, init_values=(v,)):
            self.step(acc, device=i)
            pl.yield_(acc)


# CHECK:      "name": "ping_pong",
# CHECK-NEXT: "scopes": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "comm_d0",
# CHECK-NEXT:     "devices": [
# CHECK-NEXT:       0,
# CHECK-NEXT:       1,
# CHECK-NEXT:       2,
# CHECK-NEXT:       3
# CHECK-NEXT:     ],
# CHECK-NEXT:     "slots": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "ping_buf",
# CHECK-NEXT:         "size": "64 * 4"
# CHECK-NEXT:       },
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "pong_buf",
# CHECK-NEXT:         "size": "64 * 4"
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
# CHECK-NEXT:   }
# CHECK-NEXT: ],
# CHECK:      "name": "drain",
# CHECK-NEXT: "scopes": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "comm_d0",
# CHECK-NEXT:     "devices": [
# CHECK-NEXT:       2
# CHECK-NEXT:     ],
# CHECK-NEXT:     "slots": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "work_buf",
# CHECK-NEXT:         "size": "256"
# CHECK-NEXT:       },
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "spare_buf",
# CHECK-NEXT:         "size": "256"
# CHECK-NEXT:       },
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "done_buf",
# CHECK-NEXT:         "size": "256"
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
# CHECK-NEXT:   }
# CHECK-NEXT: ],
# CHECK:      "name": "carried",
# CHECK-NEXT: "scopes": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "comm_d0",
# CHECK-NEXT:     "devices": [
# CHECK-NEXT:       0,
# CHECK-NEXT:       2
# CHECK-NEXT:     ],
# CHECK:      "diagnostics": []

# The dispatch at the loop top gives pong_buf its devices through the view bound at the
# end of the previous iteration.
# EXPLAIN:      "name": "pong_buf",
# EXPLAIN-NEXT: "size": "64 * 4",
# EXPLAIN-NEXT: "evidence": [
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "kind": "dispatch",
# EXPLAIN-NEXT:     "callee": "step",
# EXPLAIN-NEXT:     "line": 34,
# EXPLAIN-NEXT:     "column": 13,
# EXPLAIN-NEXT:     "devices": [
# EXPLAIN-NEXT:       0,
# EXPLAIN-NEXT:       1,
# EXPLAIN-NEXT:       2,
# EXPLAIN-NEXT:       3
# EXPLAIN-NEXT:     ],
# EXPLAIN-NEXT:     "view": "current",
# EXPLAIN-NEXT:     "loop": {
# EXPLAIN-NEXT:       "line": 33,
# EXPLAIN-NEXT:       "column": 9
# EXPLAIN-NEXT:     }
# EXPLAIN-NEXT:   }
# EXPLAIN-NEXT: ]
# EXPLAIN:      "name": "done_buf",
# EXPLAIN-NEXT: "size": "256",
# EXPLAIN-NEXT: "evidence": [
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "kind": "dispatch",
# EXPLAIN-NEXT:     "callee": "step",
# EXPLAIN-NEXT:     "line": 49,
# EXPLAIN-NEXT:     "column": 9,
# EXPLAIN-NEXT:     "devices": [
# EXPLAIN-NEXT:       2
# EXPLAIN-NEXT:     ],
# EXPLAIN-NEXT:     "view": "work"
# EXPLAIN-NEXT:   }
# EXPLAIN-NEXT: ]
# The loop-carried acc is a copy of v: the evidence names v.
# EXPLAIN:      "name": "buf",
# EXPLAIN-NEXT: "size": "256",
# EXPLAIN-NEXT: "evidence": [
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "kind": "dispatch",
# EXPLAIN-NEXT:     "callee": "step",
# EXPLAIN-NEXT:     "line": 56,
# EXPLAIN-NEXT:     "column": 13,
# EXPLAIN-NEXT:     "devices": [
# EXPLAIN-NEXT:       0,
# EXPLAIN-NEXT:       2
# EXPLAIN-NEXT:     ],
# EXPLAIN-NEXT:     "view": "v",

# Each binding of a rebound view retyped on its own; the closing yield as written.
# IR:      current = pld.window(ping_buf, [1, 64], dtype=pl.FP32) # window_buffer=ping_buf
# IR-NEXT: for step_index in pl.range(4):
# IR-NEXT:     self.step(current, device=step_index)
# IR-NEXT:     current = pld.window(pong_buf, [1, 64], dtype=pl.FP32) # window_buffer=pong_buf
# IR:      work = pld.window(done_buf, [1, 64], dtype=pl.FP32) # window_buffer=done_buf
# IR-NEXT: break
# IR-NEXT: work = pld.window(spare_buf, [1, 64], dtype=pl.FP32) # window_buffer=spare_buf
# IR:      for i, (acc,) in pl.range(0, 4, 2, init_values=(v,)):
# IR-NEXT:     self.step(acc, device=i)
# IR-NEXT:     pl.yield_(acc)
