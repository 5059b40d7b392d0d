// A region branch op that is no loop and passes operands into its region
// (async.execute's body operands) binds its region's arguments to what they may be: a
// view yielded by one async.execute and dispatched in another gets the latter's devices.
// It was view-escapes at the second async.execute. Run by plugin.mlir: the stock
// mlir-opt registers the async dialect.
// CHECK-LABEL: func.func @chained
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2] slots [1] {
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @chained() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a = pld.alloc_window_buffer(%c256) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c256) {name = "b"} : (index) -> i64
  %va = pld.window(%a, %c256) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c256) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %va) : (index, tensor<64xf32>) -> ()
  %t, %v = async.execute -> !async.value<tensor<64xf32>> {
    pld.dispatch @chip(%c2, %vb) : (index, tensor<64xf32>) -> ()
    async.yield %va : tensor<64xf32>
  }
  %t2 = async.execute [%t] (%v as %w : !async.value<tensor<64xf32>>) {
    pld.dispatch @chip(%c1, %w) : (index, tensor<64xf32>) -> ()
    async.yield
  }
  return
}
