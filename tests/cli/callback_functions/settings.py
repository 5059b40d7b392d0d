"""A model's configuration: a class whose instances hold functions of the model."""

from .chips import chip


def _hook(t):
    chip(t, t, device=3)
    return 0


class Base:
    inherited = staticmethod(_hook)


class Config(Base):
    shape = [64]

    def __init__(self):
        self.hook = _hook
        self.size = 64

    def order(self, t):
        chip(t, t, device=2)
        return 0

    def make(self, d):
        return lambda t: chip(t, t, device=d) or 0

    def shape_of(self, n):
        return [n, n]


class Holder:
    def __init__(self):
        self.cfg = Config()


cfg = Config()
holder = Holder()


def make_config():
    return Config()
