import pypto.language as pl
import pypto.language.distributed as pld
from pypto.language import *


@pl.jit
def stage(v):
    return None


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [8], dtype=pl.FP32)
    stage(va, device=0)
    print(va)
    for p, q in zip([va], [va]):
        stage(p, device=1)


# A star import of the DSL's own module binds none of Python's builtins: print only reads
# the view, and zip hands it back repacked.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [0, 1]  1 slot, 64 B
# CHECK: All checks passed: 1 file, 1 program, 1 host orchestrator.
