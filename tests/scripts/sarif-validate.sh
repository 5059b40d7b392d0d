#!/usr/bin/env bash
# Validates commscope-opt's --format=sarif logs with Microsoft's SARIF multitool (the npm
# package @microsoft/sarif-multitool, installed by .ci/setup into build-tools/sarif):
# the built-in example, one file with notes, a directory with a syntax error, the whole
# corpus, a run with suppressions, and unreadable files. Each log must validate with no
# error and no warning (the driver has its informationUri, its rules their help).
# usage: sarif-validate.sh COMMSCOPE_OPT SOURCE_DIR WORK_DIR
set -u
opt=$1 src=$2 work=$3
tool=${COMMSCOPE_SARIF_MULTITOOL:-$src/build-tools/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool}
if [ ! -e "$tool" ]; then
  if ! command -v npm > /dev/null; then
    echo "SKIP: npm is not installed, so the SARIF multitool cannot be (see .ci/setup)"
    exit 77
  fi
  echo "FAIL: no SARIF multitool at $tool: run .ci/setup (it installs it with npm)" >&2
  exit 1
fi
# npm does not run the package's postinstall, which makes the binary executable.
[ -x "$tool" ] || chmod u+x "$tool"
rm -rf "$work" && mkdir -p "$work"
cd "$src" || exit 1

status=0
check() { # NAME EXPECTED_EXIT ARGS...
  local name=$1 expected=$2
  shift 2
  "$opt" --format=sarif "$@" > "$work/$name.sarif" 2> /dev/null
  local rc=$?
  if [ "$rc" -ne "$expected" ]; then
    echo "FAIL: $name: commscope-opt exited $rc, expected $expected" >&2
    status=1
    return
  fi
  if ! "$tool" validate "$work/$name.sarif" --output "$work/$name.validation.sarif" \
      > "$work/$name.log" 2>&1; then
    echo "FAIL: $name: the multitool rejected the log:" >&2
    cat "$work/$name.log" >&2
    status=1
    return
  fi
  # The validator's own output is a SARIF log: its errors and warnings are failures.
  if ! python3 - "$work/$name.validation.sarif" "$name" <<'PY'; then
import json, sys
log = json.load(open(sys.argv[1]))
errors = [r for run in log["runs"] for r in run.get("results", [])
          if r.get("level", "warning") in ("error", "warning")]
for r in errors:
    print("FAIL:", sys.argv[2], r.get("ruleId"), r.get("message"), file=sys.stderr)
sys.exit(1 if errors else 0)
PY
    status=1
    return
  fi
  echo "ok: $name"
}

check builtin 0
check notes 1 tests/cli/format_sarif.py
check several 3 tests/cli/several
check corpus 3 tests/corpus
check suppressed 1 tests/cli/suppressions.py
check library 0 tests/cli/lint/model_library
check unreadable 2 tests/cli/several/missing.py tests/cli/several/a_ring.py
check unreadable_alone 2 tests/cli/several/missing.py
exit $status
