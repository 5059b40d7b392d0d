# A file reached twice, named twice or through a directory given too, is checked once,
# where it is first reached, as linters do: several/ holds four files, b_dead.py among
# them with one error.
# RUN: cd %S && %commscope-opt --no-config several/b_dead.py ./several/b_dead.py several several/sub/../b_dead.py > %t.out; test $? -eq 3
# RUN: %FileCheck --check-prefix=TEXT %s < %t.out
# TEXT: several/b_dead.py:{{.*}} [dead-alloc]
# TEXT-NOT: [dead-alloc]
# TEXT: Found 2 errors in 2 files (4 files checked).
# RUN: cd %S && %commscope-opt --no-config --format=json several/b_dead.py several > %t.json 2> /dev/null; test $? -eq 3
# RUN: %python -c "import json,sys; print([f['file'] for f in json.load(open(sys.argv[1]))['files']])" %t.json | %FileCheck --check-prefix=JSON %s
# JSON: ['several/b_dead.py', 'several/a_ring.py', 'several/sub/c_pair.py', 'several/sub/z_syntax.py']
# RUN: cd %S && %commscope-opt --no-config --format=sarif several/b_dead.py several/b_dead.py > %t.sarif 2> /dev/null; test $? -eq 1
# RUN: %python -c "import json,sys; print(len(json.load(open(sys.argv[1]))['runs'][0]['results']))" %t.sarif | %FileCheck --check-prefix=SARIF %s
# SARIF: 1
