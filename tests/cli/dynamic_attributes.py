import functools
from callback_functions import dynamic
from callback_functions.chips import chip
import pypto.language as pl
import pypto.language.distributed as pld


def key_a(t):
    chip(t, t, device=3)
    return 0


class Dynamic:
    def __getattr__(self, name):
        return key_a


class Props:
    @property
    def shape(self):
        return [64]

    @property
    def key(self):
        return key_a

    @functools.cached_property
    def size(self):
        return 64


class Late:
    @classmethod
    def setup(cls):
        cls.key = staticmethod(key_a)


class Setter:
    def __init__(self):
        setattr(self, "key", key_a)


dyn = Dynamic()
props = Props()
late = Late()
setter = Setter()
plain = Props()
plain.extra = key_a


@pl.jit.host
def made_when_read(x):
    a = pld.alloc_window_buffer(256)
    va = pld.window(a, [64], dtype=pl.FP32)
    chip(x, va, device=0)
    views = [va, va]
    views.sort(key=dyn.anything)
    views.sort(key=props.key)
    Late.setup()
    views.sort(key=late.key)
    views.sort(key=setter.key)
    views.sort(key=plain.extra)


@pl.jit.host
def imported(x):
    b = pld.alloc_window_buffer(256)
    vb = pld.window(b, [64], dtype=pl.FP32)
    chip(x, vb, device=0)
    views = [vb, vb]
    views.sort(key=dynamic.dyn.anything)
    views.sort(key=dynamic.props.key)
    dynamic.Late.setup()
    views.sort(key=dynamic.late.key)
    views.sort(key=dynamic.setter.key)
    views.sort(key=dynamic.plain.extra)
    views.sort(key=dynamic.make_caller())


@pl.jit.host
def values(x):
    c = pld.alloc_window_buffer(256)
    vc = pld.window(c, [64], dtype=pl.FP32)
    for r in range(pld.world_size()):
        chip(x, vc, device=r)
    vc.reshape(props.shape)
    vc.reshape([props.size])
    vc.reshape(dynamic.props.shape)
    vc.reshape([dynamic.props.size])


# An attribute may be made as it is read (`__getattr__`, a property) or set by name
# (`setattr`, a classmethod's `cls.key`, `obj.key = f` outside the class): what those
# give is followed, in this file and in a module of the model.
# RUN: %commscope-opt -I %S %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: dynamic_attributes.py:57:5: error: a view of allocation 'a' is, or is held by, the object of 'views.sort', which is given 'dyn.anything', which may hold 'key_a': the method may call it with the object, a call the pass does not follow [view-escapes]
# CHECK: dynamic_attributes.py:58:5: error: {{.*}} which is given 'props.key', which may hold 'key_a'
# CHECK: dynamic_attributes.py:60:5: error: {{.*}} which is given 'late.key', which may hold 'key_a'
# CHECK: dynamic_attributes.py:61:5: error: {{.*}} which is given 'setter.key', which may hold 'key_a'
# CHECK: dynamic_attributes.py:62:5: error: {{.*}} which is given 'plain.extra', which may hold 'key_a'
# CHECK: dynamic_attributes.py:71:5: error: {{.*}} which is given 'dynamic.dyn.anything', which may hold a function of its module
# CHECK: dynamic_attributes.py:72:5: error: {{.*}} which is given 'dynamic.props.key', which may hold a function of its module
# CHECK: dynamic_attributes.py:74:5: error: {{.*}} which is given 'dynamic.late.key', which may hold a function of its module
# CHECK: dynamic_attributes.py:75:5: error: {{.*}} which is given 'dynamic.setter.key', which may hold a function of its module
# CHECK: dynamic_attributes.py:76:5: error: {{.*}} which is given 'dynamic.plain.extra', which may hold a function of its module
# CHECK: dynamic_attributes.py:77:5: error: {{.*}} which is given what 'dynamic.make_caller' returns, which may hold a function of its module
# CHECK-NOT: error
# CHECK: Found 11 errors in 1 file (1 file checked).

# Without the keys, the plans: device 0 for the first two, which the keys widen (device 3
# under CPython), and every device for the third.
# RUN: sed -e "s/views.sort(.*)$/views.sort(key=len)/" %s > %t.plain.py && %commscope-opt -I %S %t.plain.py | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'made_when_read': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'imported': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'values': 1 comm domain
# PLAN-NEXT: comm_d0  devices all  1 slot, 256 B
