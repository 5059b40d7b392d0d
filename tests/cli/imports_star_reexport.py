import pypto.language as pl
import pypto.language.distributed as pld
from . import scatter


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    for r in pl.range(2):
        scatter(x, va, device=r)


# A package whose __init__.py re-exports its modules with `from .kernels import *` gives
# the DSL functions of those modules by their names, as Python does.
# RUN: rm -rf %t.d && mkdir -p %t.d/lib
# RUN: printf 'from .other import *\nfrom .kernels import *\n' > %t.d/lib/__init__.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef scatter(x, data):\n    return x\n' > %t.d/lib/kernels.py
# RUN: printf 'X = 1\n' > %t.d/lib/other.py
# RUN: cp %s %t.d/lib/host.py
# RUN: %commscope-opt %t.d/lib/host.py | %FileCheck %s
# CHECK: comm_d0  devices [0, 1]  1 slot, 64 B
# CHECK: All checks passed
# So does a host's own star import of the module.
# RUN: sed 's/^from \. import scatter$/from .other import *\nfrom .kernels import */' %s > %t.d/lib/host_star.py
# RUN: %commscope-opt %t.d/lib/host_star.py | %FileCheck %s
# A name no module of its star imports defines is still no function of the program.
# RUN: sed 's/scatter/gather/' %s > %t.d/lib/host_missing.py
# RUN: %commscope-opt %t.d/lib/host_missing.py | %FileCheck --check-prefix=MISSING %s; test ${PIPESTATUS[0]} -eq 1
# MISSING: error: call of unknown function 'gather'{{.*}}[malformed-op]
