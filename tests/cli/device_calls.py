# A device= evaluates no call: `device=int(r)` is unsupported-device, and the message says
# that int(...) is a call instead of suggesting `-D int=INT`, which would bind no
# function. A name the file leaves open beside the call is still named, with -D.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK: {{.*}}device_calls.py:25:9: error: cannot infer the devices of the dispatch of 'stage' from its device= expression: 'int(...)' is a call, which device= does not evaluate [unsupported-device]
# CHECK: {{.*}}help: pass the loop variable or a constant itself: device= takes no calls
# CHECK: {{.*}}device_calls.py:28:9: error: cannot infer the devices of the dispatch of 'stage' from its device= expression: 'OFFSET' is not bound to an integer constant in this file (bind it with -D OFFSET=INT); 'min(...)' is a call, which device= does not evaluate [unsupported-device]
# RUN: ! grep -e '-D int=' -e '-D min=' %t.out
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(x, data):
    return x


@pl.jit.host
def pipeline(x):
    a = pld.alloc_window_buffer(64)
    b = pld.alloc_window_buffer(64)
    for r in pl.range(4):
        v = pld.window(a, [16], dtype=pl.FP32)
        stage(x[r], v, device=int(r))
    for r in pl.range(4):
        w = pld.window(b, [16], dtype=pl.FP32)
        stage(x[r], w, device=min(r, 3) + OFFSET)
    return x
