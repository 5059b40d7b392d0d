import os
import sys
from sys import exit as leave

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host(ready):
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    chip(va, device=5)
    for r in pl.range(6, pld.world_size() - 2):
        chip(va, device=r)
    if not ready:
        sys.exit(1)
    chip(vb, device=9)


# sys.exit(...) ends the host as a raise does (raise_dispatch.py): the dispatch after it
# need not run, so device 9 need not exist and the world may be 7, where
# `range(6, ws - 2)` is empty and device 5 stays an id of its own.
# RUN: %commscope-opt %s > %t.out
# RUN: %FileCheck %s < %t.out
# CHECK: comm_d0  devices [5, range(6, world_size() - 2)]  1 slot, 64 B
#
# So do os._exit(...), sys.exit under the name a from-import gives it, and the builtins
# exit() and quit().
# RUN: sed '24s/sys.exit(1)/os._exit(1)/' %s | %commscope-opt - | %FileCheck %s
# RUN: sed '24s/sys.exit(1)/leave(1)/' %s | %commscope-opt - | %FileCheck %s
# RUN: sed '24s/sys.exit(1)/exit()/' %s | %commscope-opt - | %FileCheck %s
# RUN: sed '24s/sys.exit(1)/quit()/' %s | %commscope-opt - | %FileCheck %s
#
# A call of another function of that name is an ordinary call (the file's own exit, or a
# method of a parameter named sys), and any call of a function the front end does not
# know may raise, in some worlds and not in others: the same.
# RUN: sed -e '24s/sys.exit(1)/exit(1)/' -e '12s/^$/def exit(code): return code/' %s | %commscope-opt - | %FileCheck %s
# RUN: sed '15s/ready/ready, sys/' %s | %commscope-opt - | %FileCheck %s
# RUN: sed '24s/sys.exit(1)/pytest.skip("needs 10 ranks")/' %s | %commscope-opt - | %FileCheck %s
# A call of Python's own builtins, or of the DSL's, does not stop it: the dispatch after
# it surely runs, and a smallest world of 10 absorbs device 5 into `range(5, ws - 2)`.
# RUN: sed '24s/sys.exit(1)/print("not ready")/' %s | %commscope-opt - | %FileCheck --check-prefix=CALL %s
# RUN: sed '24s/sys.exit(1)/pl.range(2)/' %s | %commscope-opt - | %FileCheck --check-prefix=CALL %s
# CALL: comm_d0  devices [range(5, world_size() - 2)]  1 slot, 64 B
#
# Its arguments are evaluated first: a view passed to it escapes.
# RUN: sed '24s/sys.exit(1)/sys.exit(vb)/' %s | %commscope-opt - | %FileCheck --check-prefix=ESCAPE %s; test ${PIPESTATUS[1]} -eq 1
# ESCAPE: <stdin>:24:9: error: a view of allocation 'b' is passed to 'sys.exit', a library function the pass does not follow{{.*}}[view-escapes]
