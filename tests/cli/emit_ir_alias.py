import pypto.language as pl
import pypto.language.distributed as dist


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    buf = dist.alloc_window_buffer(64)
    v = dist.window(buf, [16], dtype=pl.FP32)
    for r in pl.range(1, dist.world_size()):
        chip(x[r], v, device=r)


# The rewritten file spells its scopes with the file's own name for the module, so that
# it runs: here `dist`, which binds pypto.language.distributed (no `pld` is bound).
# RUN: %commscope-opt --emit=ir %s > %t.py
# RUN: %FileCheck %s < %t.py
# CHECK-NOT: with {{p}}ld.comm_domain
# CHECK: with dist.comm_domain("comm_d0", devices=[range(1, dist.world_size())], slots=[buf]):
# CHECK-NOT: {{p}}ld.world_size
#
# It reads back as the same plan, and is a fixed point of the rewrite.
# RUN: %commscope-opt --emit=ir %t.py > %t.again.py
# RUN: diff %t.py %t.again.py
