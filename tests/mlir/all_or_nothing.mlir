// All or nothing on an IR mutated in place: one error anywhere in the module and no
// function changes, not even a valid host orchestrator analyzed before the error.
// RUN: %opt %s --verify-diagnostics --commscope-materialize
// The module after the failed pass is the module before it:
// RUN: %not %opt %s --commscope-materialize --mlir-print-ir-after-failure 2>&1 | %FileCheck %s
// CHECK:     error: allocation 'y' has no window view [dead-alloc]
// CHECK:     IR Dump After {{.*}} Failed
// CHECK-NOT: comm_domain_scope
// CHECK-NOT: window_buffer =
// CHECK:     func.func @valid
// CHECK-NOT: comm_domain_scope
// CHECK-NOT: window_buffer =
// CHECK:     func.func @broken
// CHECK-NOT: comm_domain_scope
// CHECK-NOT: window_buffer =

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

func.func @valid() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
}

func.func @broken() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{[dead-alloc]}}
  %y = "pld.alloc_window_buffer"(%c64) {name = "y"} : (index) -> i64
  return
}
