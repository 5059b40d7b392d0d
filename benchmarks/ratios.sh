#!/usr/bin/env bash
# Builds the benchmarks (Release) and prints the ratio table of the README: the pass
# against its floors at each size, the growth of time per allocation from the smallest
# to the largest size, and memory per allocation.
#
#   benchmarks/ratios.sh                      sizes 1000 10000 100000 1000000
#   SIZES="1000 10000" benchmarks/ratios.sh   fewer sizes (the 1M program needs ~10 GB)
#   REPS=5 BUILD_DIR=/tmp/b benchmarks/ratios.sh
#
# Each size runs in its own process (one program in memory at a time), its cases'
# repetitions interleaved so that load from elsewhere hits pass and floor alike; the
# table takes the fastest repetition (CPU time) of each case.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-bench}
sizes=${SIZES:-"1000 10000 100000 1000000"}
reps=${REPS:-5}

generator=()
if [[ ! -f $build/CMakeCache.txt ]]; then
  command -v ninja >/dev/null && generator=(-G Ninja)
fi
# The default preset's flags (-O2, as users build), not CMake's Release default (-O3);
# passed every time, so that an existing build directory is brought to them too.
cmake -S "$src" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
cmake --build "$build" -j2 --target commscope_bench >/dev/null

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for a in $sizes; do
  echo "running size $a ..." >&2
  "$build/benchmarks/commscope_bench" --benchmark_filter="/$a\$" \
    --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
    --benchmark_min_time=0.2 --benchmark_format=json --benchmark_out_format=json \
    --benchmark_out="$out/$a.json" >/dev/null
done

python3 - "$out" $sizes <<'EOF'
import json, sys, os

out, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
best = {}  # (case, size) -> fastest repetition
for a in sizes:
    with open(os.path.join(out, f"{a}.json")) as f:
        data = json.load(f)
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        case, size = b["run_name"].split("/")[:2]
        key = (case, int(size))
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
        ns = b["cpu_time"] * scale / int(size)
        if key not in best or ns < best[key]["ns"]:
            best[key] = {"ns": ns, "peak": b["peak_B_per_alloc"], "ir": b["ir_B_per_alloc"]}

def ns(case, a):
    return best[(case, a)]["ns"]

print(f"{'allocations':>11} | {'traverse':>8} {'analyze':>8} {'ratio':>6} | "
      f"{'rebuild':>8} {'run':>8} {'ratio':>6} | {'IR':>6} {'analyze':>7} {'run':>6}")
print(f"{'':>11} | {'ns/alloc':>8} {'ns/alloc':>8} {'(<=2)':>6} | "
      f"{'ns/alloc':>8} {'ns/alloc':>8} {'(<=2)':>6} | {'B/alloc':>6} {'peak':>7} {'peak':>6}")
for a in sizes:
    t, an, rb, rn = (ns(c, a) for c in ("traverse", "analyze", "rebuild", "run"))
    print(f"{a:>11,} | {t:8.0f} {an:8.0f} {an / t:6.2f} | {rb:8.0f} {rn:8.0f} "
          f"{rn / (t + rb):6.2f} | {best[('run', a)]['ir']:6.0f} "
          f"{best[('analyze', a)]['peak']:7.0f} {best[('run', a)]['peak']:6.0f}")
lo, hi = sizes[0], sizes[-1]
if hi != lo:
    print(f"\ngrowth of time per allocation, {lo:,} -> {hi:,} allocations (target <= 20%):")
    for c in ("traverse", "analyze", "rebuild", "run"):
        print(f"  {c:>8}: {100 * (ns(c, hi) / ns(c, lo) - 1):+6.0f}%")
    print("  pass/floor ratios at either end (growth beyond the floor's own):")
    r = lambda a: ns("analyze", a) / ns("traverse", a)
    m = lambda a: ns("run", a) / (ns("traverse", a) + ns("rebuild", a))
    print(f"   analyze/traverse       {r(lo):.2f} -> {r(hi):.2f}  ({100 * (r(hi) / r(lo) - 1):+.0f}%)")
    print(f"   run/(traverse+rebuild) {m(lo):.2f} -> {m(hi):.2f}  ({100 * (m(hi) / m(lo) - 1):+.0f}%)")
EOF
