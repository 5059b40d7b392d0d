#!/usr/bin/env bash
# usage: domains.sh N: a host orchestrator with N allocations, allocation i dispatched
# on device i only, so that the pass infers N domains (N nested scopes).
set -eu
n=$1
echo 'func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}'
echo 'func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {'
echo '  %c64 = arith.constant 64 : index'
for ((i = 0; i < n; i++)); do
  echo "  %d$i = arith.constant $i : index"
  echo "  %a$i = \"pld.alloc_window_buffer\"(%c64) {name = \"a$i\"} : (index) -> i64"
  echo "  %v$i = \"pld.window\"(%a$i, %c64) : (i64, index) -> tensor<64xf32>"
  echo "  \"pld.dispatch\"(%d$i, %v$i) {callee = @chip} : (index, tensor<64xf32>) -> ()"
done
echo '  return'
echo '}'
