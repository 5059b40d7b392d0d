import pypto.language as pl
import pypto.language.distributed as pld
import config as C
from pkg import cfg as E

NR = C.N_RANKS
TP, T = E.TP_SIZE, 3


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    for r in pl.range(NR):
        chip(x, va, device=r)
    for r in pl.range(TP):
        chip(x, vb, device=r)


def main():
    host(None)


# A module constant bound to an imported module's integer (`NR = C.N_RANKS`, also through
# `from pkg import cfg as E`) is that integer, as `C.N_RANKS` in the host is; not where
# the file stores that attribute.
# RUN: rm -rf %t.d && mkdir -p %t.d/pkg && printf 'N_RANKS = 2\n' > %t.d/config.py
# RUN: printf '' > %t.d/pkg/__init__.py && printf 'TP_SIZE = 4\n' > %t.d/pkg/cfg.py
# RUN: cp %s %t.d/host.py
# RUN: %commscope-opt %t.d/host.py | %FileCheck %s
# CHECK:      comm_d0  devices [0, 1]  1 slot, 64 B
# CHECK-NEXT:   a  64 B
# CHECK-NEXT: comm_d1  devices [0, 1, 2, 3]  1 slot, 64 B
# CHECK-NEXT:   b  64 B
# RUN: sed 's/^    host(None)$/    C.N_RANKS = 4/' %s > %t.d/host_stored.py
# RUN: %commscope-opt %t.d/host_stored.py | %FileCheck --check-prefix=STORED %s; test ${PIPESTATUS[0]} -eq 1
# STORED: {{.*}}.py:22:9: error: cannot infer the devices of the dispatch of 'chip'{{.*}}'NR'{{.*}}[unsupported-device]
# STORED:     Found 1 error in 1 file (1 file checked).
