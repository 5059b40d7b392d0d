import pypto.language as pl

from stages import fill


def builder():
    from stages import make_getter

    return make_getter


@pl.jit.host
def run_getter():
    v = builder()()
    fill(v, device=3)
