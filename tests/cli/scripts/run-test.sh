#!/usr/bin/env bash
# Runs the `# RUN:` lines of one tests/cli example, lit-style, with bash -o pipefail.
# usage: run-test.sh COMMSCOPE_OPT FILECHECK TEST_FILE WORK_DIR
# Substitutions: %commscope-opt, %FileCheck, %s (the test file), %S (its folder),
# %t (a scratch path prefix for this test), %python (python3).
set -u
opt=$1 filecheck=$2 test=$3 work=$4
name=$(basename "$test" .py)
mkdir -p "$work"
tmp="$work/$name.tmp"
rm -rf "$tmp"*
dir=$(cd "$(dirname "$test")" && pwd)
python=${PYTHON:-python3}

n=0
while IFS= read -r line; do
  case "$line" in
  *"# RUN: "*) ;;
  *) continue ;;
  esac
  cmd=${line#*# RUN: }
  cmd=${cmd//%commscope-opt/$opt}
  cmd=${cmd//%FileCheck/$filecheck}
  cmd=${cmd//%python/$python}
  cmd=${cmd//%s/$test}
  cmd=${cmd//%S/$dir}
  cmd=${cmd//%t/$tmp}
  n=$((n + 1))
  echo "RUN[$n]: $cmd"
  if ! (cd "$work" && bash -o pipefail -c "$cmd"); then
    echo "FAILED: RUN line $n of $test" >&2
    exit 1
  fi
done < <(LC_ALL=C grep -a '# RUN: ' "$test")
if [ "$n" -eq 0 ]; then
  echo "no RUN lines in $test" >&2
  exit 1
fi
echo "PASSED: $n RUN lines"
