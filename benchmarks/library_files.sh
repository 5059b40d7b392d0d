#!/usr/bin/env bash
# commscope-opt on a generated model library (gen_library.py, 300 modules by default):
# files per second of one whole-directory run at each -j given (default: -j1 and -j2),
# the best of three runs each. Also checks that the output is the same for every -j.
#
#   benchmarks/library_files.sh [build/tools/commscope-opt] [MODULES] [JOBS ...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
opt="${1:-$here/../build/tools/commscope-opt}"
modules="${2:-300}"
shift 2 || shift $# || true
jobs=("$@")
[ ${#jobs[@]} -eq 0 ] && jobs=(1 2)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_library.py" "$work/lib" "$modules"
files=$(find "$work/lib" -name '*.py' | wc -l)
printf '%-6s %8s %10s %12s\n' jobs files best_s files_per_s
for j in "${jobs[@]}"; do
  best=""
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    "$opt" -j"$j" "$work/lib" > "$work/out.$j" 2> "$work/err.$j"
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" -eq 1 ]; then best=$t; fi
  done
  cmp -s "$work/out.$j" "$work/out.${jobs[0]}" || { echo "output differs at -j$j" >&2; exit 1; }
  printf '%-6s %8s %10.3f %12.0f\n' "$j" "$files" "$best" "$(echo "$files / $best" | bc -l)"
done
