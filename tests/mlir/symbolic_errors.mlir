// World-relative loops the analysis still refuses: a start or step that is no constant
// (unsupported-device), a start beyond the device limit (device-out-of-range), a stop
// that is world_size plus a constant or minus an open value; a module with an error is
// left as it was.
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host(%k: index) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %k to %n step %c1 {
    // expected-error @+1 {{cannot infer the devices of the dispatch of 'chip' from its device= expression}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %c1 to %n step %k {
    // expected-error @+1 {{[unsupported-device]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

// A stop of world_size minus an open value, or of another value minus a constant.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host(%k: index) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %m = arith.subi %n, %k : index
  %j = arith.subi %k, %c1 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %c0 to %m step %c1 {
    // expected-error @+1 {{[unsupported-device]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %c0 to %j step %c1 {
    // expected-error @+1 {{[unsupported-device]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %big = arith.constant 1048576 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %past = arith.subi %n, %c2 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %big to %n step %c1 {
    // expected-note @-1 {{the devices come from this loop}}
    // expected-error @+1 {{uses device 1048576, at or above the device limit 1048576 [device-out-of-range]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}

// -----

// world_size + 1, as arith.addi or as arith.subi of -1.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %a = arith.addi %n, %c1 : index
  %s = arith.subi %n, %cm1 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %a step %c1 {
    // expected-note @-1 {{the devices come from this loop}}
    // expected-error @+1 {{[partial-world-range]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  scf.for %r = %c0 to %s step %c1 {
    // expected-note @-1 {{the devices come from this loop}}
    // expected-error @+1 {{[partial-world-range]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}
