# A file that opens with a UTF-8 byte order mark: Python counts the columns of its first
# line from after the mark, so every format does too, and the caret stands under them.
# RUN: printf '\357\273\277x = )\n' > %t.syntax.py
# RUN: %commscope-opt --no-config --format=json %t.syntax.py > %t.out 2> %t.err; test $? -eq 3
# RUN: %FileCheck --check-prefix=SYNTAX --match-full-lines %s < %t.err
# SYNTAX: {{.*}}.syntax.py:1:5: error: unmatched ')' [syntax]
# RUN: %commscope-opt --no-config -q %t.syntax.py | %FileCheck --check-prefix=CARET --match-full-lines --strict-whitespace %s; test ${PIPESTATUS[0]} -eq 3
# CARET:{{.*}}.syntax.py:1:5: error: unmatched ')' [syntax]
# CARET-NEXT:    1 | x = )
# CARET-NEXT:      |     ^
#
# A decorator on the first line, and a suppression comment's unknown code there.
# RUN: printf '\357\273\277@pl.jit.hots  # commscope: ignore[dead-aloc]\ndef f():\n    pass\n' > %t.deco.py
# RUN: %commscope-opt --no-config --format=github %t.deco.py > %t.gh 2> %t.warn; test $? -eq 1
# RUN: %FileCheck --check-prefix=DECO %s < %t.gh
# RUN: %FileCheck --check-prefix=WARN %s < %t.warn
# DECO: ::error file={{.*}}.deco.py,line=1,col=2,title=commscope unknown-decorator::
# WARN: {{.*}}.deco.py:1:35: warning: unknown code 'dead-aloc' in a suppression comment
