import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    k_buf = pld.alloc_window_buffer(64)
    v_buf = pld.alloc_window_buffer(64)
    g_buf = pld.alloc_window_buffer(64)
    k = pld.window(k_buf, [16], dtype=pl.FP32)
    v = pld.window(v_buf, [16], dtype=pl.FP32)
    g = pld.window(g_buf, [16], dtype=pl.FP32)
    chip(x[0], k, device=0)
    chip(x[0], v, device=0)
    chip(x[0], g, device=0)
    outs = [chip(x[1], t, device=1) for t in (k, v)]
    pairs = {t: chip(x[2], u, device=2) for ts in [(g,)] for t in ts for u in [t]}
    return outs, pairs


# A comprehension's variable may hold what its iterable holds (the views of k and v; a
# later clause's, through the earlier clause's variable: g's): each dispatch in the
# element gives its devices to those allocations, as running it does.
# RUN: %commscope-opt --format=json %s > %t.json
# RUN: %FileCheck --check-prefix=PLAN %s < %t.json
# PLAN:      "name": "host",
# PLAN:      "devices": [
# PLAN-NEXT:   0,
# PLAN-NEXT:   1
# PLAN-NEXT: ],
# PLAN:      "name": "k_buf",
# PLAN:      "name": "v_buf",
# PLAN:      "devices": [
# PLAN-NEXT:   0,
# PLAN-NEXT:   2
# PLAN-NEXT: ],
# PLAN:      "name": "g_buf",
# A walrus carries the comprehension's variable out of it: a binding inside an expression.
# RUN: %commscope-opt %S/comprehension_inputs/carried.py > %t.err 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# ERR: carried.py:15:{{[0-9]+}}: error: {{.*}}'a'{{.*}} [view-escapes]
