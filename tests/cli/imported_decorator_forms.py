import pypto.language as pl
import pypto.language.distributed as pld
import compat
from compat import jit
from shapes import *

host_jit = compat.host_jit


@jit
def chip(x, v):
    return v


@jit.host
def host1(x):
    a = pld.alloc_window_buffer(64)


@compat.jit.host
def host2(x):
    b = pld.alloc_window_buffer(64)


@host_jit
def host3(x):
    c = pld.alloc_window_buffer(64)


@star_host
def host4(x):
    d = pld.alloc_window_buffer(64)


@program
class Ring:
    @function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x):
        e = pld.alloc_window_buffer(64)


@compat.pair_host
def host5(x):
    f = pld.alloc_window_buffer(64)


# The forms in which model code reaches the DSL's decorators through its own modules: an
# attribute of an imported alias (`jit.host` of `jit = pl.jit`), through the module
# (`compat.jit.host`), a name bound to an imported one (`host_jit = compat.host_jit`),
# star imports (`program`, `function` and `star_host` from shapes, which re-exports
# compat's), each a host orchestrator whose allocation has no view (dead-alloc). An alias
# made by a tuple binding there is not read, and says so.
# RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/model.py
# RUN: printf 'import pypto.language as pl\njit = pl.jit\nhost_jit = pl.jit.host\npair_host, pair_chip = pl.jit.host, pl.jit\n' > %t.d/compat.py
# RUN: printf 'import pypto.language as pl\nfrom compat import *\nprogram = pl.program\nfunction = pl.function\nstar_host = host_jit\n' > %t.d/shapes.py
# RUN: %commscope-opt %t.d/model.py > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: model.py:17:5: error: allocation 'a' has no window view [dead-alloc]
# CHECK: model.py:22:5: error: allocation 'b' has no window view [dead-alloc]
# CHECK: model.py:27:5: error: allocation 'c' has no window view [dead-alloc]
# CHECK: model.py:32:5: error: allocation 'd' has no window view [dead-alloc]
# CHECK: model.py:39:9: error: allocation 'e' has no window view [dead-alloc]
# CHECK: model.py:42:2: error: cannot read '@compat.pair_host': module {{.*}}compat.py makes 'pair_host' from the DSL's decorators in a way the front end does not read, so the function it decorates would drop out of the check [unknown-decorator]
# CHECK: Found 6 errors in 1 file (1 file checked).
#
# A module of the program that is broken, or that only the directory above finds, is
# reported where its decorator is used: the function would drop out of the check.
# RUN: printf 'import pypto.language as pl\njit = pl.jit(\n' > %t.d/compat.py
# RUN: %commscope-opt %t.d/model.py > %t.broken; test $? -eq 1
# RUN: %FileCheck --check-prefix=BROKEN %s < %t.broken
# BROKEN: model.py:10:2: error: cannot read '@jit': its module {{.*}}compat.py has a syntax error on line 2: '(' was never closed, so the function it decorates would drop out of the check [unknown-decorator]
# RUN: rm -rf %t.pkg && mkdir -p %t.pkg/models && touch %t.pkg/models/__init__.py
# RUN: printf 'import pypto.language as pl\nhost_jit = pl.jit.host\n' > %t.pkg/models/compat.py
# RUN: printf 'import pypto.language.distributed as pld\nfrom models.compat import host_jit\n\n\n@host_jit\ndef host(x):\n    a = pld.alloc_window_buffer(64)\n' > %t.pkg/models/llama.py
# RUN: cd %t.pkg && %commscope-opt models/llama.py > %t.above; test $? -eq 1
# RUN: %FileCheck --check-prefix=ABOVE %s < %t.above
# ABOVE: models/llama.py:5:2: error: cannot read '@host_jit': module 'models.compat' is not on the search path (add -I . to read it from models/compat.py), so the function it decorates would drop out of the check [unknown-decorator]
