import pypto.language as pl
import pypto.language.distributed as pld


class _Ring:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x):
        buf = pld.alloc_window_buffer(64)


Ring = pl.program(_Ring)


# A program is a class the DSL's decorator marks: made by a call of it instead, it would
# drop out of the check, and the help says how to write it.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: program_wrapped_call.py:11:8: error: cannot read 'Ring = pl.program(_Ring)', whose DSL function the check would skip: '_Ring' is a class [unknown-decorator]
# CHECK: help: decorate the class itself with '@pl.program'
