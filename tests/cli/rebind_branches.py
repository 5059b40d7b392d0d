# Rebinding in branches (docs/semantics.md, "Rebinding and control flow"), in host programs as
# pytest modules write them: @pl.jit groups inside test functions, formatted by a code
# formatter. A name bound again is one variable: the branches of an if are
# alternatives, and after it a use may see the view of every branch (and the one from
# before, when a branch leaves it). Each allocation gets the devices of every dispatch
# that may use it; --explain names the view each contribution came through; the
# printed program parses back to the same plan.
#   test_if_elif_else: first {0, 2}, second {0, 1}, third {0}
#   test_copies:       left and right {3}, through the copy `chosen` of either
#   test_allreduce:    data = allreduce(data) in a branch: its signal joins the data
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %FileCheck %s < %t.plan1
# RUN: %commscope-opt --format=json --explain %s | %FileCheck --check-prefix=EXPLAIN %s
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff <(grep -v '"line":' %t.plan1) <(grep -v '"line":' %t.plan2)
# RUN: %commscope-opt --format=json --emit=ir %t.ir.py | diff %t.ir.py -
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


def test_if_elif_else():
    @pl.jit
    def stage(
        x: pld.DistributedTensor[[1, SIZE], pl.FP32],
    ):
        return x

    @pl.jit.host
    def host(mode: int):
        first_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        second_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        third_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        view = pld.window(first_buf, [1, SIZE], dtype=pl.FP32)
        if mode == 0:
            view = pld.window(second_buf, [1, SIZE], dtype=pl.FP32)
            stage(view, device=1)
        elif mode == 1:
            view = pld.window(
                third_buf,
                [1, SIZE],
                dtype=pl.FP32,
            )
        else:
            stage(view, device=2)
        stage(view, device=0)

    assert host is not None


def test_copies():
    @pl.jit
    def consume(x):
        return x

    @pl.jit.host
    def host(flag: bool):
        left_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        right_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        left = pld.window(left_buf, [1, SIZE], dtype=pl.FP32)
        right = pld.window(right_buf, [1, SIZE], dtype=pl.FP32)
        if flag:
            chosen = left
        else:
            chosen = right
        consume(chosen, device=3)


def test_allreduce():
    @pl.jit
    def compute(x):
        return x

    @pl.jit.host
    def host(reduce: bool):
        data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
        for rank in pl.range(pld.world_size()):
            compute(data, device=rank)
        if reduce:
            data = pld.tensor.allreduce(data, op=pl.ReduceOp.SUM)
        compute(data, device=0)


# CHECK:      "name": "test_if_elif_else",
# CHECK:      "scopes": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "comm_d0",
# CHECK-NEXT:     "devices": [
# CHECK-NEXT:       0,
# CHECK-NEXT:       2
# CHECK-NEXT:     ],
# CHECK-NEXT:     "slots": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "first_buf",
# CHECK-NEXT:         "size": "1 * 64 * 4"
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "comm_d1",
# CHECK-NEXT:     "devices": [
# CHECK-NEXT:       0,
# CHECK-NEXT:       1
# CHECK-NEXT:     ],
# CHECK-NEXT:     "slots": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "second_buf",
# CHECK-NEXT:         "size": "1 * 64 * 4"
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "comm_d2",
# CHECK-NEXT:     "devices": [
# CHECK-NEXT:       0
# CHECK-NEXT:     ],
# CHECK-NEXT:     "slots": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "name": "third_buf",
# CHECK-NEXT:         "size": "1 * 64 * 4"
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
# CHECK-NEXT:   }
# CHECK-NEXT: ],
# CHECK-NEXT: "views": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "view",
# CHECK-NEXT:     "window_buffer": "first_buf"
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "view",
# CHECK-NEXT:     "window_buffer": "second_buf"
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "view",
# CHECK-NEXT:     "window_buffer": "third_buf"
# CHECK-NEXT:   }
# CHECK-NEXT: ]
# CHECK:      "name": "test_copies",
# CHECK:      "name": "comm_d0",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   3
# CHECK-NEXT: ],
# CHECK-NEXT: "slots": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "left_buf",
# CHECK-NEXT:     "size": "1 * 64 * 4"
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "right_buf",
# CHECK-NEXT:     "size": "1 * 64 * 4"
# CHECK-NEXT:   }
# CHECK-NEXT: ]
# CHECK:      "name": "test_allreduce",
# CHECK:      "name": "comm_d0",
# CHECK-NEXT: "devices": "all",
# CHECK-NEXT: "slots": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "data_buf",
# CHECK-NEXT:     "size": "1 * 64 * 4"
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "__allreduce_signal_buf_0",
# CHECK-NEXT:     "size": "__allreduce_signal_world_size_0 * 1 * 4"
# CHECK-NEXT:   }
# CHECK-NEXT: ]
# CHECK:      "diagnostics": []

