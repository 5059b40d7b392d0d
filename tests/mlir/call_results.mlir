// A chip orchestrator may return an argument it is given (a tensor in
// destination-passing style): the results of a pld.dispatch, and of a call of one
// without a device, may be any view among its operands, and a dispatch of them gives
// that view's allocation its devices (x on 2 after the dispatch on 1, y on 4).
// RUN: %opt %s --commscope-materialize | %FileCheck %s

func.func private @step(index, tensor<64xf32>) -> tensor<64xf32> attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  %r = pld.dispatch @step(%c1, %vx) : (index, tensor<64xf32>) -> tensor<64xf32>
  pld.dispatch @chip(%c2, %r) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c3, %vy) : (index, tensor<64xf32>) -> ()
  %s = func.call @step(%c3, %vy) : (index, tensor<64xf32>) -> tensor<64xf32>
  pld.dispatch @chip(%c4, %s) : (index, tensor<64xf32>) -> ()
  return
}
// CHECK:      pld.comm_domain_scope "comm_d0" devices [1, 2] slots [0] {
// CHECK-NEXT:   pld.comm_domain_scope "comm_d1" devices [3, 4] slots [1] {
// CHECK:          pld.alloc_window_buffer({{.*}}) {name = "x", window_buffer = 0 : i64}
// CHECK:          pld.alloc_window_buffer({{.*}}) {name = "y", window_buffer = 1 : i64}
