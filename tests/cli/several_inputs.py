# Several inputs (docs/commscope-opt.md, "Several inputs"): files and directories, the `files` /
# `summary` document in input order, diagnostics grouped by file, the worst exit status,
# and output that does not depend on -j. The directory several/ holds an accepted file,
# a rejected one, and under sub/ another accepted one and a syntax error; its hidden
# directory, __pycache__ and non-Python files are not read.
# RUN: cd %S && %commscope-opt --format=json -j1 several > %t.j1.out 2> %t.j1.err; test $? -eq 3
# RUN: %FileCheck --check-prefix=JSON %s < %t.j1.out
# RUN: %FileCheck --check-prefix=ERR %s < %t.j1.err
# JSON:      {
# JSON-NEXT:   "files": [
# JSON-NEXT:     {
# JSON-NEXT:       "file": "several/a_ring.py",
# JSON-NEXT:       "programs": [
# JSON-NEXT:         {
# JSON-NEXT:           "name": "a_ring",
# JSON:            "file": "several/b_dead.py",
# JSON:                "code": "dead-alloc",
# JSON:            "file": "several/sub/c_pair.py",
# JSON:                      "name": "pair_buf",
# JSON:            "file": "several/sub/z_syntax.py",
# JSON-NEXT:       "programs": [],
# JSON-NEXT:       "diagnostics": [
# JSON-NEXT:         {
# JSON-NEXT:           "code": "syntax",
# JSON:        ],
# JSON-NEXT:   "summary": {
# JSON-NEXT:     "files": 4,
# JSON-NEXT:     "programs": 3,
# JSON-NEXT:     "rejected": 1,
# JSON-NEXT:     "syntax_errors": 1
# JSON-NEXT:   }
# JSON-NEXT: }
# JSON-NOT: skipped
# ERR:      several/b_dead.py:7:5: error: allocation 'scratch' has no window view [dead-alloc]
# ERR-NEXT: several/sub/z_syntax.py:1:{{[0-9]+}}: error: {{.*}} [syntax]
# ERR-NOT: skipped
#
# The same bytes for every -j, and by default.
# RUN: cd %S && %commscope-opt --format=json -j4 several > %t.j4.out 2> %t.j4.err; test $? -eq 3
# RUN: cmp %t.j1.out %t.j4.out && cmp %t.j1.err %t.j4.err
# RUN: cd %S && %commscope-opt --format=json -j 3 several > %t.jd.out 2> %t.jd.err; test $? -eq 3
# RUN: cmp %t.j1.out %t.jd.out && cmp %t.j1.err %t.jd.err
# Over the whole corpus too (its files and its rejected/ folder).
# RUN: cd %S/../corpus && %commscope-opt --format=json -j1 --explain . > %t.c1.out 2> %t.c1.err; test $? -eq 3
# RUN: cd %S/../corpus && %commscope-opt --format=json -j4 --explain . > %t.c4.out 2> %t.c4.err; test $? -eq 3
# RUN: cmp %t.c1.out %t.c4.out && cmp %t.c1.err %t.c4.err
#
# Each entry is the file's own plan, as if it were given alone.
# RUN: cd %S && %commscope-opt --format=json several/sub/c_pair.py > %t.alone.json
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); e=d['files'][2]; e.pop('file'); assert e == json.load(open(sys.argv[2])), e" %t.j1.out %t.alone.json
#
# Files and directories in the order given; the worst status wins (1 here: no syntax error).
# RUN: cd %S && %commscope-opt --format=json several/sub/c_pair.py several/b_dead.py several/a_ring.py > %t.order.out 2>/dev/null; test $? -eq 1
# RUN: %FileCheck --check-prefix=ORDER %s < %t.order.out
# ORDER: "file": "several/sub/c_pair.py",
# ORDER: "file": "several/b_dead.py",
# ORDER: "file": "several/a_ring.py",
# ORDER: "rejected": 1,
#
# An unreadable file among several: its message in its place, an entry with "error",
# the others still analyzed, exit 2.
# RUN: cd %S && %commscope-opt --format=json several/a_ring.py several/missing.py several/b_dead.py > %t.io.out 2> %t.io.err; test $? -eq 2
# RUN: %FileCheck --check-prefix=IO %s < %t.io.out
# RUN: %FileCheck --check-prefix=IOERR %s < %t.io.err
# IO:      "file": "several/missing.py",
# IO-NEXT: "programs": [],
# IO-NEXT: "diagnostics": [],
# IO-NEXT: "error": "cannot open 'several/missing.py': No such file or directory"
# IO:      "file": "several/b_dead.py",
# IO:      "files": 3,
# IOERR:      commscope-opt: error: cannot open 'several/missing.py'
# IOERR-NEXT: several/b_dead.py:7:5: error: allocation 'scratch' has no window view [dead-alloc]
#
# --emit=both and --emit=dot: one document per file in the same entries.
# RUN: cd %S && %commscope-opt --format=json --emit=both several/sub > %t.both.out 2>/dev/null; test $? -eq 3
# RUN: %FileCheck --check-prefix=BOTH %s < %t.both.out
# BOTH:      "file": "several/sub/c_pair.py",
# BOTH:      "ir": "import pypto.language as pl\n
# BOTH:      "file": "several/sub/z_syntax.py",
# BOTH:      "ir": null
# RUN: cd %S && %commscope-opt --format=json --emit=dot several/sub > %t.dot.out 2>/dev/null; test $? -eq 3
# RUN: %FileCheck --check-prefix=DOT %s < %t.dot.out
# DOT:      "file": "several/sub/c_pair.py",
# DOT:      "dot": "digraph commscope {\n
# DOT:      "file": "several/sub/z_syntax.py",
# DOT:      "dot": "digraph commscope {\n
