import pypto.language as pl

@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        x = 1
	pass

# Indentation that is ambiguous between tabs and spaces is a syntax error, as in
# Python: exit 3, no programs, one `syntax`
# diagnostic with its line and column, on stderr and in the JSON.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 3
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: %FileCheck --check-prefix=JSON %s < %t.out
# With --emit=ir nothing is printed; with --emit=both the IR is null.
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir; test $? -eq 3 && test ! -s %t.ir
# RUN: %commscope-opt --format=json --emit=both %s | %FileCheck --check-prefix=BOTH %s; test ${PIPESTATUS[0]} -eq 3
# ERR: {{.*}}syntax_tab.py:8:1: error: inconsistent use of tabs and spaces in indentation [syntax]
# ERR-EMPTY:
# JSON:      {
# JSON-NEXT:   "programs": [],
# JSON-NEXT:   "diagnostics": [
# JSON-NEXT:     {
# JSON-NEXT:       "code": "syntax",
# JSON-NEXT:       "message": "inconsistent use of tabs and spaces in indentation",
# JSON-NEXT:       "line": 8,
# JSON-NEXT:       "column": 1,
# JSON-NEXT:       "notes": []
# JSON-NEXT:     }
# JSON-NEXT:   ]
# JSON-NEXT: }
# BOTH: "programs": [],
# BOTH: "ir": null
