// The device-descriptor table of docs/semantics.md, one allocation per row, clustered into domains
// by equal descriptors (first declared, outermost), slots in allocation order.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// CHECK-LABEL: func.func @host
func.func @host(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  // a: a constant device, {2}
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  %va = "pld.window"(%a, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c2, %va) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // b: a constant loop with step 2, {0, 2}
  %b = "pld.alloc_window_buffer"(%c64) {name = "b"} : (index) -> i64
  %vb = "pld.window"(%b, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %c4 step %c2 {
    "pld.dispatch"(%r, %vb) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  // c: range(world_size()), all devices; the bound is a value defined far above
  %n = "pld.world_size"() : () -> index
  %c = "pld.alloc_window_buffer"(%c64) {name = "c"} : (index) -> i64
  %vc = "pld.window"(%c, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %i = %c0 to %c1 step %c1 {
    scf.for %r = %c0 to %n step %c1 {
      "pld.dispatch"(%r, %vc) {callee = @chip} : (index, tensor<64xf32>) -> ()
    }
  }
  // d: {2} again: the same domain as a
  %d = "pld.alloc_window_buffer"(%c64) {name = "d"} : (index) -> i64
  %vd = "pld.window"(%d, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c2, %vd) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // e: both branches of an scf.if and a while loop's body are seen: {0, 1}
  %e = "pld.alloc_window_buffer"(%c64) {name = "e"} : (index) -> i64
  %ve = "pld.window"(%e, %c64) : (i64, index) -> tensor<64xf32>
  scf.if %flag {
    "pld.dispatch"(%c1, %ve) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  scf.while : () -> () {
    scf.condition(%flag)
  } do {
    "pld.dispatch"(%c0, %ve) {callee = @chip} : (index, tensor<64xf32>) -> ()
    scf.yield
  }
  // f: an empty loop contributes nothing, so only device 7 remains
  %f = "pld.alloc_window_buffer"(%c64) {name = "f"} : (index) -> i64
  %vf = "pld.window"(%f, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c5 to %c5 step %c1 {
    "pld.dispatch"(%r, %vf) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  "pld.dispatch"(%c7, %vf) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // A call without a device (func.call) gives nothing, nor does an unused window.
  func.call @chip(%vf) : (tensor<64xf32>) -> ()
  return
}

// CHECK-NEXT: pld.comm_domain_scope "comm_d0" devices [2] slots [0, 3] {
// CHECK-NEXT:   pld.comm_domain_scope "comm_d1" devices [0, 2] slots [1] {
// CHECK-NEXT:     pld.comm_domain_scope "comm_d2" devices [] slots [2] {
// CHECK-NEXT:       pld.comm_domain_scope "comm_d3" devices [0, 1] slots [4] {
// CHECK-NEXT:         pld.comm_domain_scope "comm_d4" devices [7] slots [5] {
// CHECK:                pld.alloc_window_buffer(%{{.*}}) {name = "a", window_buffer = 0 : i64}
// CHECK:                pld.alloc_window_buffer(%{{.*}}) {name = "b", window_buffer = 1 : i64}
// CHECK:                pld.alloc_window_buffer(%{{.*}}) {name = "c", window_buffer = 2 : i64}
// CHECK:                pld.alloc_window_buffer(%{{.*}}) {name = "d", window_buffer = 3 : i64}
// CHECK-NEXT:           pld.window({{.*}}) {window_buffer = 3 : i64}
// CHECK:                pld.alloc_window_buffer(%{{.*}}) {name = "e", window_buffer = 4 : i64}
// CHECK:                pld.alloc_window_buffer(%{{.*}}) {name = "f", window_buffer = 5 : i64}
// CHECK:                pld.yield
// CHECK-NEXT:         }
// CHECK-NEXT:         pld.yield
// CHECK-NEXT:       }
// CHECK-NEXT:       pld.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     pld.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   pld.yield
// CHECK-NEXT: }
// CHECK-NEXT: return

// A host orchestrator without allocations is left as it is.
// CHECK-LABEL: func.func @no_allocations
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    pld.dispatch
// CHECK-NEXT:    return
func.func @no_allocations(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  "pld.dispatch"(%c0, %t) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
}
