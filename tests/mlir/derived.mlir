// The results of an op that cannot dispatch anything (no side effects, a cast, a view-like
// op) may each be a view of each of its view operands: a dispatch of one covers the
// allocations it may view. A pure cast of an allocation's pointer is a copy of it.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip32(tensor<32xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip_any(tensor<?xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// a: {1, 2} (a slice), b: {3} (a cast), c: {4, 5} (an unrealized conversion cast; a view
// through a pointer cast), d: {6, 7} (elementwise arithmetic of d and e), e: {7}.
// CHECK-LABEL: func.func @derived
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 2] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [3] slots [1] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [4, 5] slots [2] {
// CHECK-NEXT:          pld.comm_domain_scope "comm_d3" devices [6, 7] slots [3] {
// CHECK-NEXT:            pld.comm_domain_scope "comm_d4" devices [7] slots [4] {
func.func @derived() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %d = pld.alloc_window_buffer(%c64) {name = "d"} : (index) -> i64
  %e = pld.alloc_window_buffer(%c64) {name = "e"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %vd = pld.window(%d, %c64) : (i64, index) -> tensor<64xf32>
  %ve = pld.window(%e, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %va) : (index, tensor<64xf32>) -> ()
  %slice = tensor.extract_slice %va[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
  pld.dispatch @chip32(%c2, %slice) : (index, tensor<32xf32>) -> ()
  %cast = tensor.cast %vb : tensor<64xf32> to tensor<?xf32>
  pld.dispatch @chip_any(%c3, %cast) : (index, tensor<?xf32>) -> ()
  %u = builtin.unrealized_conversion_cast %vc : tensor<64xf32> to tensor<?xf32>
  pld.dispatch @chip_any(%c4, %u) : (index, tensor<?xf32>) -> ()
  %p = builtin.unrealized_conversion_cast %c : i64 to i64
  %vp = pld.window(%p, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c5, %vp) : (index, tensor<64xf32>) -> ()
  %sum = arith.addf %vd, %ve : tensor<64xf32>
  pld.dispatch @chip(%c6, %vd) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c7, %sum) : (index, tensor<64xf32>) -> ()
  return
}
