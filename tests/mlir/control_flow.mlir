// Views through region results (docs/semantics.md, "Rebinding and control flow"): a value that an
// scf.yield or scf.condition forwards is one of the views the result (or the next
// iteration's block argument) may be, so a dispatch of it covers every allocation it may
// view; the branches of scf.if and scf.index_switch are alternatives, loop bodies run
// zero or more times, and a view that reaches on every path is exact.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s
// Idempotent: a second run (on the printed output) changes nothing.
// RUN: %opt %s --commscope-materialize > %t.once && %opt %t.once --commscope-materialize > %t.twice && cmp %t.once %t.twice

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// Each branch yields a view of its own allocation: the dispatch of the result covers
// both. a: {1, 3} (its own dispatch too), b: {3}, c: {5}.
// CHECK-LABEL: func.func @if_results
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 3] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [3] slots [1] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [5] slots [2] {
// CHECK:               pld.alloc_window_buffer(%{{.*}}) {name = "a", window_buffer = 0 : i64}
// CHECK:               pld.alloc_window_buffer(%{{.*}}) {name = "b", window_buffer = 1 : i64}
// CHECK:               pld.alloc_window_buffer(%{{.*}}) {name = "c", window_buffer = 2 : i64}
func.func @if_results(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %va) : (index, tensor<64xf32>) -> ()
  %v = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %va : tensor<64xf32>
  } else {
    scf.yield %vb : tensor<64xf32>
  }
  pld.dispatch @chip(%c3, %v) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c5, %vc) : (index, tensor<64xf32>) -> ()
  return
}

// Both branches yield the same view: the result is that view, exactly. a: {2}, b: {5}.
// CHECK-LABEL: func.func @if_same_view
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [2] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [5] slots [1] {
func.func @if_same_view(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %v = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %va : tensor<64xf32>
  } else {
    scf.yield %va : tensor<64xf32>
  }
  pld.dispatch @chip(%c2, %v) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c5, %vb) : (index, tensor<64xf32>) -> ()
  return
}

// Several cases and a default: the result may be any of the views they yield, and no
// other. A dispatch in one case is seen. a, b, c: {4}; d: {2, 6}.
// CHECK-LABEL: func.func @index_switch
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [4] slots [0, 1, 2] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2, 6] slots [3] {
func.func @index_switch(%i: index) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %d = pld.alloc_window_buffer(%c64) {name = "d"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %vd = pld.window(%d, %c64) : (i64, index) -> tensor<64xf32>
  %v = scf.index_switch %i -> tensor<64xf32>
  case 0 {
    scf.yield %va : tensor<64xf32>
  }
  case 1 {
    pld.dispatch @chip(%c2, %vd) : (index, tensor<64xf32>) -> ()
    scf.yield %vb : tensor<64xf32>
  }
  case 7 {
    scf.yield %vc : tensor<64xf32>
  }
  default {
    scf.yield %va : tensor<64xf32>
  }
  pld.dispatch @chip(%c4, %v) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c6, %vd) : (index, tensor<64xf32>) -> ()
  return
}

// An iter_arg may be its init (first iteration) or what the body yields (later ones),
// and so may the result (a loop may run zero times). A loop that yields its own
// iter_arg keeps the init exactly. a, b: {1, 2}; c: {3}.
// CHECK-LABEL: func.func @for_iter_args
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 2] slots [0, 1] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [3] slots [2] {
func.func @for_iter_args() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %va) -> (tensor<64xf32>) {
    pld.dispatch @chip(%c1, %v) : (index, tensor<64xf32>) -> ()
    scf.yield %vb : tensor<64xf32>
  }
  pld.dispatch @chip(%c2, %r) : (index, tensor<64xf32>) -> ()
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%w = %vc) -> (tensor<64xf32>) {
    scf.yield %w : tensor<64xf32>
  }
  pld.dispatch @chip(%c3, %s) : (index, tensor<64xf32>) -> ()
  return
}

