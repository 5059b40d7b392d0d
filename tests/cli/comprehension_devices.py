import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x: pl.Tensor[[4, 16], pl.FP32]):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    r = 3
    chip(x[0], v, device=r)
    outs = [chip(x[r], v, device=r) for r in pl.range(2)]
    return outs


# A comprehension's variable shadows the function's own in its element, which Python
# evaluates after the `for` binds it: device=r is the comprehension's r (0 and 1), not 3.
# The analysis does not iterate comprehensions: unsupported-device, saying why, never a
# device set of {3}.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}comprehension_devices.py:16:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression: 'r' is bound by a comprehension or a lambda, which the analysis does not iterate [unsupported-device]
# CHECK-NEXT:   16 |     outs = [chip(x[r], v, device=r) for r in pl.range(2)]
# CHECK-NEXT:      |             ^~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:help: dispatch in a for loop over pl.range(...) in the host body instead
# CHECK-NEXT:Found 1 error in 1 file (1 file checked).
