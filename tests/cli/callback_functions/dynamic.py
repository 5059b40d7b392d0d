"""Classes that make their attributes as they are read, or set them by name."""

import functools

from .chips import chip


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


class Caller:
    __call__ = staticmethod(key_a)


def make_caller():
    return Caller()
