# The GitHub format names a file as the repository does: GitHub matches `file=` against
# the paths of the diff as written, so `./m.py` (as `find .` passes it) or `sub/../m.py`
# would annotate no line. The text format keeps the path as given.
# RUN: rm -rf %t && mkdir -p %t/sub && cp %s %t/m.py
# RUN: cd %t && %commscope-opt --no-config --format=github ./m.py sub/../m.py ./gone.py > %t.gh; test $? -eq 2
# RUN: %FileCheck --check-prefix=GH --implicit-check-not=file=. %s < %t.gh
# GH: ::error file=m.py,line=17,col=9,title=commscope dead-alloc::
# GH: ::error file=gone.py,title=commscope::cannot open
# RUN: cd %t && %commscope-opt --no-config -q ./m.py | %FileCheck --check-prefix=TEXT %s; test ${PIPESTATUS[0]} -eq 1
# TEXT: ./m.py:17:9: error: allocation 'spare' has no window view [dead-alloc]
import pypto.language.distributed as pld


def test_spare():
    @pl.jit.host
    def h():
        spare = pld.alloc_window_buffer(64)
