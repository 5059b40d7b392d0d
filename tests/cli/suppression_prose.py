import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


def mentioned():
    @pl.jit.host
    def host():
        spare = pld.alloc_window_buffer(64)  # TODO: drop the commscope: ignore once fixed

    return host


def directive():
    @pl.jit.host
    def host():
        spare = pld.alloc_window_buffer(64)  # fmt: skip  #commscope: ignore

    return host


# A suppression is a directive that opens a comment (after its '#', blanks aside), as
# ruff reads `# noqa`: prose that mentions one, as in `mentioned`, suppresses nothing.
# RUN: %commscope-opt --no-config %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK: {{.*}}suppression_prose.py:13:9: error: allocation 'spare' has no window view [dead-alloc]
# CHECK: Found 1 error in 1 file (1 file checked, 1 suppressed).
