import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x, table):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        chip(x[r], va, device=r)
    shards = list(range(8))
    del shards[pld.world_size():], table[r]
    return shards


# `del y[i]` unbinds nothing: the names in its subscripts (pld, r) are read, as Python
# reads them, and stay what they were (pld the DSL's module, r the loop's variable).
# RUN: %commscope-opt --format=json %s | %FileCheck %s
# CHECK: "devices": "all",
