import pypto.language as pl
import pypto.language.distributed as pld
from helpers import *
from pkg import *
from printing import *


@pl.jit
def stage(v):
    return None


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [8], dtype=pl.FP32)
    stage(va, device=0)
    n = len(va)
    print(va)


# A star import binds what its module exports: helpers, and pkg through its own star
# import, bind no builtin's name, so len(va) only reads the view; printing exports its
# own print, which may keep it.
# RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/model.py
# RUN: printf 'def util():\n    return 1\n' > %t.d/helpers.py
# RUN: mkdir -p %t.d/pkg && printf 'from .tools import *\n' > %t.d/pkg/__init__.py
# RUN: printf 'def tool():\n    return 1\n' > %t.d/pkg/tools.py
# RUN: printf 'KEPT = []\n\n\ndef print(*values):\n    KEPT.extend(values)\n' > %t.d/printing.py
# RUN: %commscope-opt %t.d/model.py > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK-NOT: 'len'
# CHECK: model.py:19:5: error: a view of allocation 'a' is passed to 'print', a function the pass does not follow
# CHECK: Found 1 error in 1 file (1 file checked).
