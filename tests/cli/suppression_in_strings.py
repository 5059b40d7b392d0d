import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    spare = pld.alloc_window_buffer(64); note = """it's # commscope: ignore """
    extra = pld.alloc_window_buffer(64); tag = '''a 'quoted' # commscope: ignore '''
    kept = pld.alloc_window_buffer(64); s = """a"b"""  # commscope: ignore


# A directive inside a string literal is string text, not a comment, a triple-quoted one
# holding a lone quote of its kind too: only `kept`'s dead-alloc is suppressed.
# RUN: %commscope-opt --no-config %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK: {{.*}}suppression_in_strings.py:12:5: error: allocation 'spare' has no window view [dead-alloc]
# CHECK: {{.*}}suppression_in_strings.py:13:5: error: allocation 'extra' has no window view [dead-alloc]
# CHECK: Found 2 errors in 1 file (1 file checked, 1 suppressed).
