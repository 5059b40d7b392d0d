// An op whose regions no interface describes, with side effects, may hand what its
// regions use from above to its results: a closure of an unregistered dialect reads the
// view, and its handle is dispatched on device 5, which the allocation then gets. The
// region's own uses are followed where they stand; a closure that uses no view adds
// nothing.
// RUN: %opt %s --allow-unregistered-dialect --commscope-materialize | %FileCheck %s

// CHECK-LABEL: func.func @captured
// CHECK-NEXT: pld.comm_domain_scope "comm_d0" devices [0, 5] slots [0]
// CHECK-NEXT: pld.comm_domain_scope "comm_d1" devices [1] slots [1]
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip_h(i64) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @captured() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %w = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c1, %w) : (index, tensor<64xf32>) -> ()
  %h = "test.closure"() ({
    %s = tensor.extract_slice %v[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
    %f = tensor.extract %s[%c0] : tensor<32xf32>
    "test.done"() : () -> ()
  }) : () -> i64
  pld.dispatch @chip_h(%c5, %h) : (index, i64) -> ()
  %g = "test.closure"() ({
    %t = arith.addi %c0, %c5 : index
    "test.done"() : () -> ()
  }) : () -> i64
  pld.dispatch @chip_h(%c1, %g) : (index, i64) -> ()
  return
}
