import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, v):
    return x


@pl.jit.host
def host(x, n):
    buf = pld.alloc_window_buffer(256)
    v = pld.window(buf, [64], dtype=pl.FP32)
    s = """
    # commscope: ignore[unsupported-device] is text of the string here
    """; chip(x, v, device=n)  # commscope: ignore[unsupported-device]
    doc = '''
    '''; chip(x, v, device=n + 1)


# A comment is found as Python finds it: after the end of a triple-quoted string that an
# earlier line opened. A directive inside the string is text, and suppresses nothing.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK-NOT: :16:
# CHECK: suppression_after_strings.py:18:10: error: {{.*}} [unsupported-device]
# CHECK: Found 1 error in 1 file (1 file checked, 1 suppressed).
