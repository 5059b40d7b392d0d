import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


@pl.jit
def other(x, v):
    return x


from utils import *
from fast_kernels import *
from only_helpers import *


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    w = chip(x, v, device=0)
    other(x, w, device=1)


# A star import below a DSL function replaces it where its module binds the name (here
# fast_kernels' chip, which returns its view): a call of the name is no longer the DSL
# function's. utils binds no name of the file's functions, and only_helpers' __all__
# leaves its `other` out: `other` stands.
# RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/model.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef chip(x, v):\n    return v\n' > %t.d/fast_kernels.py
# RUN: printf 'LOG = 1\n\n\ndef helper():\n    return 2\n' > %t.d/utils.py
# RUN: printf '__all__ = ["helper"]\n\n\ndef helper():\n    return 2\n\n\ndef other(x, v):\n    return v\n' > %t.d/only_helpers.py
# RUN: %commscope-opt %t.d/model.py > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: model.py:24:9: error: call of unknown function 'chip': 'chip' may be bound again on line 16 by a star import, below the DSL function of line 6, which it no longer names [malformed-op]
# CHECK: Found 1 error in 1 file (1 file checked).
