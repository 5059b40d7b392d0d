import pypto.language as pl
import pypto.language.distributed as pld

REGISTRY = {}


def register(name):
    def keep(f):
        REGISTRY[name] = f
        return f

    return keep


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def make_a(x):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(x, va, device=0)
    return va


@register("b")
@pl.jit.host
def make_b(x):
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    chip(x, vb, device=0)
    return vb


@pl.jit.host
def make_c(x):
    c = pld.alloc_window_buffer(64)
    vc = pld.window(c, [16], dtype=pl.FP32)
    chip(x, vc, device=0)
    return vc


@pl.jit.host
def make_d(x):
    d = pld.alloc_window_buffer(64)
    vd = pld.window(d, [16], dtype=pl.FP32)
    chip(x, vd, device=0)
    return vd


REGISTRY["a"] = make_a


def test_pipeline(build=make_c):
    return build


@pl.jit.host
def run(x):
    w = REGISTRY["a"](x)
    chip(x, w, device=3)


@pl.program
class Model:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x, v):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def stage(self, x):
        e = pld.alloc_window_buffer(64)
        ve = pld.window(e, [16], dtype=pl.FP32)
        self.kernel(x, ve, device=0)
        return ve

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x):
        f = getattr(self, "stage")
        self.kernel(x, f(x), device=3)


if __name__ == "__main__":
    make_d(None)


# A host orchestrator whose name the file uses as a value may reach a DSL function that
# dispatches what it returns: kept in a registry (make_a), by a decorator of its own
# (make_b), as a default (make_c), by its name as a string (stage). A call by the
# module's own code is the runtime's (make_d).
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: host_value_uses.py:25:5: error: a view of allocation 'a' is returned by 'make_a' to callers
# CHECK: host_value_uses.py:34:5: error: a view of allocation 'b' is returned by 'make_b' to callers
# CHECK: host_value_uses.py:42:5: error: a view of allocation 'c' is returned by 'make_c' to callers
# CHECK-NOT: allocation 'd'
# CHECK: host_value_uses.py:77:9: error: a view of allocation 'e' is returned by 'stage' to callers
# CHECK: Found 4 errors in 1 file (1 file checked).
