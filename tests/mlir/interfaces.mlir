// Control flow the interfaces describe, whatever dialect holds it (RegionBranchOpInterface,
// BranchOpInterface, LoopLikeOpInterface), and CFG regions judged by their edges: loops
// are their cycles, a block that some path from the entry avoids may not run.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s
// Idempotent: a second run (on the printed output) changes nothing.
// The device-limit option reads an affine.for's constant bounds too:
// RUN: %not %opt %s --pass-pipeline='builtin.module(commscope-materialize{device-limit=8})' 2>&1 >/dev/null | %FileCheck %s --check-prefix=LIMIT
// RUN: %opt %s --commscope-materialize > %t.once && %opt %t.once --commscope-materialize > %t.twice && cmp %t.once %t.twice

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// affine.for with constant bounds: its exact devices, as an scf.for's. a: {1, 2, 3},
// b: {2, 5, 8}.
// CHECK-LABEL: func.func @affine_for
// LIMIT:      interfaces.mlir:[[# @LINE + 15]]:5: error: the dispatch of 'chip' uses device 8, at or above the device limit 8 (the device-limit option) [device-out-of-range]
// LIMIT:      interfaces.mlir:[[# @LINE + 13]]:3: note: the device operand is the induction variable of this affine.for
// LIMIT-NOT:  error:
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 2, 3] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2, 5, 8] slots [1] {
func.func @affine_for() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  affine.for %i = 1 to 4 {
    pld.dispatch @chip(%i, %va) : (index, tensor<64xf32>) -> ()
  }
  affine.for %i = 2 to 9 step 3 {
    pld.dispatch @chip(%i, %vb) : (index, tensor<64xf32>) -> ()
  }
  return
}

// affine.if yields are alternatives, affine.for's iter_args are loop-carried: the
// affine dialect's RegionBranchOpInterface, as scf's. The loop runs 4 times (its
// interface says it enters its body), so its result is what the body yields, never the
// init. a: {1, 2, 3}, b: {1}, c: {2}.
// CHECK-LABEL: func.func @affine_regions
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 2, 3] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [1] slots [1] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [2] slots [2] {
func.func @affine_regions(%n: index) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %v = affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%n) -> tensor<64xf32> {
    affine.yield %va : tensor<64xf32>
  } else {
    affine.yield %vb : tensor<64xf32>
  }
  pld.dispatch @chip(%c1, %v) : (index, tensor<64xf32>) -> ()
  %r = affine.for %i = 0 to 4 iter_args(%w = %vc) -> tensor<64xf32> {
    pld.dispatch @chip(%c2, %w) : (index, tensor<64xf32>) -> ()
    affine.yield %va : tensor<64xf32>
  }
  pld.dispatch @chip(%c3, %r) : (index, tensor<64xf32>) -> ()
  return
}

