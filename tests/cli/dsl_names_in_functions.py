import pypto
import pypto.language as pl

L = pypto.language


@pl.jit
def chip(x, v):
    return x


# The DSL's module imported inside the host: read as at the module's level.
@pl.jit.host
def imported_in_host(x):
    import pypto.language.distributed as D

    buf = D.alloc_window_buffer(256)
    v = D.window(buf, [64], dtype=pl.FP32)
    for r in pl.range(4):
        chip(x, v, device=r)


# A module-level alias of pypto.language: `L.distributed` is the submodule.
@pl.jit.host
def through_alias(x):
    buf = L.distributed.alloc_window_buffer(128)
    v = L.distributed.window(buf, [32], dtype=pl.FP32)
    for r in pl.range(2):
        chip(x, v, device=r)


# A test function that names the module and defines the group inside.
def test_nested():
    import pypto.language.distributed as pld

    D = pld

    @pl.jit.host
    def nested(x):
        buf = D.alloc_window_buffer(64)
        v = D.window(buf, [16], dtype=pl.FP32)
        chip(x, v, device=3)


# The DSL's modules named inside functions (an import in the host or in the test around a
# group, `D = pld` there) and through a module-level alias of pypto.language
# (`L.distributed`) are the DSL's: each allocation is found and scoped.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: host orchestrator 'imported_in_host': 1 comm domain
# CHECK-NEXT: comm_d0  devices [0, 1, 2, 3]  1 slot, 256 B
# CHECK: host orchestrator 'through_alias': 1 comm domain
# CHECK-NEXT: comm_d0  devices [0, 1]  1 slot, 128 B
# CHECK: host orchestrator 'nested': 1 comm domain
# CHECK-NEXT: comm_d0  devices [3]  1 slot, 64 B
# CHECK: All checks passed: 1 file, 2 programs, 3 host orchestrators.
