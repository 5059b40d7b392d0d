import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32], log):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    c = pld.alloc_window_buffer(64)
    d = pld.alloc_window_buffer(64)
    e = pld.alloc_window_buffer(64)
    f = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    vb = pld.window(b, [16], dtype=pl.FP32)
    vc = pld.window(c, [16], dtype=pl.FP32)
    vd = pld.window(d, [16], dtype=pl.FP32)
    ve = pld.window(e, [16], dtype=pl.FP32)
    vf = pld.window(f, [16], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        chip(x[r], va, device=r)
        chip(x[r], vb, device=r)
        chip(x[r], vc, device=r)
        chip(x[r], vd, device=r)
        chip(x[r], ve, device=r)
        chip(x[r], vf, device=r)

    def own_names(n, *rest, **kw):
        va: int = n + 1
        vb, *vc = rest
        for vd, (ve, _) in kw.items():
            va += vd

        def inner(vf):
            return vf

        log(f"{va} {vb!r} {vd=}")
        return inner

    def reads_through_inner():
        def inner():
            va = 0
            return va

        return vb

    def reads_in_default(k=vc):
        return k

    class Holder:
        vd = 0

        def method(self):
            return vd

    log(f"{va} of shape {va.shape}")
    log(f"{chip(x[2], ve, device=2)}")

    def formats_a_call():
        log(f"{chip(x[3], vf, device=3)}")

    def imports_its_own():
        import va
        from os import path as vb
        return va, vb


# A nested def's own names are Python's: its parameters and what its body binds (an
# annotated or augmented assignment, targets, an import, a nested def) are no reads of
# the host's views, but a name an inner def or a class body binds is not the def's own,
# and default values run in the host. An f-string only reads what it formats, unless a field calls
# something: a dispatch inside `f"{...}"` is a use of the view it passes.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: closure_scopes.py:44:5: error: a view of allocation 'b' is an operand of 'def reads_through_inner', {{.*}} [view-escapes]
# CHECK: closure_scopes.py:51:5: error: a view of allocation 'c' is an operand of 'def reads_in_default', {{.*}} [view-escapes]
# CHECK: closure_scopes.py:54:5: error: a view of allocation 'd' is an operand of 'class Holder', {{.*}} [view-escapes]
# CHECK: closure_scopes.py:61:9: error: a view of allocation 'e' is an operand of 'f"{chip(x[2], ve, device=2)}"', {{.*}} [view-escapes]
# CHECK: closure_scopes.py:63:5: error: a view of allocation 'f' is an operand of 'def formats_a_call', {{.*}} [view-escapes]
# CHECK: Found 5 errors in 1 file (1 file checked).
# CHECK-NOT: error
