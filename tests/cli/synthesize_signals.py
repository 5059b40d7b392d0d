# Signal synthesis runs before the main pass (docs/semantics.md, "The companion pass"): each
# signal-less allreduce gets three bindings before its statement and its signal as the
# second argument, and the signal window joins the data's domain. The rewritten call
# keeps its keywords and its author's comment. --no-synthesize-signals runs the main pass
# alone, which refuses the call. The output is a fixed point of the whole pipeline.
# RUN: %commscope-opt --format=json --emit=ir %s > %t.py
# RUN: %FileCheck --check-prefix=IR --match-full-lines %s < %t.py
# RUN: %commscope-opt --format=json %s | %FileCheck --check-prefix=PLAN %s
# RUN: %commscope-opt --format=json --emit=ir %t.py | diff %t.py -
# RUN: %commscope-opt --format=json --no-synthesize-signals %s 2>&1 >/dev/null | %FileCheck --check-prefix=ALONE %s; test ${PIPESTATUS[0]} -eq 1
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    buf = pld.alloc_window_buffer(64)
    d = pld.window(buf, [16], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        chip(d, device=r)
    d = pld.tensor.allreduce(
        d,
        op=pld.ReduceOp.Sum,
        core_num=2,
    )  # summed
    return d

# IR:      def host():
# IR-NEXT:     with pld.comm_domain("comm_d0", devices="all", slots=[buf, __allreduce_signal_buf_0]):
# IR-NEXT:         buf = pld.alloc_window_buffer(64)
# IR-NEXT:         d = pld.window(buf, [16], dtype=pl.FP32) # window_buffer=buf
# IR-NEXT:         for r in pl.range(pld.world_size()):
# IR-NEXT:             chip(d, device=r)
# IR-NEXT:         __allreduce_signal_world_size_0 = pld.system.world_size()
# IR-NEXT:         __allreduce_signal_buf_0 = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * 2 * 4)
# IR-NEXT:         __allreduce_signal_0 = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 2], dtype=pl.INT32) # window_buffer=__allreduce_signal_buf_0
# IR-NEXT:         d = pld.tensor.allreduce(d, __allreduce_signal_0, op=pld.ReduceOp.Sum, core_num=2)  # summed
# IR-NEXT:         return d

# PLAN:      "slots": [
# PLAN:        "name": "__allreduce_signal_buf_0",
# PLAN-NEXT:   "size": "__allreduce_signal_world_size_0 * 2 * 4"
# PLAN:        "name": "__allreduce_signal_0",
# PLAN-NEXT:   "window_buffer": "__allreduce_signal_buf_0"

# ALONE: {{.*}}synthesize_signals.py:26:9: error: operation 'allreduce' takes 2 positional arguments, got 1 [malformed-op]
