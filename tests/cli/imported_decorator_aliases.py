import pypto.language as pl
import pypto.language.distributed as pld
import compat
from compat import chip_jit, hj, program


@chip_jit
def chip(x, v):
    return v


@program
class Ring:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x):
        buf = pld.alloc_window_buffer(256)
        v = pld.window(buf, [64], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.stage(v, device=r)

    @pl.function(type=pl.FunctionType.Orchestration)
    def stage(self, v):
        return v


@hj
def host2(x):
    data = pld.alloc_window_buffer(64)
    v = pld.window(data, [16], dtype=pl.FP32)
    w = chip(x, v, device=0)
    chip(x, w, device=1)


@compat.host_jit
def host3(x):
    leaked = pld.alloc_window_buffer(64)


# A decorator that another module of the program binds to one of the DSL's (a plain
# alias there, re-exported by a star import or under another name) makes a DSL function
# here as the DSL's own would: Ring is a program, host2 and host3 host orchestrators
# (host3's allocation has no view), chip a chip orchestrator that returns its view.
# RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/model.py
# RUN: printf 'import pypto.language as pl\nprogram = pl.program\nhost_jit = pl.jit.host\nchip_jit = pl.jit\n' > %t.d/base.py
# RUN: printf 'from base import *\nfrom base import host_jit as hj\n' > %t.d/compat.py
# RUN: %commscope-opt %t.d/model.py > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: model.py:36:5: error: allocation 'leaked' has no window view [dead-alloc]
# CHECK: Found 1 error in 1 file (1 file checked).
# RUN: sed -i 's/^    leaked = .*$/    pass/' %t.d/model.py
# RUN: %commscope-opt %t.d/model.py | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'host2': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0, 1]  1 slot, 64 B
# PLAN: host orchestrator 'host3': 0 comm domains
# PLAN: program 'Ring'
# PLAN: comm_d0  devices all  1 slot, 256 B
# PLAN: All checks passed: 1 file, 2 programs, 3 host orchestrators.
