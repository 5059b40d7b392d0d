import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32], big: pl.Scalar[pl.BOOL]):
    if big:
        buf = pld.alloc_window_buffer(128)
        v = pld.window(buf, [32], dtype=pl.FP32)
        chip(x, v, device=0)
    else:
        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(2):
            chip(x, v, device=r)


# Two allocations named 'buf' in different domains: the plan is right, but a rewritten
# file lists each scope's slots by name (slots=[buf] twice), which reading it back could
# not tell apart, so printing it is refused.
# RUN: %commscope-opt %s | %FileCheck --check-prefix=PLAN %s
# PLAN:      comm_d0  devices [0]  1 slot, 128 B
# PLAN:      comm_d1  devices [0, 1]  1 slot, 64 B
# PLAN:      All checks passed: 1 file, 1 program, 1 host orchestrator.
# RUN: %commscope-opt --emit=ir %s > %t.ir 2> %t.err; test $? -eq 1
# RUN: %FileCheck %s < %t.err
# CHECK:      {{.*}}error_duplicate_name_domains.py:17:9: error: allocation name 'buf' is used in two comm domains, comm_d0 and comm_d1: the rewritten file names a scope's slots by it, so they could not be told apart [duplicate-name]
# CHECK:      {{.*}}error_duplicate_name_domains.py:13:9: note: the first allocation named 'buf' is here
# CHECK:      help: give one of the two allocations another name=
# CHECK-NEXT: Found 1 error in 1 file (1 file checked).
