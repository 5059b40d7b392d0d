#!/usr/bin/env bash
# Runs commscope-opt over Python files of the installed Python's standard library (real
# modules no one here wrote): a file that Python parses must never be a syntax error
# (exit 3), and nothing may crash (exit >= 4) or hang.
# usage: python-files.sh COMMSCOPE_OPT PYTHON [MAX_FILES]
set -u
bin=$1 python=$2 max=${3:-400}
stdlib=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
mapfile -t files < <(find "$stdlib" -name '*.py' -size -400k 2>/dev/null | LC_ALL=C sort | head -n "$max")
if [ "${#files[@]}" -eq 0 ]; then
  echo "no Python files under $stdlib" >&2
  exit 1
fi
bad=0
for f in "${files[@]}"; do
  timeout 20 "$bin" "$f" > /dev/null 2> /tmp/python-files.$$.err
  rc=$?
  if [ "$rc" -ge 4 ] || { [ "$rc" -ge 2 ] && [ "$rc" -ne 3 ]; }; then
    echo "FAIL $f: exit $rc"; cat /tmp/python-files.$$.err; bad=$((bad + 1))
  elif [ "$rc" -eq 3 ] &&
       "$python" -c 'import ast,sys; ast.parse(open(sys.argv[1],"rb").read())' "$f" 2> /dev/null; then
    echo "FAIL $f: Python reads it, commscope-opt says:"; cat /tmp/python-files.$$.err
    bad=$((bad + 1))
  fi
done
rm -f /tmp/python-files.$$.err
echo "${#files[@]} files from $stdlib, $bad failures"
[ "$bad" -eq 0 ]
