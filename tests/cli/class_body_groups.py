import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return v


class TestRing:
    @pl.jit
    def chip(x, v):
        return x

    @pl.jit
    def only_here(x, v):
        return x

    @pl.jit.host
    def host(x):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [64], dtype=pl.FP32)
        w = chip(x, v, device=0)
        chip(x, w, device=1)

    @pl.jit.host
    def other(x):
        buf2 = pld.alloc_window_buffer(256)
        v = pld.window(buf2, [64], dtype=pl.FP32)
        only_here(x, v, device=0)


# A class body does not enclose the functions defined in it: `chip` in host is the
# module's, which returns its view, so buf needs devices 0 and 1; `only_here` names no
# function host can reach.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: class_body_groups.py:30:9: error: call of unknown function 'only_here'
# CHECK: Found 1 error in 1 file (1 file checked).
# RUN: cp %s %t.py && sed -i 's/^        only_here(x, v, device=0)$/        chip(x, v, device=2)/' %t.py && %commscope-opt %t.py | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'host': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0, 1]  1 slot, 256 B
