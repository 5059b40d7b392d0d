# RUN: printf 'import pypto.language as pl\n\n# caf\303\251 \377\n' > %t.py
# RUN: %commscope-opt --format=json %t.py > %t.out 2> %t.err; test $? -eq 3
# RUN: %FileCheck --match-full-lines %s < %t.err
# A file that is not valid UTF-8 is a syntax error at the first bad byte, as Python
# reports it (position: the byte's offset in the file; column: characters before it).
# CHECK: {{.*}}.py:3:8: error: (unicode error) 'utf-8' codec can't decode byte 0xff in position 37: invalid start byte [syntax]
