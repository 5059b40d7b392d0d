// The notes of docs/semantics.md, "Notes", as MLIR notes, each once, at the op it names:
// the earlier allocation of a duplicate-name, the loop whose bounds made a
// partial-world-range / negative-device / device-out-of-range set, each view of an
// unconsumed-alloc, the innermost enclosing loop of a collective-in-loop (aliased.mlir has
// the notes of collective-aliased-windows). --verify-diagnostics fails on any note not
// expected here, so a place noted twice (by the library and by the adapter) would fail too.
// RUN: %opt %s --verify-diagnostics --commscope-materialize
// Each error is followed by its notes, in source order:
// RUN: %not %opt %s --commscope-materialize 2>&1 >/dev/null | grep -E ': (error|note): ' | %FileCheck %s
// CHECK:      notes.mlir:37:8: error: allocation name 'x' is used twice in one comm domain [duplicate-name]
// CHECK-NEXT: notes.mlir:34:8: note: the first allocation named 'x' is here
// CHECK-NEXT: notes.mlir:58:5: error: {{.*}} [partial-world-range]
// CHECK-NEXT: notes.mlir:56:3: note: the devices come from this loop
// CHECK-NEXT: notes.mlir:63:5: error: {{.*}} [negative-device]
// CHECK-NEXT: notes.mlir:61:3: note: the devices come from this loop
// CHECK-NEXT: notes.mlir:68:5: error: {{.*}} [device-out-of-range]
// CHECK-NEXT: notes.mlir:66:3: note: the devices come from this loop
// CHECK-NEXT: notes.mlir:72:3: error: {{.*}} [negative-device]
// CHECK-NEXT: notes.mlir:46:10: note: the device operand is defined here
// CHECK-NEXT: notes.mlir:79:8: error: allocation 'x' has views but no dispatch or collective gives it devices [unconsumed-alloc]
// CHECK-NEXT: notes.mlir:81:9: note: a view of it is taken here
// CHECK-NEXT: notes.mlir:84:9: note: a view of it is taken here
// CHECK-NEXT: notes.mlir:107:7: error: {{.*}} [collective-in-loop]
// CHECK-NEXT: notes.mlir:103:5: note: inside this loop
// CHECK-NOT:  error:
// CHECK-NOT:  note:

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

func.func @duplicate() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{the first allocation named 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-error @+1 {{allocation name 'x' is used twice in one comm domain [duplicate-name]}}
  %y = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %vy) : (index, tensor<64xf32>) -> ()
  return
}

func.func @device_loops() attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-note @+1 {{the device operand is defined here}}
  %cm2 = arith.constant -2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %big = arith.constant 2000000 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the devices come from this loop}}
  scf.for %r = %cm2 to %n step %c1 {
    // expected-error @+1 {{[partial-world-range]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  // expected-note @+1 {{the devices come from this loop}}
  scf.for %r = %cm2 to %c2 step %c1 {
    // expected-error @+1 {{[negative-device]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  // expected-note @+1 {{the devices come from this loop}}
  scf.for %r = %c0 to %big step %c1 {
    // expected-error @+1 {{[device-out-of-range]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  // A constant device comes from no loop: the adapter notes where it is defined.
  // expected-error @+1 {{[negative-device]}}
  pld.dispatch @chip(%cm2, %v) : (index, tensor<64xf32>) -> ()
  return
}

func.func @unconsumed() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{[unconsumed-alloc]}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v1 = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %c32 = arith.constant 32 : index
  // expected-note @+1 {{a view of it is taken here}}
  %v2 = pld.window(%x, %c32) : (i64, index) -> tensor<32xf32>
  return
}

func.func @in_loop(%go: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
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
  scf.for %i = %c0 to %c2 step %c1 {
    // The innermost loop only.
    // expected-note @+1 {{inside this loop}}
    scf.while : () -> () {
      scf.condition(%go)
    } do {
      // expected-error @+1 {{[collective-in-loop]}}
      pld.all_to_all_v(%vt, %vt, %vs, %vt, %vr) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
      scf.yield
    }
  }
  return
}
