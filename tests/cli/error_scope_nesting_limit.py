# scope-nesting-limit in commscope-opt: each domain is a `with` around the host's body, and
# Python compiles at most 20 nested blocks in a function (a loop, a `try` body, `with`
# items one each, an `except` clause two). This body nests three (a loop, an `except`
# clause in it), so 17 domains fit and the 18th is reported, at its first allocation;
# the file that fits is rewritten into one Python compiles.
# RUN: %commscope-opt %s > %t.err 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# ERR: {{.*}}error_scope_nesting_limit.py:76:5: error: allocation 'a17' would open nested scope 18, beyond the limit of 17 nested comm-domain scopes: Python compiles at most 20 nested blocks in a function {{.*}} [scope-nesting-limit]
# ERR: help: split the host orchestrator, or use fewer distinct device sets
# RUN: %commscope-opt --emit=ir %S/nesting/seventeen_domains.py > %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# RUN: grep -c "comm_domain(" %t.py | grep -qx 17

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x):
    a0 = pld.alloc_window_buffer(64)
    v0 = pld.window(a0, [8])
    chip(x, v0, device=0)
    a1 = pld.alloc_window_buffer(64)
    v1 = pld.window(a1, [8])
    chip(x, v1, device=1)
    a2 = pld.alloc_window_buffer(64)
    v2 = pld.window(a2, [8])
    chip(x, v2, device=2)
    a3 = pld.alloc_window_buffer(64)
    v3 = pld.window(a3, [8])
    chip(x, v3, device=3)
    a4 = pld.alloc_window_buffer(64)
    v4 = pld.window(a4, [8])
    chip(x, v4, device=4)
    a5 = pld.alloc_window_buffer(64)
    v5 = pld.window(a5, [8])
    chip(x, v5, device=5)
    a6 = pld.alloc_window_buffer(64)
    v6 = pld.window(a6, [8])
    chip(x, v6, device=6)
    a7 = pld.alloc_window_buffer(64)
    v7 = pld.window(a7, [8])
    chip(x, v7, device=7)
    a8 = pld.alloc_window_buffer(64)
    v8 = pld.window(a8, [8])
    chip(x, v8, device=8)
    a9 = pld.alloc_window_buffer(64)
    v9 = pld.window(a9, [8])
    chip(x, v9, device=9)
    a10 = pld.alloc_window_buffer(64)
    v10 = pld.window(a10, [8])
    chip(x, v10, device=10)
    a11 = pld.alloc_window_buffer(64)
    v11 = pld.window(a11, [8])
    chip(x, v11, device=11)
    a12 = pld.alloc_window_buffer(64)
    v12 = pld.window(a12, [8])
    chip(x, v12, device=12)
    a13 = pld.alloc_window_buffer(64)
    v13 = pld.window(a13, [8])
    chip(x, v13, device=13)
    a14 = pld.alloc_window_buffer(64)
    v14 = pld.window(a14, [8])
    chip(x, v14, device=14)
    a15 = pld.alloc_window_buffer(64)
    v15 = pld.window(a15, [8])
    chip(x, v15, device=15)
    a16 = pld.alloc_window_buffer(64)
    v16 = pld.window(a16, [8])
    chip(x, v16, device=16)
    a17 = pld.alloc_window_buffer(64)
    v17 = pld.window(a17, [8])
    chip(x, v17, device=17)
    for q in range(2):
        try:
            y = q
        except ValueError as e:
            y = 0