// A yield is a parallel assignment: swapping two iter_args gives each of them both views
// (read one after the other, y would stay b's). Without the swap, each keeps its own.
// a, b: {1, 2, 3}; c: {5}; d: {6}.
// CHECK-LABEL: func.func @for_swap
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 2, 3] slots [0, 1] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [5] slots [2] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [6] slots [3] {
func.func @for_swap() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %d = pld.alloc_window_buffer(%c64) {name = "d"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %vd = pld.window(%d, %c64) : (i64, index) -> tensor<64xf32>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %va, %y = %vb) -> (tensor<64xf32>, tensor<64xf32>) {
    pld.dispatch @chip(%c1, %x) : (index, tensor<64xf32>) -> ()
    pld.dispatch @chip(%c2, %y) : (index, tensor<64xf32>) -> ()
    scf.yield %y, %x : tensor<64xf32>, tensor<64xf32>
  }
  pld.dispatch @chip(%c3, %r#1) : (index, tensor<64xf32>) -> ()
  %p:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %vc, %y = %vd) -> (tensor<64xf32>, tensor<64xf32>) {
    pld.dispatch @chip(%c5, %x) : (index, tensor<64xf32>) -> ()
    scf.yield %x, %y : tensor<64xf32>, tensor<64xf32>
  }
  pld.dispatch @chip(%c6, %p#1) : (index, tensor<64xf32>) -> ()
  return
}

// scf.while: the before region's arguments are the inits, then what the after region
// yields; scf.condition forwards to the after region's arguments and the results.
// a, b: {1}; c: {2, 3}; d: {4, 5}.
// CHECK-LABEL: func.func @while
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1] slots [0, 1] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2, 3] slots [2] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [4, 5] slots [3] {
func.func @while(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %d = pld.alloc_window_buffer(%c64) {name = "d"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %vd = pld.window(%d, %c64) : (i64, index) -> tensor<64xf32>
  %r = scf.while (%x = %va) : (tensor<64xf32>) -> tensor<64xf32> {
    pld.dispatch @chip(%c1, %x) : (index, tensor<64xf32>) -> ()
    scf.condition(%flag) %vc : tensor<64xf32>
  } do {
  ^bb0(%y: tensor<64xf32>):
    pld.dispatch @chip(%c2, %y) : (index, tensor<64xf32>) -> ()
    scf.yield %vb : tensor<64xf32>
  }
  pld.dispatch @chip(%c3, %r) : (index, tensor<64xf32>) -> ()
  %q = scf.while (%x = %vd) : (tensor<64xf32>) -> tensor<64xf32> {
    scf.condition(%flag) %x : tensor<64xf32>
  } do {
  ^bb0(%y: tensor<64xf32>):
    pld.dispatch @chip(%c4, %y) : (index, tensor<64xf32>) -> ()
    scf.yield %y : tensor<64xf32>
  }
  pld.dispatch @chip(%c5, %q) : (index, tensor<64xf32>) -> ()
  return
}

// An scf.if inside an scf.for: the iter_arg is the init or what either branch yields in
// an earlier iteration. a, b: {1, 2, 3}; c: {6}.
// CHECK-LABEL: func.func @if_in_for
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 2, 3] slots [0, 1] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [6] slots [2] {
func.func @if_in_for(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %va) -> (tensor<64xf32>) {
    pld.dispatch @chip(%c1, %v) : (index, tensor<64xf32>) -> ()
    %w = scf.if %flag -> (tensor<64xf32>) {
      pld.dispatch @chip(%c3, %v) : (index, tensor<64xf32>) -> ()
      scf.yield %vb : tensor<64xf32>
    } else {
      scf.yield %v : tensor<64xf32>
    }
    scf.yield %w : tensor<64xf32>
  }
  pld.dispatch @chip(%c2, %r) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c6, %vc) : (index, tensor<64xf32>) -> ()
  return
}

// scf.execute_region runs its region once: its result is the view it yields. a: {1}.
// scf.forall's shared_outs are its init in every iteration, and its results after.
// b: {2, 3}.
// CHECK-LABEL: func.func @execute_region_and_forall
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2, 3] slots [1] {
func.func @execute_region_and_forall() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %v = scf.execute_region -> tensor<64xf32> {
    scf.yield %va : tensor<64xf32>
  }
  pld.dispatch @chip(%c1, %v) : (index, tensor<64xf32>) -> ()
  %r = scf.forall (%i) in (%c4) shared_outs(%o = %vb) -> (tensor<64xf32>) {
    pld.dispatch @chip(%c2, %o) : (index, tensor<64xf32>) -> ()
    scf.forall.in_parallel {
    }
  }
  pld.dispatch @chip(%c3, %r) : (index, tensor<64xf32>) -> ()
  return
}