# The evidence of second_buf: the dispatch in its branch, then the one after the if,
# both through the view that second_buf's window binds.
# EXPLAIN:      "name": "second_buf",
# EXPLAIN-NEXT: "size": "1 * 64 * 4",
# EXPLAIN-NEXT: "evidence": [
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "kind": "dispatch",
# EXPLAIN-NEXT:     "callee": "stage",
# EXPLAIN-NEXT:     "line": 41,
# EXPLAIN-NEXT:     "column": 13,
# EXPLAIN-NEXT:     "devices": [
# EXPLAIN-NEXT:       1
# EXPLAIN-NEXT:     ],
# EXPLAIN-NEXT:     "view": "view"
# EXPLAIN-NEXT:   },
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "kind": "dispatch",
# EXPLAIN-NEXT:     "callee": "stage",
# EXPLAIN-NEXT:     "line": 50,
# EXPLAIN-NEXT:     "column": 9,
# EXPLAIN-NEXT:     "devices": [
# EXPLAIN-NEXT:       0
# EXPLAIN-NEXT:     ],
# EXPLAIN-NEXT:     "view": "view"
# EXPLAIN-NEXT:   }
# EXPLAIN-NEXT: ]
# One dispatch of a copy that may be either view: each allocation's evidence names the
# view it came through.
# EXPLAIN:      "name": "left_buf",
# EXPLAIN-NEXT: "size": "1 * 64 * 4",
# EXPLAIN-NEXT: "evidence": [
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "kind": "dispatch",
# EXPLAIN-NEXT:     "callee": "consume",
# EXPLAIN-NEXT:     "line": 70,
# EXPLAIN-NEXT:     "column": 9,
# EXPLAIN-NEXT:     "devices": [
# EXPLAIN-NEXT:       3
# EXPLAIN-NEXT:     ],
# EXPLAIN-NEXT:     "view": "left"
# EXPLAIN-NEXT:   }
# EXPLAIN-NEXT: ]
# EXPLAIN:      "name": "right_buf",
# EXPLAIN-NEXT: "size": "1 * 64 * 4",
# EXPLAIN-NEXT: "evidence": [
# EXPLAIN-NEXT:   {
# EXPLAIN-NEXT:     "kind": "dispatch",
# EXPLAIN-NEXT:     "callee": "consume",
# EXPLAIN-NEXT:     "line": 70,
# EXPLAIN-NEXT:     "column": 9,
# EXPLAIN-NEXT:     "devices": [
# EXPLAIN-NEXT:       3
# EXPLAIN-NEXT:     ],
# EXPLAIN-NEXT:     "view": "right"
# EXPLAIN-NEXT:   }
# EXPLAIN-NEXT: ]

# Each binding of `view` retyped on its own; the signal synthesized inside the branch.
# IR:      view = pld.window(first_buf, [1, SIZE], dtype=pl.FP32) # window_buffer=first_buf
# IR-NEXT: if mode == 0:
# IR-NEXT:     view = pld.window(second_buf, [1, SIZE], dtype=pl.FP32) # window_buffer=second_buf
# IR-NEXT:     stage(view, device=1)
# IR-NEXT: elif mode == 1:
# IR-NEXT:     view = pld.window(
# IR-NEXT:         third_buf,
# IR-NEXT:         [1, SIZE],
# IR-NEXT:         dtype=pl.FP32,
# IR-NEXT:     ) # window_buffer=third_buf
# IR-NEXT: else:
# IR-NEXT:     stage(view, device=2)
# IR-NEXT: stage(view, device=0)
# IR:      if reduce:
# IR-NEXT:     __allreduce_signal_world_size_0 = pld.system.world_size()
# IR-NEXT:     __allreduce_signal_buf_0 = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * 1 * 4)
# IR-NEXT:     __allreduce_signal_0 = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32) # window_buffer=__allreduce_signal_buf_0
# IR-NEXT:     data = pld.tensor.allreduce(data, __allreduce_signal_0, op=pl.ReduceOp.SUM)
# IR-NEXT: compute(data, device=0)
