// Every error code of docs/semantics.md as an MLIR diagnostic at its op, the code in brackets.
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize
// All of them, in source order, each at file:line:col, and a failing exit status:
// RUN: %not %opt %s --split-input-file --commscope-materialize 2>&1 >/dev/null | sed "/: note: /,+2d" | %FileCheck %s
// CHECK: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [dead-alloc]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [unconsumed-alloc]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [empty-coverage]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [unsupported-device]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [unsupported-device]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [unsupported-device]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [negative-device]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [negative-device]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [device-out-of-range]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [device-out-of-range]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [partial-world-range]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [partial-world-range]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [duplicate-name]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [malformed-op]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [malformed-op]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [malformed-op]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [malformed-op]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [malformed-op]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [dead-alloc]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [malformed-op]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [collective-arg-not-window]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [uncovered-collective]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [barrier-no-coverage]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [collective-in-loop]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} [collective-in-loop]
// CHECK-NEXT: {{.+}}
// CHECK-NEXT: {{ *}}^
// CHECK-NOT: error:

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'x' has no window view [dead-alloc]}}
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  return
}

// -----

func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'x' has views but no dispatch or collective gives it devices [unconsumed-alloc]}}
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'x' is only dispatched from empty loops, so its device set is empty [empty-coverage]}}
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c3 to %c1 step %c1 {
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host(%dev: index, %stop: index) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-note @-1 {{the device operand is an argument of 'host'}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  // A parameter, an arithmetic result, a loop with an unknown bound.
  // expected-error @+1 {{cannot infer the devices of the dispatch of 'chip' from its device= expression: the device operand of pld.dispatch must be a constant or the induction variable of an enclosing counted loop (scf.for, affine.for, a one-dimensional scf.parallel or scf.forall) with constant bounds, or from a constant to pld.world_size minus a constant with a constant step [unsupported-device]}}
  "pld.dispatch"(%dev, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  %sum = arith.addi %c1, %c1 : index
  // expected-note @-1 {{the device operand is defined here}}
  // expected-error @+1 {{[unsupported-device]}}
  "pld.dispatch"(%sum, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  scf.for %r = %c0 to %stop step %c1 {
    // expected-note @-1 {{the device operand is the induction variable of this scf.for}}
    // expected-error @+1 {{[unsupported-device]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %cm1 = arith.constant -1 : index
  // expected-note @-1 {{the device operand is defined here}}
  %cm2 = arith.constant -2 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-error @+1 {{the dispatch of 'chip' uses negative device -1 [negative-device]}}
  "pld.dispatch"(%cm1, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  scf.for %r = %cm2 to %c2 step %c1 {
    // expected-note @-1 {{the devices come from this loop}}
    // expected-error @+1 {{uses negative device -2 [negative-device]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %big = arith.constant 1048576 : index
  // expected-note @-1 {{the device operand is defined here}}
  %huge = arith.constant 4000000000 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-error @+1 {{the dispatch of 'chip' uses device 1048576, at or above the device limit 1048576 [device-out-of-range]}}
  "pld.dispatch"(%big, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // Judged without enumerating four billion devices.
  scf.for %r = %c0 to %huge step %c1 {
    // expected-note @-1 {{the devices come from this loop}}
    // expected-error @+1 {{uses device 3999999999, at or above the device limit 1048576 [device-out-of-range]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %cm1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %n = "pld.world_size"() : () -> index
  %past = arith.addi %n, %c1 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  // Over the world from below device 0, and to beyond it (world-relative progressions
  // start at 0 or above and stop at pld.world_size minus a non-negative constant).
  scf.for %r = %cm1 to %n step %c1 {
    // expected-note @-1 {{the devices come from this loop}}
    // expected-error @+1 {{iterates over the world with a negative start, a step below 1 or a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for START >= 0, STEP >= 1 and C >= 0 [partial-world-range]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  scf.for %r = %c0 to %past step %c2 {
    // expected-note @-1 {{the devices come from this loop}}
    // expected-error @+1 {{[partial-world-range]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  // expected-note @-1 {{the first allocation named 'x' is here}}
  %vx = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  // Same name in another domain: fine.
  %y = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %vy = "pld.window"(%y, %c64) : (i64, index) -> tensor<64xf32>
  // Same name in the same domain: reported at the later allocation.
  // expected-error @+1 {{allocation name 'x' is used twice in one comm domain [duplicate-name]}}
  %z = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %vz = "pld.window"(%z, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %vx) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c1, %vy) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c0, %vz) {callee = @chip} : (index, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{operation 'allreduce' takes 2 positional arguments, got 1: run commscope-synthesize-signals first to give it a signal [malformed-op]}}
  "pld.allreduce"(%v) : (tensor<64xf32>) -> ()
  // expected-error @+1 {{operation 'window' takes 2 positional arguments, got 1 [malformed-op]}}
  %w = "pld.window"(%x) : (i64) -> tensor<64xf32>
  // expected-error @+1 {{operation 'alloc_window_buffer' takes 1 positional argument, got 0 [malformed-op]}}
  %y = "pld.alloc_window_buffer"() {name = "y"} : () -> i64
  // expected-error @+1 {{allocation 'z' must be assigned directly to one variable [malformed-op]}}
  "pld.alloc_window_buffer"(%c64) {name = "z"} : (index) -> ()
  // expected-error @+1 {{call of unknown function 'nowhere': pld.dispatch names no function of the module [malformed-op]}}
  "pld.dispatch"(%c0, %v) {callee = @nowhere} : (index, tensor<64xf32>) -> ()
  return
}

// -----

// The rewrite wraps one block: allocations in a host orchestrator with a CFG are out of
// the MLIR form (multi_block.mlir has more).
func.func @host(%c: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-note @-1 {{'host' has 2 blocks}}
  %c64 = arith.constant 64 : index
  // expected-error @+2 {{allocation 'x' has no window view [dead-alloc]}}
  // expected-error @+1 {{allocation 'x' is in a body that cannot be wrapped in comm-domain scopes: pld.comm_domain_scope wraps a function of one block (use scf control flow) [malformed-op]}}
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  cf.br ^next
^next:
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-note @-1 {{argument 1 of the collective is an argument of 'host'}}
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{argument 1 of collective 'allreduce' does not resolve to a window view [collective-arg-not-window]}}
  "pld.allreduce"(%v, %t) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  %d = "pld.alloc_window_buffer"(%c64) {name = "d"} : (index) -> i64
  %s = "pld.alloc_window_buffer"(%c64) {name = "s"} : (index) -> i64
  %vd = "pld.window"(%d, %c64) : (i64, index) -> tensor<64xf32>
  %vs = "pld.window"(%s, %c64) : (i64, index) -> tensor<64xf32>
  // One diagnostic per cause: d and s are not reported as unconsumed as well.
  // expected-error @+1 {{the buffer of collective 'broadcast' has no devices to pass on [uncovered-collective]}}
  "pld.broadcast"(%vd, %vs) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  %s = "pld.alloc_window_buffer"(%c64) {name = "s"} : (index) -> i64
  %vs = "pld.window"(%s, %c64) : (i64, index) -> tensor<64xf32>
  // expected-error @+1 {{the signal of barrier 'barrier' has no devices of its own [barrier-no-coverage]}}
  "pld.barrier"(%vs) : (tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host(%go: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %t = "pld.alloc_window_buffer"(%c64) {name = "t"} : (index) -> i64
  %s = "pld.alloc_window_buffer"(%c64) {name = "s"} : (index) -> i64
  %r = "pld.alloc_window_buffer"(%c64) {name = "r"} : (index) -> i64
  %vt = "pld.window"(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vs = "pld.window"(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vr = "pld.window"(%r, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %vt) {callee = @chip} : (index, tensor<64xf32>) -> ()
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-note @-1 {{inside this loop}}
    // expected-error @+1 {{collective 'all_to_all_v' cannot run inside a loop: its signal is single-use [collective-in-loop]}}
    "pld.all_to_all_v"(%vt, %vt, %vs, %vt, %vr) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host(%go: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = "pld.alloc_window_buffer"(%c64) {name = "t"} : (index) -> i64
  %s = "pld.alloc_window_buffer"(%c64) {name = "s"} : (index) -> i64
  %r = "pld.alloc_window_buffer"(%c64) {name = "r"} : (index) -> i64
  %vt = "pld.window"(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vs = "pld.window"(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vr = "pld.window"(%r, %c64) : (i64, index) -> tensor<64xf32>
  "pld.dispatch"(%c0, %vt) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // expected-note @+1 {{inside this loop}}
  scf.while : () -> () {
    scf.condition(%go)
  } do {
    // expected-error @+1 {{[collective-in-loop]}}
    "pld.all_to_all_v"(%vt, %vt, %vs, %vt, %vr) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
    scf.yield
  }
  return
}
