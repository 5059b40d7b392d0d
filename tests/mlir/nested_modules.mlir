// The pass runs on any module: here on each of two nested modules, each with its own
// symbols, scheduled by the pass manager as MLIR nests passes.
// RUN: %opt %s --pass-pipeline='builtin.module(builtin.module(commscope-materialize))' | %FileCheck %s
// CHECK-LABEL: module @first
// CHECK:         pld.comm_domain_scope "comm_d0" devices [1] slots [0]
// CHECK-LABEL: module @second
// CHECK:         pld.comm_domain_scope "comm_d0" devices [2] slots [0]

module @first {
  func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
  func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
    %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
    pld.dispatch @chip(%c1, %va) : (index, tensor<64xf32>) -> ()
    return
  }
}
module @second {
  func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
  func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
    %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
    pld.dispatch @chip(%c2, %va) : (index, tensor<64xf32>) -> ()
    return
  }
}
