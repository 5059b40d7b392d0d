import pypto.language as pl
import pypto.language.distributed as pld
from pkg import kernels


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    w = kernels.chip(x, v, device=0)
    kernels.chip(x, w, device=1)


# `from pkg import kernels` takes the attribute that pkg/__init__.py binds before the
# submodule pkg/kernels.py, as Python does: here pkg.fastk, whose chip returns its view.
# RUN: rm -rf %t.d && mkdir -p %t.d/pkg && cp %s %t.d/host.py
# RUN: printf 'from . import fastk as kernels\n' > %t.d/pkg/__init__.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef chip(x, v):\n    return x\n' > %t.d/pkg/kernels.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef chip(x, v):\n    return v\n' > %t.d/pkg/fastk.py
# RUN: %commscope-opt %t.d/host.py | %FileCheck %s
# CHECK: comm_d0  devices [0, 1]  1 slot, 256 B
# RUN: printf 'kernels = None\n' > %t.d/pkg/__init__.py
# RUN: %commscope-opt %t.d/host.py > %t.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=OTHER %s < %t.out
# OTHER: host.py:10:9: error: {{.*}}kernels.chip
