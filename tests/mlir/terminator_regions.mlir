// A terminator with regions and operands passes them where no interface says: scf.reduce
// into its regions' arguments and the scf.parallel's results, an unregistered op that
// merely ends its block into its regions. A view among them is view-escapes there, not a
// use the pass drops (the dispatches of the result and of the region argument below
// would miss devices 3 and 5).
// RUN: %opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --commscope-materialize

func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @reduce() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  %e = tensor.empty() : tensor<64xf32>
  %r = scf.parallel (%i) = (%c0) to (%c1) step (%c1) init (%e) -> tensor<64xf32> {
    // expected-error-re @+1 {{allocation 'x'{{.*}}'scf.reduce'{{.*}}[view-escapes]}}
    scf.reduce(%vx : tensor<64xf32>) {
    ^bb0(%a: tensor<64xf32>, %b: tensor<64xf32>):
      scf.reduce.return %b : tensor<64xf32>
    }
  }
  pld.dispatch @chip(%c3, %r) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// A reduction of values that are no views stays followed.
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @reduce_scalars() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %s = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%f) -> f32 {
    pld.dispatch @chip(%i, %vx) : (index, tensor<64xf32>) -> ()
    scf.reduce(%f : f32) {
    ^bb0(%a: f32, %b: f32):
      %sum = arith.addf %a, %b : f32
      scf.reduce.return %sum : f32
    }
  }
  return
}

// -----

func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @unregistered_last() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  scf.execute_region {
    // expected-error-re @+1 {{allocation 'x'{{.*}}'test.wrap'{{.*}}[view-escapes]}}
    "test.wrap"(%vx) ({
    ^bb0(%a: tensor<64xf32>):
      pld.dispatch @chip(%c5, %a) : (index, tensor<64xf32>) -> ()
      "test.end"() : () -> ()
    }) : (tensor<64xf32>) -> ()
  }
  return
}

// -----

// scf.parallel's init values reach its scf.reduce's regions (the first argument) and its
// results, where no interface says: a view among them is view-escapes at the scf.reduce
// (the dispatches of %a and of the result would miss devices 5 and 3).
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @reduce_init() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vy) : (index, tensor<64xf32>) -> ()
  %e = tensor.empty() : tensor<64xf32>
  %r = scf.parallel (%i) = (%c0) to (%c1) step (%c1) init (%vy) -> tensor<64xf32> {
    // expected-error-re @+1 {{allocation 'y'{{.*}}'scf.reduce'{{.*}}[view-escapes]}}
    scf.reduce(%e : tensor<64xf32>) {
    ^bb0(%a: tensor<64xf32>, %b: tensor<64xf32>):
      pld.dispatch @chip(%c5, %a) : (index, tensor<64xf32>) -> ()
      scf.reduce.return %a : tensor<64xf32>
    }
  }
  pld.dispatch @chip(%c3, %r) : (index, tensor<64xf32>) -> ()
  return
}
