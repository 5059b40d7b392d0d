// The pipeline docs/mlir.md suggests runs canonicalize first, which turns an scf.if that
// yields values defined outside it into arith.select: the select's result is either of
// its choices, as the scf.if's was, so the plan is the same with and without it (a: the
// dispatch of the view on 1 and of the result on 3; b: the result on 3 and the device
// that is 1 or 3).
// RUN: %opt %s --pass-pipeline='builtin.module(canonicalize, cse, commscope-materialize)' | %FileCheck %s --check-prefixes=CHECK,SELECT
// RUN: %opt %s --commscope-materialize | %FileCheck %s

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// CHECK-LABEL: func.func @host
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 3] slots [0, 1] {
// SELECT:          arith.select
// SELECT-NOT:      scf.if
func.func @host(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %va) : (index, tensor<64xf32>) -> ()
  %v = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %va : tensor<64xf32>
  } else {
    scf.yield %vb : tensor<64xf32>
  }
  pld.dispatch @chip(%c3, %v) : (index, tensor<64xf32>) -> ()
  %d = scf.if %flag -> (index) {
    scf.yield %c1 : index
  } else {
    scf.yield %c3 : index
  }
  pld.dispatch @chip(%d, %vb) : (index, tensor<64xf32>) -> ()
  return
}
