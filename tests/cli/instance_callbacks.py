from dataclasses import dataclass, field

from callback_functions import settings
from callback_functions.chips import chip
from callback_functions.settings import Config as ModelConfig, cfg as model_cfg
import pypto.language as pl
import pypto.language.distributed as pld


def key_a(t):
    chip(t, t, device=3)
    return 0


class Base:
    inherited = staticmethod(key_a)


class Config(Base):
    shape = [64]

    def __init__(this):
        this.hook = key_a
        this.size = 64

    def order(self, t):
        chip(t, t, device=2)
        return 0

    def make(self, d):
        return lambda t: chip(t, t, device=d) or 0

    def shape_of(self, n):
        return [n, n]


class Outer:
    def __init__(self):
        self.cfg = Config()

    def config(self):
        return Config()


@dataclass
class ModelArgs:
    dim: int = 64
    shape: list = field(default_factory=lambda: [64, 64])
    dims: list = field(default_factory=list)
    key: object = key_a


cfg = Config()
outer = Outer()
args = ModelArgs()


def make_config():
    return Config()


@pl.jit.host
def instances(x):
    a = pld.alloc_window_buffer(256)
    va = pld.window(a, [64], dtype=pl.FP32)
    chip(x, va, device=0)
    views = [va, va]
    views.sort(key=cfg.order)
    views.sort(key=cfg.make(3))
    views.sort(key=cfg.inherited)
    views.sort(key=cfg.hook)
    views.sort(key=outer.cfg.hook)
    local = make_config()
    views.sort(key=local.hook)
    views.sort(key=Config.inherited)
    views.sort(key=args.key)


@pl.jit.host
def imported_instances(x):
    b = pld.alloc_window_buffer(256)
    vb = pld.window(b, [64], dtype=pl.FP32)
    chip(x, vb, device=0)
    views = [vb, vb]
    views.sort(key=model_cfg.hook)
    views.sort(key=settings.cfg.order)
    views.sort(key=settings.holder.cfg.inherited)
    made = ModelConfig()
    views.sort(key=made.make(1))
    alias = model_cfg
    views.sort(key=alias.order)


@pl.jit.host
def plain_members(x):
    c = pld.alloc_window_buffer(256)
    vc = pld.window(c, [64], dtype=pl.FP32)
    for r in range(pld.world_size()):
        chip(x, vc, device=r)
    vc.reshape(cfg.shape)
    vc.reshape(cfg.shape_of(8))
    vc.reshape([cfg.size])
    vc.reshape(outer.cfg.shape)
    vc.reshape(model_cfg.shape)
    vc.reshape(settings.cfg.shape_of(8))
    vc.reshape([settings.holder.cfg.size])
    vc.reshape(Config.shape)
    vc.reshape(settings.Config.shape)
    vc.reshape(args.shape)
    vc.reshape([args.dim])
    vc.reshape(args.dims)



@pl.jit.host
def made_objects(x):
    d = pld.alloc_window_buffer(256)
    vd = pld.window(d, [64], dtype=pl.FP32)
    chip(x, vd, device=0)
    views = [vd, vd]
    views.sort(key=make_config().hook)
    configs = {"a": Config()}
    views.sort(key=configs["a"].hook)
    views.sort(key=Config().hook)
    views.sort(key=settings.make_config().hook)
    views.sort(key=outer.config().hook)
    vd.reshape(make_config().shape)
    vd.reshape(configs["a"].shape)
    vd.reshape(Config().shape)
    vd.reshape(settings.make_config().shape)
    vd.reshape(outer.config().shape)


class Model:
    def __init__(self):
        self.configs = {"a": Config()}

    def make(self):
        return Config()

    @pl.jit.host
    def method(self, x):
        e = pld.alloc_window_buffer(256)
        ve = pld.window(e, [64], dtype=pl.FP32)
        chip(x, ve, device=0)
        views = [ve, ve]
        views.sort(key=self.make().hook)
        views.sort(key=self.configs["a"].hook)
        ve.reshape(self.make().shape)
        ve.reshape(self.configs["a"].shape)

