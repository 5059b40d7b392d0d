#!/usr/bin/env bash
# commscope-opt on generated files of 200,000 and 1,000,000 allocations (gen_allocs.py):
# wall time, CPU time and peak memory of parse + pass + JSON plan, one run each. The files
# are generated into a scratch directory, never checked in. Then the same with 8 device
# sets, which the pass materializes (`source`), and commscope-opt run again on its own
# output (`materialized`: its scopes read back). Last, files of 2,000 and 8,000 small
# programs (gen_programs.py), whose time should grow with the file, not its square.
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
row() { # label file [options]: one run of commscope-opt on file, its output discarded
  local label=$1 file=$2 wall user sys peak
  shift 2
  # A file the pass reports exits 1: its time is measured all the same.
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$opt" "$@" "$file" > "$work/out" 2>&1 || true
  if grep -q "terminated by signal" "$work/time"; then
    echo "opt_at_scale.sh: commscope-opt crashed on $label:" >&2
    tail -5 "$work/out" >&2
    exit 1
  fi
  read -r wall user sys peak < <(tail -1 "$work/time")
  printf '%-28s %6s %10s %10s %10s %12s\n' "$label" "$(( $(stat -c %s "$file") / 1000000 ))" \
    "$wall" "$user" "$sys" "$((peak / 1000))"
}
printf '%-28s %6s %10s %10s %10s %12s\n' allocations MB wall_s user_s sys_s peak_MB
for n in "${sizes[@]}"; do
  python3 "$here/gen_allocs.py" "$n" > "$work/allocs.py"
  row "$n" "$work/allocs.py" --format=json
  python3 "$here/gen_allocs.py" "$n" 8 > "$work/allocs8.py"
  "$opt" --emit=ir "$work/allocs8.py" > "$work/materialized.py" 2>/dev/null
  row "$n, 8 sets: source" "$work/allocs8.py" --format=json
  row "$n, 8 sets: materialized" "$work/materialized.py" --format=json
done
for p in 2000 8000; do
  python3 "$here/gen_programs.py" "$p" > "$work/programs.py"
  row "$p programs in one file" "$work/programs.py" --format=json
done
