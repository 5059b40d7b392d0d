"""Functions of the model's own that make the sort key they return."""

from .chips import chip

HANDLERS = {}


def _order(t):
    chip(t, t, device=5)
    return 0


HANDLERS["order"] = _order


def make_key(d):
    return lambda t: chip(t, t, device=d) or 0


def handler(name):
    return HANDLERS[name]


def shape_of(n):
    return [n, n]


def sorted_shape(n):
    dims = sorted([n, 64], key=lambda d: str(d))
    return dims


def made_inner(d):
    def inner(t):
        chip(t, t, device=d)
        return 0

    made = inner
    return made
