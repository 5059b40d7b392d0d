import pypto.language as pl


@pl.jit
def broken_chip(x:
    return x
