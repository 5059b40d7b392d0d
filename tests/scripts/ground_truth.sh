#!/usr/bin/env bash
# Runs the ground-truth checker (tests/ground_truth) longer than CI does, with a random
# seed that it prints first: rerun a failure with the same seed, or one program alone
# with COMMSCOPE_GT_SEED=<its seed> COMMSCOPE_GT_COUNT=1.
# usage: ground_truth.sh [BUILD_DIR] [COUNT] [SEED]
#   BUILD_DIR defaults to build (it builds test_ground_truth there), COUNT to 200000.
#   COMMSCOPE_GT_SHOW (default 3) shrunk failures are printed, COMMSCOPE_GT_ONLY=CATEGORY
#   shows only those of one category ("index IR: unsound", "plans differ", ...).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build} count=${2:-200000}
seed=${3:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}
echo "ground truth: seed $seed, $count programs"
cmake --build "$build" --target test_ground_truth > /dev/null
COMMSCOPE_GT_SEED=$seed COMMSCOPE_GT_COUNT=$count \
  "$build/tests/test_ground_truth" --test-case='generated programs*'
