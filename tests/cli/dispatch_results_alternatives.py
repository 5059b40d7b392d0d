import os

import pypto.language as pl
import pypto.language.distributed as pld

if os.environ.get("FAST"):

    @pl.jit
    def per_rank(x, data):
        return data

else:

    @pl.jit
    def per_rank(x, data):
        return x


@pl.jit
def sink(w, x):
    return x


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    w = per_rank(x, va, device=0)
    sink(w, x, device=3)


# A chip defined twice (in the branches of an `if`) may be either: which one runs is not
# read, so what it returns may be any argument, and device 3 gets allocation 'a'.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: comm_d0  devices [0, 3]  1 slot, 64 B
# CHECK-NEXT: a  64 B
#
# So may one imported from either of two modules (`try:` / `except ImportError:`), ...
# RUN: rm -rf %t.d && mkdir -p %t.d/m && touch %t.d/m/__init__.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef per_rank(x, data):\n    return data\n' > %t.d/m/fast.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef per_rank(x, data):\n    return x\n' > %t.d/m/slow.py
# RUN: sed -e '/^if os.environ/,/^        return x$/d' -e 's/^import os$/try:\n    from .fast import per_rank\nexcept ImportError:\n    from .slow import per_rank/' %s > %t.d/m/host.py
# RUN: %commscope-opt %t.d/m/host.py | %FileCheck %s
# ... and one that the module it is imported from defines twice.
# RUN: cat %t.d/m/fast.py %t.d/m/slow.py > %t.d/m/both.py
# RUN: sed -e '/^if os.environ/,/^        return x$/d' -e 's/^import os$/from .both import per_rank/' %s > %t.d/m/host_both.py
# RUN: %commscope-opt %t.d/m/host_both.py | %FileCheck %s
# ... and one that the module it is imported from binds twice itself (a `try:` of its own).
# RUN: printf 'import pypto.language as pl\n\ntry:\n    from .fast import per_rank\nexcept ImportError:\n\n    @pl.jit\n    def per_rank(x, data):\n        return x\n' > %t.d/m/kernels.py
# RUN: sed -e '/^if os.environ/,/^        return x$/d' -e 's/^import os$/from .kernels import per_rank/' %s > %t.d/m/host_kernels.py
# RUN: %commscope-opt %t.d/m/host_kernels.py | %FileCheck %s
# So may `slow.per_rank` where the file stores that attribute (`slow.per_rank = ...`).
# RUN: sed -e '/^if os.environ/,/^        return x$/d' -e 's/^import os$/from . import fast, slow/' -e 's/^    w = per_rank(/    w = slow.per_rank(/' -e '$a slow.per_rank = fast.per_rank' %s > %t.d/m/host_patched.py
# RUN: %commscope-opt %t.d/m/host_patched.py | %FileCheck %s