# An instance's attributes are what its class makes of them: a method, a class attribute
# (its bases' too), what a method sets of its first parameter, and the attributes of the
# instances those hold, in this file or in a module of the model.
# RUN: %commscope-opt -I %S %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: instance_callbacks.py:68:5: error: a view of allocation 'a' is, or is held by, the object of 'views.sort', which is given 'cfg.order', which may hold 'Config.order': the method may call it with the object, a call the pass does not follow [view-escapes]
# CHECK: instance_callbacks.py:69:5: error: {{.*}} which is given 'cfg.make(...)', which may hold a lambda
# CHECK: instance_callbacks.py:70:5: error: {{.*}} which is given 'cfg.inherited', which may hold 'key_a'
# CHECK: instance_callbacks.py:71:5: error: {{.*}} which is given 'cfg.hook', which may hold 'key_a'
# CHECK: instance_callbacks.py:72:5: error: {{.*}} which is given 'outer.cfg.hook', which may hold 'key_a'
# CHECK: instance_callbacks.py:74:5: error: {{.*}} which is given 'local.hook', which may hold 'key_a'
# CHECK: instance_callbacks.py:75:5: error: {{.*}} which is given 'Config.inherited', which may hold 'key_a'
# CHECK: instance_callbacks.py:76:5: error: {{.*}} which is given 'args.key', which may hold 'key_a'
# CHECK: instance_callbacks.py:85:5: error: {{.*}} which is given 'model_cfg.hook', which may hold a function of its module
# CHECK: instance_callbacks.py:86:5: error: {{.*}} which is given 'settings.cfg.order', which may hold a function of its module
# CHECK: instance_callbacks.py:87:5: error: {{.*}} which is given 'settings.holder.cfg.inherited', which may hold a function of its module
# CHECK: instance_callbacks.py:89:5: error: {{.*}} which is given 'made.make(...)', which may hold an instance of 'ModelConfig', whose attributes read here may hold a function of its module
# CHECK: instance_callbacks.py:91:5: error: {{.*}} which is given 'alias.order', which may hold 'model_cfg', whose attributes read here may hold a function of its module
# CHECK: instance_callbacks.py:121:5: error: {{.*}} which is given 'make_config(...).hook', which may hold 'key_a'
# CHECK: instance_callbacks.py:123:5: error: {{.*}} which is given 'configs[...].hook', which may hold 'key_a'
# CHECK: instance_callbacks.py:124:5: error: {{.*}} which is given 'Config(...).hook', which may hold 'key_a'
# CHECK: instance_callbacks.py:125:5: error: {{.*}} which is given 'settings.make_config(...).hook', which may hold a function of its module
# CHECK: instance_callbacks.py:126:5: error: {{.*}} which is given 'outer.config(...).hook', which may hold 'key_a'
# CHECK: instance_callbacks.py:147:9: error: {{.*}} which is given what 'make' returns, which may hold 'key_a'
# CHECK: instance_callbacks.py:148:9: error: {{.*}} which is given 'self.configs.hook', which may hold 'key_a'
# CHECK-NOT: error
# CHECK: Found 20 errors in 1 file (1 file checked).

# Without the keys, the plans: devices 0 for the first two, which the keys widen
# (devices 2 and 3 under CPython), every device for the third, and device 0 for the
# fourth and the method (3 with the keys).
# RUN: sed -e "s/views.sort(.*)$/views.sort(key=len)/" %s > %t.plain.py && %commscope-opt -I %S %t.plain.py | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'instances': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'imported_instances': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'plain_members': 1 comm domain
# PLAN-NEXT: comm_d0  devices all  1 slot, 256 B
# PLAN: host orchestrator 'made_objects': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: program 'Model'
# PLAN-NEXT: host orchestrator 'method': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
