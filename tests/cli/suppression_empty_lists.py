import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class EmptyLists:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        spare = pld.alloc_window_buffer(64)  # commscope: ignore[]
        extra = pld.alloc_window_buffer(64)  # commscope: ignore[ , ]
        other = pld.alloc_window_buffer(64)  # commscope: ignore[dead-alloc
        kept = pld.alloc_window_buffer(64)  # commscope: ignore[dead-alloc]
        return spare, extra, other, kept


# A suppression comment whose brackets hold no code, or whose '[' is never closed,
# suppresses nothing: its diagnostic is reported, and a warning on standard error says
# why, at the '['. A well-formed one beside them still suppresses (`kept`).
# RUN: %commscope-opt --no-config %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=WARN --match-full-lines %s < %t.err
# WARN: {{.*}}suppression_empty_lists.py:9:65: warning: a suppression comment with no code in its brackets suppresses nothing: list the codes, or write '# commscope: ignore' for every code
# WARN-NEXT: {{.*}}suppression_empty_lists.py:10:65: warning: a suppression comment with no code in its brackets suppresses nothing: list the codes, or write '# commscope: ignore' for every code
# WARN-NEXT: {{.*}}suppression_empty_lists.py:11:65: warning: a suppression comment whose '[' is not closed suppresses nothing: close its list with ']'
# WARN-NOT: {{.}}
# RUN: %FileCheck --check-prefix=TEXT %s < %t.out
# TEXT: suppression_empty_lists.py:9:9: error: allocation 'spare' has no window view [dead-alloc]
# TEXT: suppression_empty_lists.py:10:9: error: allocation 'extra' has no window view [dead-alloc]
# TEXT: suppression_empty_lists.py:11:9: error: allocation 'other' has no window view [dead-alloc]
# TEXT: Found 3 errors in 1 file (1 file checked, 1 suppressed).
