import pypto.language as pl
import pypto.language.distributed as pld

TP = 4


@pl.jit
def stage(x, data):
    return x


@pl.jit.host
def pipeline(x):
    ring = pld.alloc_window_buffer(64)
    last = pld.alloc_window_buffer(64)
    upper = pld.alloc_window_buffer(64)
    odd = pld.alloc_window_buffer(64)
    for r in pl.range(TP - 1, -1, -1):
        v = pld.window(ring, [16], dtype=pl.FP32)
        stage(x[r], v, device=r)
    w = pld.window(last, [16], dtype=pl.FP32)
    stage(x, w, device=TP - 1)
    half = TP // 2
    for r in pl.range(half, NR * 2 - TP):
        u = pld.window(upper, [16], dtype=pl.FP32)
        stage(x[r], u, device=r)
    for r in pl.range(1, 2 ** 3 % 5 + TP, -(-2)):
        o = pld.window(odd, [16], dtype=pl.FP32)
        stage(x[r], o, device=r)


def build():
    @pl.jit.host
    def undefined(x):
        b = pld.alloc_window_buffer(64)
        v = pld.window(b, [16], dtype=pl.FP32)
        stage(x, v, device=TP // 0)

    return undefined


# Arithmetic on integer constants (literals, the file's constants, -D names: + - * //
# % ** and unary -) is the integer Python computes, wherever the pass reads an integer:
# device=, a loop's bounds, a temporary. The plan's sets are those the program dispatches
# to when it runs (with TP = 4, NR = 4). A division by zero has no value (Python fails
# there): unsupported-device.
# RUN: %commscope-opt --format=json -D NR=4 %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %python %S/scripts/plan_summary.py < %t.out | %FileCheck --check-prefix=PLAN %s
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# RUN: %python %S/scripts/execute_with_stub_dsl.py --world 8 -D NR=4 %s | %FileCheck --check-prefix=EXEC %s
# PLAN:      SCOPE comm_d0 [0, 1, 2, 3]: ring=64
# PLAN-NEXT: SCOPE comm_d1 [3]: last=64
# PLAN-NEXT: SCOPE comm_d2 [2, 3]: upper=64
# PLAN-NEXT: SCOPE comm_d3 [1, 3, 5]: odd=64
# EXEC:      ALLOCATION ring [0, 1, 2, 3]
# EXEC-NEXT: ALLOCATION last [3]
# EXEC-NEXT: ALLOCATION upper [2, 3]
# EXEC-NEXT: ALLOCATION odd [1, 3, 5]
# ERR: device_constant_expressions.py:37:9: error: cannot infer the devices of the dispatch of 'stage' from its device= expression, which is neither an integer constant nor a variable [unsupported-device]
