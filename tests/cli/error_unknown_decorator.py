import functools

import pypto.language as pl


@functools.wraps(print)
@pl.jit.hots
def main(x):
    return x


@pl.program
class P:
    @pl.function(level=pl.Level.HOTS, role=pl.Role.Orchestrator)
    def host(self):
        pass

# unknown-decorator: a decorator of the DSL's module that the DSL does not define fails
# in Python, so the file is never clean: the function of no program rejects the file,
# the misspelled keyword value its program (exit 1).
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2

# ERR:      {{.*}}error_unknown_decorator.py:7:2: error: unknown decorator 'pl.jit.hots': the DSL has no such decorator [unknown-decorator]
# ERR-NEXT: {{.*}}error_unknown_decorator.py:14:6: error: unknown value 'pl.Level.HOTS' of level= in '@pl.function': the DSL has no such level [unknown-decorator]
