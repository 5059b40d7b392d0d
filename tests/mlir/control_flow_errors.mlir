// Errors under control flow: two roles of a collective that must be views of one
// allocation, whichever branch ran, are aliased (a may-alias is not: control_flow.mlir);
// scf.parallel and scf.forall are loops for collective-in-loop, as scf.for and scf.while.
// RUN: %not %opt %s --split-input-file --commscope-materialize 2>&1 >/dev/null | grep -E ': error: ' | %FileCheck %s
// RUN: %not %opt %s --split-input-file --commscope-synthesize-signals 2>&1 >/dev/null | %FileCheck %s --check-prefix=SIGNALS

// Each branch yields a different view of x: the data is a view of x either way.
// CHECK: error: the data and the signal of collective 'allreduce' are views of the same allocation 'x' [collective-aliased-windows]
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @must_alias(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %s = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  %data = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %a : tensor<64xf32>
  } else {
    scf.yield %b : tensor<64xf32>
  }
  pld.allreduce(%data, %s) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

// The same through an scf.for's iter_arg: its init and what the body yields are views
// of x.
// CHECK: error: the data and the signal of collective 'allreduce' are views of the same allocation 'x' [collective-aliased-windows]
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @must_alias_in_loop() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %a) -> (tensor<64xf32>) {
    scf.yield %b : tensor<64xf32>
  }
  pld.allreduce(%r, %a) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

// CHECK: error: collective 'all_to_all_v' cannot run inside a loop: its signal is single-use [collective-in-loop]
// CHECK: error: collective 'all_to_all_v' cannot run inside a loop: its signal is single-use [collective-in-loop]
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @parallel_loops() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %t = pld.alloc_window_buffer(%c64) {name = "t"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  %r = pld.alloc_window_buffer(%c64) {name = "r"} : (index) -> i64
  %vt = pld.window(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vr = pld.window(%r, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vt) : (index, tensor<64xf32>) -> ()
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    pld.all_to_all_v(%vt, %vt, %vs, %vt, %vr) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
    scf.reduce
  }
  scf.forall (%i) in (%c2) {
    pld.all_to_all_v(%vt, %vt, %vs, %vt, %vr) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  }
  return
}

// -----

// A CFG with an edge back is a loop too.
// CHECK: error: collective 'all_to_all_v' cannot run inside a loop: its signal is single-use [collective-in-loop]
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @cfg_loop(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = pld.alloc_window_buffer(%c64) {name = "t"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  %r = pld.alloc_window_buffer(%c64) {name = "r"} : (index) -> i64
  %vt = pld.window(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vr = pld.window(%r, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vt) : (index, tensor<64xf32>) -> ()
  scf.execute_region {
    cf.br ^loop
  ^loop:
    pld.all_to_all_v(%vt, %vt, %vs, %vt, %vr) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
    cf.cond_br %flag, ^loop, ^done
  ^done:
    scf.yield
  }
  return
}

// -----

// A signal-less allreduce in scf.forall would get a fresh signal per iteration.
// SIGNALS:      error: an allreduce without a signal cannot run inside a loop: its synthesized signal would be a fresh window per iteration [collective-in-loop]
// SIGNALS:      note: inside this loop
// SIGNALS-NEXT: scf.forall
// SIGNALS-NOT:  error:
// The pass alone finds it signal-less, and nothing else.
// CHECK: error: {{.*}} [malformed-op]
// CHECK-NOT: error:
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @synthesized_in_forall() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %buf = pld.alloc_window_buffer(%c64) {name = "data"} : (index) -> i64
  %data = pld.window(%buf, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %data) : (index, tensor<64xf32>) -> ()
  scf.forall (%i) in (%c2) {
    pld.allreduce(%data) : (tensor<64xf32>) -> ()
  }
  return
}

// -----

// An op whose regions no interface describes may run them any number of times
// (tensor.generate once per element): a collective there is in a loop.
// CHECK: error: collective 'all_to_all_v' cannot run inside a loop: its signal is single-use [collective-in-loop]
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @generate_loop() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %f0 = arith.constant 0.0 : f32
  %t = pld.alloc_window_buffer(%c64) {name = "t"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  %r = pld.alloc_window_buffer(%c64) {name = "r"} : (index) -> i64
  %vt = pld.window(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vr = pld.window(%r, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vt) : (index, tensor<64xf32>) -> ()
  %g = tensor.generate {
  ^bb0(%i: index):
    pld.all_to_all_v(%vt, %vt, %vs, %vt, %vr) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
    tensor.yield %f0 : f32
  } : tensor<64xf32>
  return
}
