import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, y):
    return x


@pl.jit.host
def main():
    a = pld.alloc_window_buffer(64)
    v = pld.window(a, [8], dtype=pl.FP32)
    w = pld.window(a, [8], dtype=pl.FP32)
    b = pld.alloc_window_buffer(64)
    u = pld.window(b, [8], dtype=pl.FP32)
    chip(v, 3)
    chip(v, w)
    chip(u, u, device=0)

# A view passed to a chip orchestrator in a call without device=: the unconsumed-alloc
# of its allocation points at each such call, once per call.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 5

# CHECK:      {{.*}}.py:12:5: error: allocation 'a' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# CHECK-NEXT: {{.*}}.py:13:5: note: a view of it is taken here
# CHECK-NEXT: {{.*}}.py:14:5: note: a view of it is taken here
# CHECK-NEXT: {{.*}}.py:17:5: note: 'chip' is called here without device=: the call is no dispatch
# CHECK-NEXT: {{.*}}.py:18:5: note: 'chip' is called here without device=: the call is no dispatch
