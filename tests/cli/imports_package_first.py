import pypto.language as pl
import pypto.language.distributed as pld
from config import N_RANKS


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    for r in pl.range(N_RANKS):
        chip(x, v, device=r)


# Where a directory has both the package `config/` and a stale `config.py`, Python imports
# the package, and so does the front end: N_RANKS is 4, not 2.
# RUN: rm -rf %t.d && mkdir -p %t.d/config && cp %s %t.d/host.py
# RUN: printf 'N_RANKS = 2\n' > %t.d/config.py
# RUN: printf 'N_RANKS = 4\n' > %t.d/config/__init__.py
# RUN: %commscope-opt %t.d/host.py | %FileCheck %s
# CHECK: comm_d0  devices [0, 1, 2, 3]  1 slot, 256 B
