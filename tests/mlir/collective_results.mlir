// broadcast, reduce_scatter and barrier work on their window in place and hand it back:
// a dispatch of the result uses the data's allocation (the signal's, for a barrier), as
// one of an allreduce's result does. Taken for no view, x got [0] and sig [2]: devices 5,
// 6 and 7 that dispatch the results would have faulted.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// CHECK-LABEL: func.func @in_place
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 5, 6] slots [0, 1, 2] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2, 7] slots [3] {
func.func @in_place() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %xs = pld.alloc_window_buffer(%c64) {name = "xs"} : (index) -> i64
  %g = pld.alloc_window_buffer(%c64) {name = "g"} : (index) -> i64
  %sig = pld.alloc_window_buffer(%c64) {name = "sig"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%xs, %c64) : (i64, index) -> tensor<64xf32>
  %vg = pld.window(%g, %c64) : (i64, index) -> tensor<64xf32>
  %s = pld.window(%sig, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  %b = pld.broadcast(%v, %vs) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  pld.dispatch @chip(%c5, %b) : (index, tensor<64xf32>) -> ()
  %r = pld.reduce_scatter(%b, %vg) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  pld.dispatch @chip(%c6, %r) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c2, %s) : (index, tensor<64xf32>) -> ()
  %t = pld.barrier(%s) : (tensor<64xf32>) -> tensor<64xf32>
  pld.dispatch @chip(%c7, %t) : (index, tensor<64xf32>) -> ()
  return
}