// A dispatch in a block of a CFG that a path from the entry avoids does not surely run:
// the smallest world counts the dispatch to 5 and the loop from 6, as with scf.if (the
// block was taken for one that always runs: [7, range(5, world_size - 2)]).
// CHECK-LABEL: func.func @guarded_cfg
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [5, 7, range(6, world_size - 2)] slots [0] {
func.func @guarded_cfg(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %ws = pld.world_size() : () -> index
  %stop = arith.subi %ws, %c2 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c5, %vx) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c6 to %stop step %c1 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  scf.execute_region {
    cf.cond_br %flag, ^then, ^done
  ^then:
    pld.dispatch @chip(%c7, %vx) : (index, tensor<64xf32>) -> ()
    cf.br ^done
  ^done:
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @guarded_if
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [5, 7, range(6, world_size - 2)] slots [0] {
func.func @guarded_if(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %ws = pld.world_size() : () -> index
  %stop = arith.subi %ws, %c2 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c5, %vx) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c6 to %stop step %c1 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  scf.if %flag {
    pld.dispatch @chip(%c7, %vx) : (index, tensor<64xf32>) -> ()
  }
  return
}

// A block every path from the entry reaches (it post-dominates the entry) surely runs.
// CHECK-LABEL: func.func @unconditional_cfg
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [7, range(5, world_size - 2)] slots [0] {
func.func @unconditional_cfg(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %ws = pld.world_size() : () -> index
  %stop = arith.subi %ws, %c2 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c5, %vx) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c6 to %stop step %c1 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  scf.execute_region {
    cf.cond_br %flag, ^then, ^done
  ^then:
    cf.br ^done
  ^done:
    pld.dispatch @chip(%c7, %vx) : (index, tensor<64xf32>) -> ()
    scf.yield
  }
  return
}

// An acyclic CFG written out of topological order is no loop: the all_to_all_v is no
// collective-in-loop, and the block argument reaches it from the block written after it.
// All {0}.
// CHECK-LABEL: func.func @out_of_order
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0] slots [0, 1, 2, 3, 4] {
func.func @out_of_order(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %in = pld.alloc_window_buffer(%c64) {name = "in"} : (index) -> i64
  %t = pld.alloc_window_buffer(%c64) {name = "t"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  %sc = pld.alloc_window_buffer(%c64) {name = "sc"} : (index) -> i64
  %rc = pld.alloc_window_buffer(%c64) {name = "rc"} : (index) -> i64
  %vin = pld.window(%in, %c64) : (i64, index) -> tensor<64xf32>
  %vt = pld.window(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vsc = pld.window(%sc, %c64) : (i64, index) -> tensor<64xf32>
  %vrc = pld.window(%rc, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vin) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %vsc) : (index, tensor<64xf32>) -> ()
  scf.execute_region {
    cf.br ^first(%vt : tensor<64xf32>)
  ^second(%target: tensor<64xf32>):
    pld.all_to_all_v(%vin, %target, %vs, %vsc, %vrc) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
    scf.yield
  ^first(%arg: tensor<64xf32>):
    pld.dispatch @chip(%c0, %arg) : (index, tensor<64xf32>) -> ()
    cf.br ^second(%arg : tensor<64xf32>)
  }
  return
}

// cf.switch (any BranchOpInterface) passes its successor operands to block arguments:
// each edge that passes a view is one alternative. The dispatch in ^merge, which every
// path reaches, covers all three. a, b, c: {1}; d: {2} (a guarded block's dispatch).
// CHECK-LABEL: func.func @switch_edges
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1] slots [0, 1, 2] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2] slots [3] {
func.func @switch_edges(%i: i32) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %d = pld.alloc_window_buffer(%c64) {name = "d"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %vd = pld.window(%d, %c64) : (i64, index) -> tensor<64xf32>
  scf.execute_region {
    cf.switch %i : i32, [
      default: ^merge(%va : tensor<64xf32>),
      0: ^merge(%vb : tensor<64xf32>),
      1: ^other
    ]
  ^other:
    pld.dispatch @chip(%c2, %vd) : (index, tensor<64xf32>) -> ()
    cf.br ^merge(%vc : tensor<64xf32>)
  ^merge(%v: tensor<64xf32>):
    pld.dispatch @chip(%c1, %v) : (index, tensor<64xf32>) -> ()
    scf.yield
  }
  return
}

// A one-dimensional scf.parallel or scf.forall is a counted loop too
// (LoopLikeOpInterface: one induction variable, its bounds values or constants): its
// exact devices (it was unsupported-device). a: {0, 1, 2}, b: {1, 3, 5}.
// CHECK-LABEL: func.func @parallel_counted
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1, 2] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [1, 3, 5] slots [1] {
func.func @parallel_counted() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    pld.dispatch @chip(%i, %va) : (index, tensor<64xf32>) -> ()
    scf.reduce
  }
  scf.forall (%i) = (1) to (7) step (2) {
    pld.dispatch @chip(%i, %vb) : (index, tensor<64xf32>) -> ()
  }
  return
}
