import pypto.language as pl
import pypto.language.distributed as pld
from pkg import chip
from kx import *
from star3 import *


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
    other(x, v, device=0)


# A star import binds what its module's __all__ lists, else its public names: pkg's
# `from .a import *` (a's __all__ leaves chip out) does not hide `from .b import *`,
# whose chip returns its view, so buf needs devices 0 and 1. A later star import whose
# module binds a name to something other than a DSL function (star3's `other = _o`)
# hides an earlier module's function of that name: the call is no DSL function's.
# RUN: rm -rf %t.d && mkdir -p %t.d/pkg && cp %s %t.d/host.py
# RUN: printf 'from .b import *\nfrom .a import *\n' > %t.d/pkg/__init__.py
# RUN: printf 'import pypto.language as pl\n__all__ = ["helper"]\n\n\n@pl.jit\ndef chip(x, v):\n    return x\n\n\n@pl.jit\ndef helper(x, v):\n    return x\n' > %t.d/pkg/a.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef chip(x, v):\n    return v\n' > %t.d/pkg/b.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef other(x, v):\n    return x\n' > %t.d/kx.py
# RUN: printf 'from kx import other as _o\nother = _o\n' > %t.d/star3.py
# RUN: %commscope-opt %t.d/host.py > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: host.py:20:5: error: call of unknown function 'other': 'other' is imported from module 'star3', but {{.*}}star3.py defines no DSL function 'other'
# CHECK: Found 1 error in 1 file (1 file checked).
# RUN: sed -i 's/^    other(x, v, device=0)$/    chip(x, v, device=0)/' %t.d/host.py
# RUN: %commscope-opt %t.d/host.py | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'host': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0, 1]  1 slot, 256 B