// What scf.forall writes into its shared_outs (tensor.parallel_insert_slice in its
// scf.forall.in_parallel) may be (part of) the view it inserts or the one it inserts
// into: its results are views of both. x: {0, 5} (the shared out), y: {1, 5} (the slice
// inserted), z: {2}.
// CHECK-LABEL: func.func @forall_outputs
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 5] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [1, 5] slots [1] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [2] slots [2] {
func.func @forall_outputs() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %z = pld.alloc_window_buffer(%c64) {name = "z"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  %vz = pld.window(%z, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c1, %vy) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c2, %vz) : (index, tensor<64xf32>) -> ()
  %r = scf.forall (%i) in (2) shared_outs(%o = %vx) -> (tensor<64xf32>) {
    %s = tensor.extract_slice %vy[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [32] [1] : tensor<32xf32> into tensor<64xf32>
    }
  }
  pld.dispatch @chip(%c5, %r) : (index, tensor<64xf32>) -> ()
  return
}

// A region of several blocks (a CFG in scf.execute_region): each block's ops, then one
// of the values its terminators pass along (a yield, a branch's operands to a block's
// arguments), any number of times. x: {2}, y: {1, 2}, z: {5}.
// CHECK-LABEL: func.func @execute_region_cfg
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [2] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [1, 2] slots [1] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [5] slots [2] {
func.func @execute_region_cfg(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %z = pld.alloc_window_buffer(%c64) {name = "z"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  %vz = pld.window(%z, %c64) : (i64, index) -> tensor<64xf32>
  %v = scf.execute_region -> tensor<64xf32> {
    cf.cond_br %flag, ^a, ^b
  ^a:
    scf.yield %vx : tensor<64xf32>
  ^b:
    cf.br ^c(%vy : tensor<64xf32>)
  ^c(%arg: tensor<64xf32>):
    pld.dispatch @chip(%c1, %arg) : (index, tensor<64xf32>) -> ()
    scf.yield %arg : tensor<64xf32>
  }
  pld.dispatch @chip(%c2, %v) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c5, %vz) : (index, tensor<64xf32>) -> ()
  return
}

// An edge back makes the CFG a loop: the block argument is the value from before and
// the one passed back. x, y: {1}.
// CHECK-LABEL: func.func @cfg_loop
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1] slots [0, 1] {
func.func @cfg_loop(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  scf.execute_region {
    cf.br ^loop(%vx : tensor<64xf32>)
  ^loop(%v: tensor<64xf32>):
    pld.dispatch @chip(%c1, %v) : (index, tensor<64xf32>) -> ()
    cf.cond_br %flag, ^loop(%vy : tensor<64xf32>), ^done
  ^done:
    scf.yield
  }
  return
}

// A CFG whose edges all lead forward is no loop: an all_to_all_v there is no
// collective-in-loop. All {0}.
// CHECK-LABEL: func.func @cfg_forward
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0] slots [0, 1, 2, 3, 4] {
func.func @cfg_forward(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
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
    cf.cond_br %flag, ^a(%vt : tensor<64xf32>), ^b
  ^a(%target: tensor<64xf32>):
    pld.dispatch @chip(%c0, %target) : (index, tensor<64xf32>) -> ()
    pld.all_to_all_v(%vin, %target, %vs, %vsc, %vrc) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
    cf.br ^b
  ^b:
    scf.yield
  }
  return
}

// A collective passes coverage from each allocation its data may view to each its
// signal may view; a data that may (not must) be a view of the signal's allocation is
// no aliasing error. d1: {1}, d2: {2}, s: {1, 2}; s2: {1}.
// CHECK-LABEL: func.func @collective_through_if
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1] slots [0, 3] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2] slots [1] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [1, 2] slots [2] {
func.func @collective_through_if(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %d1 = pld.alloc_window_buffer(%c64) {name = "d1"} : (index) -> i64
  %d2 = pld.alloc_window_buffer(%c64) {name = "d2"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  %s2 = pld.alloc_window_buffer(%c64) {name = "s2"} : (index) -> i64
  %vd1 = pld.window(%d1, %c64) : (i64, index) -> tensor<64xf32>
  %vd2 = pld.window(%d2, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vs2 = pld.window(%s2, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %vd1) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c2, %vd2) : (index, tensor<64xf32>) -> ()
  %data = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %vd1 : tensor<64xf32>
  } else {
    scf.yield %vd2 : tensor<64xf32>
  }
  pld.allreduce(%data, %vs) : (tensor<64xf32>, tensor<64xf32>) -> ()
  %maybe = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %vd1 : tensor<64xf32>
  } else {
    scf.yield %vs2 : tensor<64xf32>
  }
  pld.allreduce(%maybe, %vs2) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}
