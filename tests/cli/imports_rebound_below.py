import pypto.language as pl
import pypto.language.distributed as pld
from k_star import chip
from k_globals import chip as chip2


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    w = chip(x, v, device=0)
    chip(x, w, device=1)


@pl.jit.host
def host2(x):
    buf2 = pld.alloc_window_buffer(256)
    v = pld.window(buf2, [64], dtype=pl.FP32)
    w = chip2(x, v, device=0)
    chip2(x, w, device=1)


# A kernels module may bind its chip orchestrator's name again below the def: by a star
# import whose module binds it (fastk's chip returns its view), or through globals().
# Which one runs is not read, so the chip may return any argument: both windows need
# devices 0 and 1.
# RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/host.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef chip(x, v):\n    return v\n' > %t.d/fastk.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef chip(x, v):\n    return x\n\n\nfrom fastk import *\n' > %t.d/k_star.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef chip(x, v):\n    return x\n\n\nglobals()["chip"] = __import__("fastk").chip\n' > %t.d/k_globals.py
# RUN: %commscope-opt %t.d/host.py | %FileCheck %s
# CHECK: host orchestrator 'host': 1 comm domain
# CHECK-NEXT: comm_d0  devices [0, 1]  1 slot, 256 B
# CHECK: host orchestrator 'host2': 1 comm domain
# CHECK-NEXT: comm_d0  devices [0, 1]  1 slot, 256 B
