import functools

from callback_functions import factories
from callback_functions.chips import chip
from callback_functions.factories import handler, make_key, shape_of
import pypto.language as pl
import pypto.language.distributed as pld


def by_rank(d, t):
    chip(t, t, device=d)
    return 0


def key_a(t):
    chip(t, t, device=3)
    return 0


def local_factory(d):
    return functools.partial(by_rank, d)


def local_shape(n):
    return [n, 64]


class Keyer:
    def __init__(self, d):
        self.d = d

    def __call__(self, t):
        chip(t, t, device=self.d)
        return 0


@pl.jit.host
def bound_names(x, flag):
    a = pld.alloc_window_buffer(256)
    va = pld.window(a, [64], dtype=pl.FP32)
    chip(x, va, device=0)
    views = [va, va]
    k = functools.partial(by_rank, 2)
    views.sort(key=k)
    fn = key_a if flag else len
    views.sort(key=fn)
    table = {"k": key_a}
    views.sort(key=table["k"])
    for f in (len, key_a):
        views.sort(key=f)
    views.sort(key=globals()["key_a"])


@pl.jit.host
def filled_containers(x):
    b = pld.alloc_window_buffer(256)
    vb = pld.window(b, [64], dtype=pl.FP32)
    chip(x, vb, device=0)
    views = [vb, vb]
    hooks = []
    hooks.append(key_a)
    for h in hooks:
        views.sort(key=h)
    registry = {}
    registry["key"] = key_a
    views.sort(key=registry["key"])


@pl.jit.host
def made_keys(x, key=key_a):
    c = pld.alloc_window_buffer(256)
    vc = pld.window(c, [64], dtype=pl.FP32)
    chip(x, vc, device=0)
    views = [vc, vc]
    views.sort(key=local_factory(3))
    views.sort(key=Keyer(4))
    views.sort(key=key)
    views.sort(key=make_key(1))
    views.sort(key=factories.make_key(1))
    views.sort(key=handler("order"))
    views.sort(key=factories.made_inner(6))


@pl.jit.host
def plain_values(x, n):
    d = pld.alloc_window_buffer(256)
    vd = pld.window(d, [64], dtype=pl.FP32)
    chip(x, vd, device=0)
    shape = [8, 8]
    w = vd.reshape(shape)
    w = w.reshape(local_shape(1))
    w = w.reshape(shape_of(8))
    w = w.reshape(factories.shape_of(n))
    w = w.reshape(factories.sorted_shape(n))
    u = n
    n = u
    w = w.view(n, -1)
    for r in range(pld.world_size()):
        s = vd.narrow(0, r, 1)
        chip(x, s, device=r)
    chip(x, w, device=1)


@pl.program
class Keyed:
    key_fn = staticmethod(key_a)

    def __init__(self):
        self.other = key_a
        self.size = 8

    @pl.function(type=pl.FunctionType.Orchestration)
    def step(self, v):
        return v

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x):
        e = pld.alloc_window_buffer(256)
        ve = pld.window(e, [64], dtype=pl.FP32)
        self.step(ve, device=0)
        views = [ve]
        views.sort(key=self.other)
        views.sort(key=self.key_fn)
        self.step(ve.reshape(self.size), device=1)
        self.step(ve.reshape(self.shape(8)), device=1)
        views.sort(key=self.make(3))

    def make(self, d):
        return local_factory(d)

    def shape(self, n):
        return [n, n]


@pl.jit.host
def called_names(x):
    f = pld.alloc_window_buffer(256)
    vf = pld.window(f, [64], dtype=pl.FP32)
    chip(x, vf, device=0)
    views = [vf]
    k = local_factory
    views.sort(key=k(2))
    square = lambda n: [n, n]
    chip(x, vf.reshape(square(8)), device=1)

# A method of a value that holds a view may call a function it is given with it, which
# the pass does not follow: `view-escapes` also where the function is held by a name
# (bound to a partial, a conditional, a dict, a loop's items, a container it was put
# into, a parameter's default, an attribute the class sets), looked up by name, made by a
# function of the file or of the model's modules, or an instance of a class with
# __call__. Names bound to values
# that are no functions (shapes, a cycle of names, what returns no function) are fine.
# RUN: %commscope-opt -I %S %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: held_callbacks.py:44:5: error: a view of allocation 'a' is, or is held by, the object of 'views.sort', which is given 'k', which may hold 'by_rank': the method may call it with the object, a call the pass does not follow [view-escapes]
# CHECK: held_callbacks.py:46:5: error: {{.*}} which is given 'fn', which may hold 'key_a'
# CHECK: held_callbacks.py:48:5: error: {{.*}} which is given 'table', which may hold 'key_a'
# CHECK: held_callbacks.py:50:9: error: {{.*}} which is given 'f', which may hold 'key_a'
# CHECK: held_callbacks.py:51:5: error: {{.*}} which is given a function looked up by 'globals'
# CHECK: held_callbacks.py:63:9: error: {{.*}} which is given 'h', which may hold 'key_a'
# CHECK: held_callbacks.py:66:5: error: {{.*}} which is given 'registry', which may hold 'key_a'
# CHECK: held_callbacks.py:75:5: error: {{.*}} which is given what 'local_factory' returns, which may hold 'by_rank'
# CHECK: held_callbacks.py:76:5: error: {{.*}} which is given an instance of 'Keyer', whose __call__ it may call
# CHECK: held_callbacks.py:77:5: error: {{.*}} which is given 'key', which may hold 'key_a'
# CHECK: held_callbacks.py:78:5: error: {{.*}} which is given what 'make_key' returns, which may hold a function of its module
# CHECK: held_callbacks.py:79:5: error: {{.*}} which is given what 'factories.make_key' returns
# CHECK: held_callbacks.py:80:5: error: {{.*}} which is given what 'handler' returns, which may hold a function of its module
# CHECK: held_callbacks.py:81:5: error: {{.*}} which is given what 'factories.made_inner' returns, which may hold a function of its module
# CHECK: held_callbacks.py:122:9: error: {{.*}} which is given 'self.other', which may hold 'key_a'
# CHECK: held_callbacks.py:123:9: error: {{.*}} which is given 'self.key_fn', which may hold 'key_a'
# CHECK: held_callbacks.py:126:9: error: {{.*}} which is given what 'make' returns, which may hold 'by_rank'
# CHECK: held_callbacks.py:142:5: error: {{.*}} which is given 'k', which may hold 'local_factory'
# CHECK-NOT: error
# CHECK: Found 18 errors in 1 file (1 file checked).
# Without the functions, the plans:
# RUN: sed -e "s/views.sort(.*)$/views.sort(key=len)/" %s > %t.plain.py && %commscope-opt -I %S %t.plain.py | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'bound_names': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'made_keys': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'plain_values': 1 comm domain
# PLAN-NEXT: comm_d0  devices all  1 slot, 256 B
# PLAN: host orchestrator 'called_names': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0, 1]  1 slot, 256 B
# PLAN: program 'Keyed'
# PLAN-NEXT: host orchestrator 'host': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0, 1]  1 slot, 256 B
