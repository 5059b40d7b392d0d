#!/usr/bin/env bash
# usage: chips.sh N: N chip orchestrators and a host orchestrator dispatching each once
# on device 0 with one view, so that the pass looks up N callees.
set -eu
n=$1
for ((i = 0; i < n; i++)); do
  echo "func.func private @chip$i(tensor<64xf32>) attributes {pld.level = \"chip\", pld.role = \"orchestrator\"}"
done
echo 'func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {'
echo '  %c0 = arith.constant 0 : index'
echo '  %c64 = arith.constant 64 : index'
echo '  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64'
echo '  %v = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>'
for ((i = 0; i < n; i++)); do
  echo "  \"pld.dispatch\"(%c0, %v) {callee = @chip$i} : (index, tensor<64xf32>) -> ()"
done
echo '  return'
echo '}'
