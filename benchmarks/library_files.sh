#!/usr/bin/env bash
# commscope-opt on a generated model library (gen_library.py: 300 modules of about 500
# lines by default): files per second of one whole-directory run at each -j given
# (default: -j1 and -j2), in the text and the JSON format, the best of five runs each
# (the formats alternate within a round, so that the machine's noise hits them alike),
# and a check that every -j prints the same bytes. With COMMSCOPE_BASELINE=BINARY, that
# binary's default output is measured in the same rounds (before and after a change).
# The library is generated into a scratch directory, never checked in.
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
python3 - "$opt" "$work" "${COMMSCOPE_BASELINE:-}" "${jobs[@]}" <<'PY'
import pathlib, subprocess, sys, time
opt, work, baseline, jobs = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
files = sum(1 for _ in (work / "lib").rglob("*.py"))
lines = sum(p.read_text().count("\n") for p in (work / "lib").rglob("*.py"))
print(f"{files} files, {lines} lines")
configs = [("text", [opt, "--format=text"]), ("json", [opt, "--format=json"])]
if baseline:
    configs.append(("baseline", [baseline]))
print(f"{'format':>8} {'jobs':>4} {'best_s':>8} {'files/s':>9} {'lines/s':>10}")
for j in jobs:
    best = {name: None for name, _ in configs}
    outputs = {}
    for _ in range(5):
        for name, argv in configs:
            start = time.perf_counter()
            run = subprocess.run([*argv, f"-j{j}", str(work / "lib")], capture_output=True)
            t = time.perf_counter() - start
            if run.returncode != 0:
                sys.exit(f"{name} -j{j}: exit status {run.returncode}")
            best[name] = t if best[name] is None else min(best[name], t)
            outputs[name] = (run.stdout, run.stderr)
    for name, _ in configs:
        key = (name, "first")
        if key not in globals().setdefault("firsts", {}):
            firsts[key] = outputs[name]
        elif outputs[name] != firsts[key]:
            sys.exit(f"{name} -j{j}: output differs from -j{jobs[0]}")
        t = best[name]
        print(f"{name:>8} {j:>4} {t:8.3f} {files / t:9.0f} {lines / t:10.0f}")
    if baseline:
        print(f"{'':>8} {j:>4} text/baseline {best['text'] / best['baseline']:.3f}, "
              f"json/baseline {best['json'] / best['baseline']:.3f}")
PY
