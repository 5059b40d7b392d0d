import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class NestedAllreduce:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(64)
        data = pld.window(buf, [16], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer(64)
        signal = pld.window(sbuf, [16], dtype=pl.INT32)
        self.chip(data, device=0)
        wrapped = (pld.tensor.allreduce(data, signal, op=pld.ReduceOp.SUM),)
        return wrapped

# An allreduce nested in an expression is malformed-op under signal synthesis, with its
# signal as without (the DSL's compiler accepts it nowhere else). Without synthesis the
# main pass alone accepts the program.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 1
# RUN: %commscope-opt --format=json --no-synthesize-signals %s > /dev/null

# ERR: {{.*}}synthesize_nested.py:18:20: error: an allreduce must be the whole value of an assignment, an expression statement or a return, never nested in an expression: a signal is bound before its statement [malformed-op]
