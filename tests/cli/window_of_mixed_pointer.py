import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x, c):
    a_buf = pld.alloc_window_buffer(64)
    b_buf = pld.alloc_window_buffer(64)
    v = pld.window(b_buf, [16], dtype=pl.FP32)
    chip(x, v, device=0)
    p = a_buf if c else v
    w = pld.window(p, [16], dtype=pl.FP32)
    chip(x, w, device=1)
    if c:
        q = v
    else:
        q = a_buf
    u = pld.window(q, [16], dtype=pl.FP32)
    chip(x, u, device=2)


# A window pointer that may be an allocation's pointer or a view (a conditional
# expression, a variable rebound in a branch) is a view of the allocation, and the view's
# allocation would be used on devices 1 and 2 uncounted (b_buf got device 0 alone):
# view-escapes at each such window, naming the view's allocation; nothing else.
# RUN: %commscope-opt %s > %t.err 2>&1; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.err
# RUN: test $(grep -c 'error:' %t.err) -eq 2
# CHECK: {{.*}}window_of_mixed_pointer.py:17:5: error: a view of allocation 'b_buf' is an operand of 'window'{{.*}}[view-escapes]
# CHECK: {{.*}}window_of_mixed_pointer.py:14:5: note: a view of it is taken here
# CHECK: {{.*}}window_of_mixed_pointer.py:23:5: error: a view of allocation 'b_buf' is an operand of 'window'{{.*}}[view-escapes]
# CHECK: {{.*}}window_of_mixed_pointer.py:14:5: note: a view of it is taken here
