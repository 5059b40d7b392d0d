import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    a_buf = pld.alloc_window_buffer(64)
    a = pld.window(a_buf, [16], dtype=pl.FP32)
    chip(x, a, device=0)
    b = a - 1
    chip(x, b, device=1)
    p = a_buf + 8
    c = pld.window(p, [16], dtype=pl.FP32)
    chip(x, c, device=2)


# An offset of a view (`a - 1`) or of a window pointer (`a_buf + 8`), which is also how
# a bound below the world size is written, is derived from it: a_buf gets 0, 1 and 2
# (it got 0 alone).
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %FileCheck --match-full-lines %s < %t.ir.py
# CHECK: with pld.comm_domain("comm_d0", devices=[0, 1, 2], slots=[a_buf]):

# A window of a view names no allocation: view-escapes at that window.
# RUN: printf 'import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.jit\ndef chip(x, w):\n    return x\n\n\n@pl.jit.host\ndef host(x):\n    d_buf = pld.alloc_window_buffer(64)\n    d = pld.window(d_buf, [16], dtype=pl.FP32)\n    chip(x, d, device=0)\n    e = pld.window(d, [16], dtype=pl.FP32)\n    chip(x, e, device=3)\n' > %t.window.py
# RUN: %commscope-opt %t.window.py > %t.err 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# ERR: window.py:15:5: error: a view of allocation 'd_buf' is an operand of 'window'{{.*}}[view-escapes]
