# Inputs that cannot be read are errors (exit status 2), never skipped: a directory that
# cannot be listed, given or met below one, and standard input that cannot be read or is
# given twice. Listing is denied to an unprivileged user (root reads every directory),
# so the tool runs as `nobody` when the test runs as root, from a copy that any user can
# run (the build tree's folders may not let it in).
# RUN: rm -rf %t.d && mkdir -p %t.d/tree/ok %t.d/tree/locked && cp %commscope-opt %t.d/opt
# RUN: cp %S/several/a_ring.py %t.d/tree/ok/a.py && printf 'x = (\n' > %t.d/tree/locked/bad.py
# RUN: chmod 755 %t.d %t.d/tree %t.d/opt && chmod 000 %t.d/tree/locked
# RUN: cd %t.d && if [ "$(id -u)" = 0 ]; then as=(setpriv --reuid=65534 --regid=65534 --clear-groups); else as=(); fi; "${as[@]}" ./opt --format=json tree > %t.json 2> %t.err; test $? -eq 2
# RUN: %FileCheck --check-prefix=JSON %s < %t.json
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# JSON:      "file": "tree/locked",
# JSON:      "error": "cannot list directory 'tree/locked': Permission denied"
# JSON:      "file": "tree/ok/a.py",
# ERR: commscope-opt: error: cannot list directory 'tree/locked': Permission denied
#
# The directory given itself.
# RUN: cd %t.d && if [ "$(id -u)" = 0 ]; then as=(setpriv --reuid=65534 --regid=65534 --clear-groups); else as=(); fi; "${as[@]}" ./opt tree/locked > %t.out 2> %t.err2; test $? -eq 2
# RUN: %FileCheck --check-prefix=GIVEN %s < %t.err2
# GIVEN: commscope-opt: error: cannot list directory 'tree/locked': Permission denied
# RUN: chmod 755 %t.d/tree/locked
#
# One input that cannot be read is still the JSON document of that file: no programs,
# and why.
# RUN: %commscope-opt --format=json %t.d/missing.py > %t.one.json 2> %t.one.err; test $? -eq 2
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['programs'] == [] and d['error'].startswith('cannot open'), d" %t.one.json
#
# Standard input closed, and given twice.
# RUN: %commscope-opt - <&- > %t.out 2> %t.closed; test $? -eq 2
# RUN: %FileCheck --check-prefix=CLOSED %s < %t.closed
# CLOSED: commscope-opt: error: cannot read standard input: Bad file descriptor
# RUN: %commscope-opt - - < %S/several/a_ring.py > %t.out 2> %t.twice; test $? -eq 2
# RUN: %FileCheck --check-prefix=TWICE %s < %t.twice
# TWICE: commscope-opt: error: '-' (standard input) is given more than once
