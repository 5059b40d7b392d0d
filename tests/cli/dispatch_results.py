import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 16


@pl.jit.incore
def step(x, y, data):
    tile = pl.load(x, [0, 0], [1, SIZE])
    data = pl.store(tile, [0, 0], data)
    back = pl.load(data, [0, 0], [1, SIZE])
    y = pl.store(back, [0, 0], y)
    return y


@pl.jit
def per_rank(x, y, data):
    return step(x, y, data)


@pl.jit
def passes(w, x):
    return w


@pl.jit
def packs(x, w):
    out = [x]
    out.append(w)
    return out[0]


@pl.jit.host
def host(x, y):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    c = pld.alloc_window_buffer(64)
    vc = pld.window(c, [16], dtype=pl.FP32)
    outs = []
    for r in pl.range(2):
        y[r] = per_rank(x[r], y[r], va, device=r)
        outs.append(per_rank(x[r], y[r], va, device=r))
        w = passes(vb, x[r], device=r)
        p = packs(x[r], vc, device=r)
    passes(w, x[0], device=5)
    passes(p, x[0], device=6)


# What a chip orchestrator returns of a view it was given is that view: dispatched again,
# its devices are the view's allocation's too. `per_rank` returns only what `step` returns,
# its y (the DSL's loads make new tiles), so storing its result stores no view; `packs`
# may return anything its list holds.
# RUN: %commscope-opt %s > %t.out
# RUN: %FileCheck %s < %t.out
# CHECK: comm_d0  devices [0, 1]  1 slot, 64 B
# CHECK-NEXT: a  64 B
# CHECK: comm_d1  devices [0, 1, 5]  1 slot, 64 B
# CHECK-NEXT: b  64 B
# CHECK: comm_d2  devices [0, 1, 6]  1 slot, 64 B
# CHECK-NEXT: c  64 B
#
# A chip that may return its view: storing its result stores the view.
# RUN: sed 's/^    return step(x, y, data)$/    return step(x, data, y)/' %s | %commscope-opt - | %FileCheck --check-prefix=STORED %s; test ${PIPESTATUS[1]} -eq 1
# STORED: <stdin>:44:9: error: {{.*}}allocation 'a'{{.*}}[view-escapes]
# By keyword, a kernel's arguments go where its parameters' names say: still only y.
# RUN: sed 's/^    return step(x, y, data)$/    return step(data=data, x=x, y=y)/' %s | %commscope-opt - | %FileCheck %s
# A kernel defined twice: which one runs is not read, so it may return any argument.
# RUN: sed 's/^@pl.jit$/@pl.jit.incore\ndef step(x, y, data):\n    return data\n\n\n@pl.jit/' %s | %commscope-opt - | %FileCheck --check-prefix=TWICE %s; test ${PIPESTATUS[1]} -eq 1
# TWICE: error: a view of allocation 'a' is an operand of 'y[...] = ...'{{.*}}[view-escapes]
#
# A chip imported from a module of its own is read there: this `passes` returns its x, so
# device 5 gets no view; one that takes *args may return any argument.
# RUN: mkdir -p %t.d && sed -e 's/^def passes(w, x):$/def passes_(w, x):/' -e 's/^import pypto.language as pl$/import pypto.language as pl\nfrom chips import passes/' %s > %t.d/host.py
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef passes(w, x):\n    return x\n' > %t.d/chips.py
# RUN: %commscope-opt %t.d/host.py | %FileCheck --check-prefix=IMPORTED %s
# IMPORTED: comm_d0  devices [0, 1]  2 slots, 128 B
# IMPORTED-NEXT: a  64 B
# IMPORTED-NEXT: b  64 B
# RUN: printf 'import pypto.language as pl\n\n\n@pl.jit\ndef passes(*xs):\n    return xs[1]\n' > %t.d/chips.py
# RUN: %commscope-opt %t.d/host.py | %FileCheck --check-prefix=VARIADIC %s
# VARIADIC: comm_d1  devices [0, 1, 5]  1 slot, 64 B
# VARIADIC-NEXT: b  64 B
