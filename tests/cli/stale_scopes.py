import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def host(x):
    with pld.comm_domain("comm_d0", devices=[0], slots=[buf]):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [64], dtype=pl.FP32)  # window_buffer=buf
        chip(x, v, device=0)
        chip(x, v, device=3)  # added after the pass wrote the scope


# The rewritten file, committed, and a dispatch added since: the scope lacks device 3.
# A file with scopes is verified in every run, so the default run reports it (its plan
# alone, read back from the scope, said [0]).
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: stale_scopes.py:13:9: error: scope 'comm_d0' lacks devices the program uses for allocation 'buf': 3 [verify]
# CHECK: help: the file's scopes were written before this run, by hand or by an earlier one: correct them, or remove them and let the pass write them again
