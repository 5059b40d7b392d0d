# A module two inputs import, with a syntax error: reported once per run.
import pypto.language as pl


@pl.jit
def chip(x:
    return x
