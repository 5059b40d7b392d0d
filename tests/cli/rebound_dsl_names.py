import pypto.language as pl
import pypto.language.distributed as pld
from model_lib.lm_head import lm_head_test as stage


def helper(x):
    return x


@pl.jit
def chip(x):
    return x


def chip(x, device=0):
    return helper(x)


def stage(x, device=0):
    return x


@pl.jit.host
def host():
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(va, device=1)
    stage(va, device=2)


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def step(self, x):
        return x

    def step(self, x, device=0):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        b = pld.alloc_window_buffer(64)
        vb = pld.window(b, [16], dtype=pl.FP32)
        self.step(vb, device=1)


# A name calls what its scope binds it to last, as when the host orchestrator runs after
# its module has: a plain def below a DSL function of that name (or below an import of
# it) replaces it, so the call dispatches nothing (malformed-op, exit 1).
# RUN: %commscope-opt --no-config %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}rebound_dsl_names.py:27:5: error: call of unknown function 'chip': 'chip' is bound again on line 15, below the DSL function of line 11, which it no longer names [malformed-op]
# CHECK:{{.*}}rebound_dsl_names.py:28:5: error: call of unknown function 'stage' [malformed-op]
# CHECK:{{.*}}rebound_dsl_names.py:44:9: error: call of unknown function 'step': 'step' is bound again on line 37, below the DSL function of line 34, which it no longer names [malformed-op]
# CHECK:Found 3 errors in 1 file (1 file checked).
