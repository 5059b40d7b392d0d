import pypto.language as pl

@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        x = 1
	pass

# A tab in the indentation is a syntax error: exit 3, `program` null, one `syntax`
# diagnostic with its line and column, on stderr and in the JSON.
# RUN: %commscope-opt %s > %t.out 2> %t.err; test $? -eq 3
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: %FileCheck --check-prefix=JSON %s < %t.out
# With --emit=ir nothing is printed; with --emit=both the IR is null.
# RUN: %commscope-opt --emit=ir %s > %t.ir; test $? -eq 3 && test ! -s %t.ir
# RUN: %commscope-opt --emit=both %s | %FileCheck --check-prefix=BOTH %s; test ${PIPESTATUS[0]} -eq 3
# ERR: {{.*}}syntax_tab.py:8:1: error: tab character in indentation (indent with spaces) [syntax]
# ERR-EMPTY:
# JSON:      {
# JSON-NEXT:   "program": null,
# JSON-NEXT:   "functions": [],
# JSON-NEXT:   "diagnostics": [
# JSON-NEXT:     {
# JSON-NEXT:       "code": "syntax",
# JSON-NEXT:       "message": "tab character in indentation (indent with spaces)",
# JSON-NEXT:       "line": 8,
# JSON-NEXT:       "column": 1
# JSON-NEXT:     }
# JSON-NEXT:   ]
# JSON-NEXT: }
# BOTH: "program": null,
# BOTH: "ir": null
