#!/usr/bin/env bash
# commscope-opt on generated files of 200,000 and 1,000,000 allocations (gen_allocs.py):
# wall time, CPU time and peak memory of parse + pass + JSON plan, one run each. The files
# are generated into a scratch directory, never checked in.
#
#   benchmarks/opt_at_scale.sh [build/tools/commscope-opt] [N ...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
opt="${1:-$here/../build/tools/commscope-opt}"
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(200000 1000000)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '%-12s %10s %10s %10s %10s %12s\n' allocations MB wall_s user_s sys_s peak_MB
for n in "${sizes[@]}"; do
  python3 "$here/gen_allocs.py" "$n" > "$work/allocs.py"
  mb=$(( $(stat -c %s "$work/allocs.py") / 1000000 ))
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$opt" --format=json "$work/allocs.py" > "$work/plan.json"
  read -r wall user sys peak < "$work/time"
  printf '%-12s %10s %10s %10s %10s %12s\n' "$n" "$mb" "$wall" "$user" "$sys" "$((peak / 1000))"
done
