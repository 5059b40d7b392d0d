// scf.for is half-open with a positive step: a loop with a constant step <= 0 runs on no
// device Python's range rules would give it, so its dispatch is unsupported-device
// (`step -1` from 4 to 0 is no [1, 2, 3, 4]).
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @negative_step() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %m1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c4 to %c0 step %m1 {
    // expected-note @-1 {{the device operand is the induction variable of this scf.for}}
    // expected-error @+1 {{[unsupported-device]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @zero_step() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %c4 step %c0 {
    // expected-note @-1 {{the device operand is the induction variable of this scf.for}}
    // expected-error @+1 {{[unsupported-device]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

// A negative step in i32 (scf.for on signless integers) is judged the same way.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @negative_i32_step() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %m2 = arith.constant -2 : i32
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c4 to %c0 step %m2 : i32 {
    // expected-note @-1 {{the device operand is the induction variable of this scf.for}}
    // expected-error @+1 {{[unsupported-device]}}
    "pld.dispatch"(%r, %v) {callee = @chip} : (i32, tensor<64xf32>) -> ()
  }
  return
}

// -----

// A positive step still gives the exact set: {1, 3}.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @positive_step() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c1 to %c4 step %c2 {
    "pld.dispatch"(%r, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}
