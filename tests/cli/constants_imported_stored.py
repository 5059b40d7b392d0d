import pypto.language as pl
import pypto.language.distributed as pld
import config as C


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    for r in pl.range(C.N_RANKS):
        chip(x, va, device=r)


def main():
    C.N_RANKS = 4
    host(None)


# A module's integer is no constant where the file stores that attribute (`C.N_RANKS = 4`
# in main(), `setattr(C, "N_RANKS", 4)`): the host may run after the store.
# RUN: rm -rf %t.d && mkdir -p %t.d && printf 'N_RANKS = 2\n' > %t.d/config.py
# RUN: cp %s %t.d/host.py
# RUN: %commscope-opt %t.d/host.py > %t.out; test $? -eq 1
# RUN: %FileCheck --check-prefix=STORED %s < %t.out
# STORED: {{.*}}.py:16:9: error: cannot infer the devices of the dispatch of 'chip'{{.*}}[unsupported-device]
# RUN: sed 's/^    C.N_RANKS = 4$/    setattr(C, "N_RANKS", 4)/' %s > %t.d/host_setattr.py
# RUN: %commscope-opt %t.d/host_setattr.py | %FileCheck --check-prefix=STORED %s; test ${PIPESTATUS[0]} -eq 1
# RUN: sed 's/^    C.N_RANKS = 4$/    C.N_RANKS, C.OTHER = 4, 0/' %s > %t.d/host_tuple.py
# RUN: %commscope-opt %t.d/host_tuple.py | %FileCheck --check-prefix=STORED %s; test ${PIPESTATUS[0]} -eq 1
# RUN: sed 's/^    C.N_RANKS = 4$/    C.N_RANKS: int = 4/' %s > %t.d/host_annotated.py
# RUN: %commscope-opt %t.d/host_annotated.py | %FileCheck --check-prefix=STORED %s; test ${PIPESTATUS[0]} -eq 1
# Reading it, or storing another attribute, leaves it the module's constant.
# RUN: sed 's/^    C.N_RANKS = 4$/    C.OTHER = C.N_RANKS + 1/' %s > %t.d/host_read.py
# RUN: %commscope-opt %t.d/host_read.py | %FileCheck --check-prefix=READ %s
# READ: comm_d0  devices [0, 1]  1 slot, 64 B
