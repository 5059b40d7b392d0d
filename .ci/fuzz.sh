#!/usr/bin/env bash
# Fuzzes the text front end plus the pass (tests/fuzz) with libFuzzer, ASan and UBSan
# for a bounded time, seeded with the tests/cli example programs. Fails on a finding.
# usage: .ci/fuzz.sh [SECONDS]   (default 60; FUZZ_BUILD_DIR overrides the build folder)
# CI runs a fixed seed and a fixed number of inputs (FUZZ_SEED, FUZZ_RUNS), so that a
# submission is judged on the same inputs it was checked with; SECONDS only caps the time.
# Set FUZZ_SEED=0 to explore with a random seed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}

if ! command -v clang++-19 > /dev/null || [ ! -d /usr/lib/llvm-19/lib/clang/19/lib ]; then
  echo "fuzz.sh: installing clang-19 and libclang-rt-19-dev" >&2
  apt-get update -qq && apt-get install -y -qq clang-19 libclang-rt-19-dev > /dev/null
fi

cmake -S "$root/tests/fuzz" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build" -j2

corpus="$build/corpus"
findings="$build/findings"
rm -rf "$corpus"
mkdir -p "$corpus" "$findings"
cp "$root"/tests/cli/*.py "$corpus"/
for f in "$root"/tests/corpus/*.py "$root"/tests/corpus/rejected/*.py; do
  cp "$f" "$corpus/corpus_$(basename "$f")"
done
# A finding leaves its input in $findings (crash-*, timeout-*, oom-*); libFuzzer exits
# non-zero, and so does this script.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$build/fuzz_front_end" -seed="${FUZZ_SEED:-1}" -runs="${FUZZ_RUNS:-80000}" \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" "$corpus"
echo "fuzz.sh: no finding (seed ${FUZZ_SEED:-1}, at most ${FUZZ_RUNS:-80000} inputs, ${seconds}s)"
