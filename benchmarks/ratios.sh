#!/usr/bin/env bash
# Builds the benchmarks (Release) and prints the ratio tables of docs/benchmarks.md, one per IR
# (the reference IR, and the same programs laid out in the index IR): the pass against
# its floors at each size, the growth of time per allocation from the smallest to the
# largest size, the IR's bytes per allocation, and the pass's own memory per allocation,
# the peak heap it adds beyond the IR, for the analysis alone and for the full run
# (analysis and rewrite).
#
#   benchmarks/ratios.sh                      sizes 1000 10000 100000 1000000
#   SIZES="1000 10000" benchmarks/ratios.sh   fewer sizes (the 1M program needs ~14 GB)
#   REPS=5 BUILD_DIR=/tmp/b benchmarks/ratios.sh
#
# Each size and IR runs in its own process (one program in memory at a time: the 1M
# reference-IR program and its rebuilt copy take ~14 GB, the index IR's process ~10 GB
# while it lays its program out), its cases' repetitions interleaved so that load from
# elsewhere hits pass and floor alike; the table takes the fastest repetition (CPU time)
# of each case.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build-bench}
sizes=${SIZES:-"1000 10000 100000 1000000"}
reps=${REPS:-5}

# shellcheck source=SCRIPTDIR/build_bench.sh
source "$src/benchmarks/build_bench.sh"
build_bench "$build" commscope_bench

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for a in $sizes; do
  for ir in reference index; do
    echo "running size $a, $ir IR ..." >&2
    filter="^(traverse|analyze|analyze_evidence|analyze_hashed|rebuild|run)/$a\$"
    [ "$ir" = index ] && filter="^index_[a-z_]*/$a\$"
    "$build/benchmarks/commscope_bench" --benchmark_filter="$filter" \
      --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
      --benchmark_min_time=0.2 --benchmark_format=json --benchmark_out_format=json \
      --benchmark_out="$out/$a.$ir.json" >/dev/null
  done
done

python3 - "$out" $sizes <<'EOF'
import json, sys, os

out, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
best = {}  # (case, size) -> fastest repetition
for name in (f"{a}.{ir}.json" for a in sizes for ir in ("reference", "index")):
    with open(os.path.join(out, name)) as f:
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

def peak(case, a):
    return best[(case, a)]["peak"]

def growth(lo, hi, cases, ratios):
    if hi == lo:
        return
    print(f"\ngrowth of time per allocation, {lo:,} -> {hi:,} allocations (target <= 20%):")
    for c in cases:
        print(f"  {c:>14}: {100 * (ns(c, hi) / ns(c, lo) - 1):+6.0f}%")
    print("  pass/floor ratios at either end (growth beyond the floor's own):")
    for name, r in ratios:
        print(f"   {name:<23} {r(lo):.2f} -> {r(hi):.2f}  ({100 * (r(hi) / r(lo) - 1):+.0f}%)")

lo, hi = sizes[0], sizes[-1]
print("reference IR (shared immutable nodes; the rewrite rebuilds what changes)")
print(f"{'allocations':>11} | {'traverse':>8} {'analyze':>8} {'ratio':>6} | "
      f"{'rebuild':>8} {'run':>8} {'ratio':>6} | {'IR':>6} {'analyze':>7} {'run':>6}")
print(f"{'':>11} | {'ns/alloc':>8} {'ns/alloc':>8} {'(<=2)':>6} | "
      f"{'ns/alloc':>8} {'ns/alloc':>8} {'(<=2)':>6} | {'B/alloc':>6} {'peak':>7} {'peak':>6}")
for a in sizes:
    t, an, rb, rn = (ns(c, a) for c in ("traverse", "analyze", "rebuild", "run"))
    print(f"{a:>11,} | {t:8.0f} {an:8.0f} {an / t:6.2f} | {rb:8.0f} {rn:8.0f} "
          f"{rn / (t + rb):6.2f} | {best[('run', a)]['ir']:6.0f} "
          f"{peak('analyze', a):7.0f} {peak('run', a):6.0f}")
growth(lo, hi, ("traverse", "analyze", "rebuild", "run"),
       (("analyze/traverse", lambda a: ns("analyze", a) / ns("traverse", a)),
        ("run/(traverse+rebuild)",
         lambda a: ns("run", a) / (ns("traverse", a) + ns("rebuild", a)))))

print("\nevidence (--explain): the analysis recording it, against the analysis without")
for a in sizes:
    e = ns("analyze_evidence", a)
    print(f"{a:>11,} | {e:8.0f} ns/alloc, {e / ns('analyze', a):.2f}x analyze | "
          f"peak {peak('analyze_evidence', a):7.0f} B/alloc")

print("\nindex IR (flat arrays, 32-bit handles; the rewrite appends to the module in place)")
print(f"{'allocations':>11} | {'traverse':>8} {'analyze':>8} {'ratio':>6} | "
      f"{'run':>8} {'ratio':>6} | {'IR':>6} {'analyze':>7} {'run':>6}")
print(f"{'':>11} | {'ns/alloc':>8} {'ns/alloc':>8} {'(<=2)':>6} | "
      f"{'ns/alloc':>8} {'/trav':>6} | {'B/alloc':>6} {'peak':>7} {'peak':>6}")
for a in sizes:
    t, an, rn = (ns(c, a) for c in ("index_traverse", "index_analyze", "index_run"))
    print(f"{a:>11,} | {t:8.0f} {an:8.0f} {an / t:6.2f} | {rn:8.0f} {rn / t:6.2f} | "
          f"{best[('index_run', a)]['ir']:6.0f} {peak('index_analyze', a):7.0f} "
          f"{peak('index_run', a):6.0f}")
growth(lo, hi, ("index_traverse", "index_analyze", "index_run"),
       (("analyze/traverse", lambda a: ns("index_analyze", a) / ns("index_traverse", a)),
        ("run/traverse", lambda a: ns("index_run", a) / ns("index_traverse", a))))

def hashed_rows(case, analyze, traverse):
    for a in sizes:
        h = ns(case, a)
        print(f"{a:>11,} | {h:8.0f} ns/alloc, {h / ns(analyze, a):.2f}x analyze, "
              f"{h / ns(traverse, a):.2f}x traverse | peak {peak(case, a):7.0f} B/alloc")

print("\nvariables hashed: the same analysis through an adapter without variable_index")
print("reference IR (pointers, as in the README's adapter)")
hashed_rows("analyze_hashed", "analyze", "traverse")
print("index IR (32-bit handles)")
hashed_rows("index_analyze_hashed", "index_analyze", "index_traverse")

print("\npeak: the heap the pass adds beyond the IR, bytes per allocation. analyze: the")
print("analysis alone, its plan included; run: analysis and rewrite, what the rewrite adds")
print("to the IR included (the reference IR's rebuilt nodes; the index IR's window buffers,")
print("view types and scopes).")
EOF
