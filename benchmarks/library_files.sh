#!/usr/bin/env bash
# commscope-opt on a generated model library (gen_library.py: 300 modules of about 500
# lines by default): files per second of one whole-directory run at each -j given
# (default: -j1 and -j2), the best of five runs each, and a check that every -j prints
# the same bytes. The library is generated into a scratch directory, never checked in.
#
#   benchmarks/library_files.sh [build/tools/commscope-opt] [MODULES] [JOBS ...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
opt="${1:-$here/../build/tools/commscope-opt}"
modules="${2:-300}"
jobs=("${@:3}")
[ ${#jobs[@]} -eq 0 ] && jobs=(1 2)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_library.py" "$work/lib" "$modules"
python3 - "$opt" "$work" "${jobs[@]}" <<'PY'
import pathlib, subprocess, sys, time
opt, work, jobs = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3:]
files = sum(1 for _ in (work / "lib").rglob("*.py"))
lines = sum(p.read_text().count("\n") for p in (work / "lib").rglob("*.py"))
print(f"{files} files, {lines} lines")
print(f"{'jobs':>4} {'best_s':>8} {'files/s':>9} {'lines/s':>10}")
first = None
for j in jobs:
    best = None
    for _ in range(5):
        start = time.perf_counter()
        run = subprocess.run([opt, f"-j{j}", str(work / "lib")], capture_output=True)
        t = time.perf_counter() - start
        best = t if best is None else min(best, t)
    if run.returncode != 0:
        sys.exit(f"-j{j}: exit status {run.returncode}")
    if first is None:
        first = (run.stdout, run.stderr)
    elif (run.stdout, run.stderr) != first:
        sys.exit(f"-j{j}: output differs from -j{jobs[0]}")
    print(f"{j:>4} {best:8.3f} {files / best:9.0f} {lines / best:10.0f}")
PY
