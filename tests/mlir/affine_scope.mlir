// The rewrite moves the host body into the scopes: an affine.for whose bound is a value
// defined at the function's top level (a valid symbol: the function is an affine scope)
// stays valid inside them, since a scope is an affine scope too. It was "'affine.for' op
// operand cannot be used as a symbol" after the pass.
// RUN: %opt %s --allow-unregistered-dialect --commscope-materialize --commscope-verify | %FileCheck %s
// RUN: %opt %s --allow-unregistered-dialect --commscope-materialize --commscope-materialize | %FileCheck %s

// CHECK-LABEL: func.func @host
// CHECK:         pld.comm_domain_scope "comm_d0" devices [0] slots [0] {
// CHECK:           affine.for %{{.*}} = 0 to %[[WS:.*]] {
// CHECK:             affine.for %{{.*}} = 0 to %[[N:.*]] {
// CHECK:               affine.load %{{.*}}[%{{.*}} + symbol(%[[WS]])]
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host(%n: index, %m: memref<?xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %ws = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  affine.for %i = 0 to %ws {
    affine.for %j = 0 to %n {
      %e = affine.load %m[%j + symbol(%ws)] : memref<?xf32>
      "test.use"(%i, %e) : (index, f32) -> ()
    }
  }
  return
}
