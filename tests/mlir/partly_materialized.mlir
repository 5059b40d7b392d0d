// A body that holds a scope and a later allocation outside it is partly materialized:
// the pass reports the allocation instead of skipping the function, and the verifier
// reports it too (every allocation of a host orchestrator with scopes is a slot of a
// scope that encloses it).
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize
// RUN: %not %opt %s --split-input-file --commscope-verify 2>&1 | %FileCheck %s --check-prefix=VERIFY
// VERIFY: error: allocation 'late' is no slot of a scope that encloses it [verify]

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @partly() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  "pld.comm_domain_scope"() ({
    // expected-note @-1 {{the function's comm-domain scopes start here}}
    %a = "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    %va = "pld.window"(%a, %c64) {window_buffer = 0 : i64} : (i64, index) -> tensor<64xf32>
    "pld.dispatch"(%c0, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
    "pld.yield"() : () -> ()
  }) {devices = array<i64: 0>, name = "comm_d0", slots = array<i64: 0>} : () -> ()
  // expected-error @+1 {{allocation 'late' is outside the comm-domain scopes of a function that already has them [malformed-op]}}
  %late = "pld.alloc_window_buffer"(%c64) {name = "late"} : (index) -> i64
  %vl = "pld.window"(%late, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %vl) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
}
