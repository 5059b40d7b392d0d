import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


def fanout(x, v, device):
    for r in range(4):
        chip(x, v, device=r)


def test_parameter(chip=fanout):
    @pl.jit.host
    def host(x):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [64], dtype=pl.FP32)
        chip(x, v, device=0)


def test_assigned():
    chip = fanout

    @pl.jit.host
    def host2(x):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [64], dtype=pl.FP32)
        chip(x, v, device=0)


def test_module_chip():
    @pl.jit.host
    def host3(x):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [64], dtype=pl.FP32)
        chip(x, v, device=2)


# A name that the function around a group binds (a parameter, an assignment) is that
# binding where the group calls it, as Python finds it, not the module's DSL function of
# that name: fanout dispatches on four devices the plan would not know. Without such a
# binding the module's chip is the callee.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: enclosing_callee_bindings.py:20:9: error: call of unknown function 'chip': 'chip' is bound on line 15 in a function around this one, to something other than a DSL function: a call of it here is that, not the DSL function [malformed-op]
# CHECK: enclosing_callee_bindings.py:30:9: error: call of unknown function 'chip': 'chip' is bound on line 24
# CHECK: host orchestrator 'host3': 1 comm domain
# CHECK-NEXT: comm_d0  devices [2]  1 slot, 256 B
# CHECK: Found 2 errors in 1 file (1 file checked).
