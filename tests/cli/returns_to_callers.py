import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, y=None):
    return x


@pl.jit.host
def make(flag):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(va, device=0)
    if flag:
        return chip(va, device=0)
    return va, 1


@pl.jit.host
def pointer():
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    chip(vb, device=0)
    return b


@pl.jit.host
def scalar(n):
    c = pld.alloc_window_buffer(64)
    vc = pld.window(c, [16], dtype=pl.FP32)
    chip(vc, device=0)
    return n


@pl.jit.host
def main():
    v, _ = make(True)
    chip(v, device=1)
    q = pointer()
    w = pld.window(q, [16], dtype=pl.FP32)
    chip(w, device=2)
    chip(None, scalar(3), device=3)
    for g in stream():
        chip(g, device=4)


@pl.jit.host
def stream():
    f = pld.alloc_window_buffer(64)
    vf = pld.window(f, [16], dtype=pl.FP32)
    chip(vf, device=0)
    yield vf


@pl.jit.host
def entry():
    d = pld.alloc_window_buffer(64)
    vd = pld.window(d, [16], dtype=pl.FP32)
    chip(vd, device=0)
    return vd


if __name__ == "__main__":
    out = entry()
    print(out)


@pl.program
class Model:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def stage(self):
        e = pld.alloc_window_buffer(64)
        ve = pld.window(e, [16], dtype=pl.FP32)
        self.kernel(ve, device=0)
        return ve

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        v = self.stage()
        self.kernel(v, device=1)


# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out

# A host orchestrator that another DSL function of the file calls hands what it returns
# to that caller, which the pass does not follow: main dispatches make's view on device
# 1, takes windows of pointer's b on device 2 and dispatches what stream yields on
# device 4, devices those allocations' scopes lack. A returned value that is no view (scalar's n) is fine, and so is a view returned
# by a host that only the module's own code calls (entry, at the runtime's level).
# CHECK: returns_to_callers.py:16:9: error: a view of allocation 'a' is returned by 'make' to callers the pass does not follow: a caller that dispatches it would use devices the allocation's scope lacks [view-escapes]
# CHECK: returns_to_callers.py:13:5: note: a view of it is taken here
# CHECK: help: dispatch the view in the function that allocates it, and return no view of it
# CHECK: returns_to_callers.py:17:5: error: a view of allocation 'a' is returned by 'make'
# CHECK: returns_to_callers.py:25:5: error: the window pointer of allocation 'b' is returned by 'pointer' to callers the pass does not follow: a caller could take windows of it on devices the allocation's scope lacks [view-escapes]
# CHECK: returns_to_callers.py:22:5: note: allocation 'b' is here
# main's window of that pointer is one of no allocation of main's:
# CHECK: returns_to_callers.py:41:5: error: a window is taken of a pointer that names no allocation of this host orchestrator
# CHECK: returns_to_callers.py:53:5: error: a view of allocation 'f' is returned by 'stream' to callers the pass does not follow
# CHECK: returns_to_callers.py:51:5: note: a view of it is taken here
# CHECK: returns_to_callers.py:80:9: error: a view of allocation 'e' is returned by 'stage' to callers
# CHECK-NOT: error:
# CHECK: Found 6 errors in 1 file (1 file checked).
