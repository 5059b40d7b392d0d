from pypto.language import *
from pypto.language.distributed import alloc_window_buffer as alloc, window
from pypto.language.distributed import *
import pypto.language as pl


@jit
def chip(x, w):
    return x


@jit.host
def host(x):
    buf = alloc([1, 4], dtype=pl.FP32)
    v = window(buf, [1, 4], dtype=pl.FP32)
    for r in range(world_size()):
        chip(x[r], v, device=r)
    sig = alloc_window_buffer(64)
    s = tensor.window(sig, [16], dtype=pl.INT32)
    chip(x[0], s, device=0)


# Names imported from the DSL's modules are the DSL's: by name, renamed, or all of them.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK:      host orchestrator 'host': 2 comm domains
# CHECK-NEXT:   comm_d0  devices all  1 slot, 16 B
# CHECK-NEXT:     buf  1 * 4 * 4 = 16 B
# CHECK-NEXT:   comm_d1  devices [0]  1 slot, 64 B
# CHECK-NEXT:     sig  64 B
# CHECK-NEXT: All checks passed: 1 file, 1 program, 1 host orchestrator.
#
# A misspelled decorator is suggested through the same names.
# RUN: sed 's/^@jit.host$/@jit.hots/' %s > %t.typo.py
# RUN: %commscope-opt %t.typo.py > %t.typo; test $? -eq 1
# RUN: %FileCheck --check-prefix=TYPO %s < %t.typo
# TYPO: error: unknown decorator 'jit.hots': the DSL has no such decorator [unknown-decorator]
# TYPO: help: did you mean 'jit.host'?
