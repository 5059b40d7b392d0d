# --emit=dot on several inputs: the pictures one after another on standard output, so
# that `| dot -Tsvg` renders them, or with -o DIR one STEM.dot per input under DIR,
# mirroring the input tree; diagnostics go to standard error in the text form.
# RUN: cd %S && %commscope-opt --emit=dot several > %t.dots 2> %t.err; test $? -eq 3
# RUN: %FileCheck --check-prefix=STDOUT %s < %t.dots
# STDOUT:      digraph commscope {
# STDOUT:      graph [label="several/a_ring.py"
# STDOUT:      digraph commscope {
# STDOUT:      graph [label="several/b_dead.py"
# STDOUT:      digraph commscope {
# STDOUT:      graph [label="several/sub/c_pair.py"
# STDOUT:      digraph commscope {
# STDOUT:      graph [label="several/sub/z_syntax.py"
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# ERR: several/b_dead.py:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}[dead-alloc]
# ERR: Found 2 errors in 2 files (4 files checked).
# RUN: if command -v dot > /dev/null; then dot -Tsvg %t.dots > %t.svg && grep -c '<svg' %t.svg | grep -qx 4; fi
#
# RUN: rm -rf %t.pictures && cd %S && %commscope-opt --emit=dot -o %t.pictures several > %t.o.out 2> %t.o.err; test $? -eq 3
# RUN: cd %t.pictures && find . -type f | sort | %FileCheck --check-prefix=FILES %s
# FILES:      ./several/a_ring.dot
# FILES-NEXT: ./several/b_dead.dot
# FILES-NEXT: ./several/sub/c_pair.dot
# FILES-NEXT: ./several/sub/z_syntax.dot
# RUN: head -n 1 %t.pictures/several/a_ring.dot | %FileCheck --check-prefix=ONE %s
# ONE: digraph commscope {
# RUN: %FileCheck --check-prefix=SUMMARY %s < %t.o.out
# SUMMARY: Found 2 errors in 2 files (4 files checked).
#
# Two inputs that -o DIR would draw to one picture (`..` is dropped to stay inside DIR)
# are a usage error before anything is written; one file named twice is drawn once.
# RUN: rm -rf %t.clash && mkdir -p %t.clash/in/inner
# RUN: cp %S/several/a_ring.py %t.clash/in/m.py && cp %S/several/sub/c_pair.py %t.clash/in/inner/m.py
# RUN: cd %t.clash/in/inner && %commscope-opt --emit=dot -o ../out m.py ../m.py 2> %t.clash.err; test $? -eq 2
# RUN: %FileCheck --check-prefix=CLASH %s < %t.clash.err
# CLASH: commscope-opt: error: 'm.py' and '../m.py' would both be drawn to '../out/m.dot': check them in separate runs, or from a directory above both
# RUN: test ! -e %t.clash/in/out
# RUN: cd %t.clash/in/inner && %commscope-opt --emit=dot -o ../out m.py ./m.py
# RUN: test -f %t.clash/in/out/m.dot && test $(find %t.clash/in/out -type f | wc -l) -eq 1
#
# --format=json does not take the pictures back from -o DIR: they are written, and no
# `files` document is printed in their stead.
# RUN: rm -rf %t.json_pictures && cd %S && %commscope-opt --format=json --emit=dot -o %t.json_pictures several/a_ring.py several/sub/c_pair.py > %t.json.out
# RUN: test -f %t.json_pictures/several/a_ring.dot && test -f %t.json_pictures/several/sub/c_pair.dot
# RUN: test ! -s %t.json.out
