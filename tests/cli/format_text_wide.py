# The caret stands under its column on a line with wide characters (CJK takes two cells
# of a terminal) and combining marks (none), and the `~` under the rest of the statement
# counts cells too.
# RUN: %commscope-opt --no-config -q %s | %FileCheck --strict-whitespace --match-full-lines %s; test ${PIPESTATUS[0]} -eq 1
# CHECK:{{.*}}format_text_wide.py:16:26: error: allocation '缓冲' has no window view [dead-alloc]
# CHECK-NEXT:   16 |     s = "日本語"; t = "é"; spare = pld.alloc_window_buffer(64, name="缓冲")
# CHECK-NEXT:      |                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:help: take a view of it with pld.window(...) and dispatch the view, or remove the allocation
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def host():
    # 注释: a comment line of wide characters before the diagnostic's line
    s = "日本語"; t = "é"; spare = pld.alloc_window_buffer(64, name="缓冲")
