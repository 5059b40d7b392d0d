// Callees are found in one symbol table per run: lookupNearestSymbolFrom per
// dispatch scanned the module, 22 s for 50,000 chip functions; now about 1 s, parsing
// and printing included. The budget (12 s; 90 s for the -O0 sanitizer build) leaves a wide
// margin for a loaded machine.
// RUN: bash %S/inputs/chips.sh 50000 > %t.mlir
// RUN: timeout %budget %opt %t.mlir --commscope-materialize | %FileCheck %s
// CHECK: pld.comm_domain_scope "comm_d0" devices [0] slots [0] {
// CHECK: pld.dispatch @chip49999(
