# A method chain on a view (`va.to(...).view(...)`) is followed to the view as long as a
# method is called on at most 64 calls (a chain of 65); a longer chain is a view-escapes
# error, never dropped, and a very long one is judged in linear time: each call of it
# asks for its receiver's root, which would be quadratic followed to the end.
# RUN: %commscope-opt %s > %t.out 2>&1
# RUN: %FileCheck --check-prefix=FOLLOWED %s < %t.out
# RUN: %python -c "import sys; src = open(sys.argv[1]).read().rsplit('    chip(', 1)[0]; print(src + '    chip(va' + '.x()' * int(sys.argv[2]) + ', device=1)')" %s 65 > %t.65.py
# RUN: %commscope-opt %t.65.py > %t.65.out 2>&1
# RUN: %FileCheck --check-prefix=FOLLOWED %s < %t.65.out
# FOLLOWED: comm_d0  devices [1]
# FOLLOWED: All checks passed
# RUN: %python -c "import sys; src = open(sys.argv[1]).read().rsplit('    chip(', 1)[0]; print(src + '    chip(va' + '.x()' * int(sys.argv[2]) + ', device=1)')" %s 66 > %t.66.py
# RUN: %commscope-opt %t.66.py > %t.66.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=LONG %s < %t.66.out
# RUN: %python -c "import sys; src = open(sys.argv[1]).read().rsplit('    chip(', 1)[0]; print(src + '    chip(va' + '.x()' * int(sys.argv[2]) + ', device=1)')" %s 100000 > %t.100k.py
# RUN: %commscope-opt %t.100k.py > %t.100k.out 2>&1; test $? -eq 1
# RUN: %FileCheck --check-prefix=LONG %s < %t.100k.out
# LONG: error: {{.*}}[view-escapes]

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    # the chain is rewritten by the RUN lines above: this call stays last
    chip(va.x().x().x().x().x().x().x().x().x().x(), device=1)
