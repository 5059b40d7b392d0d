// An scf.for steps with an arith.addi that wraps: i8 from 100 to 127 by 20 runs 100, 120,
// -116, ... and never stops, while its bounds say 100 and 120; i64 or index from 3 to 4
// by 2^63 - 1 runs 3, -2^63 + 2, 1, -2^63 and -1 (mlir-cpu-runner), device 1 among them. A loop whose induction variable may pass its type's maximum before the
// upper bound is unsupported-device; one that cannot (0 to 100 by 20) keeps its devices.
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize

func.func private @chip(i8, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @wraps() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %lo = arith.constant 100 : i8
  %hi = arith.constant 127 : i8
  %step = arith.constant 20 : i8
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %lo to %hi step %step : i8 {
    // expected-error @+1 {{[unsupported-device]}}
    pld.dispatch @chip(%r, %v) : (i8, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(i8, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @stays() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %lo = arith.constant 0 : i8
  %hi = arith.constant 100 : i8
  %step = arith.constant 20 : i8
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %lo to %hi step %step : i8 {
    pld.dispatch @chip(%r, %v) : (i8, tensor<64xf32>) -> ()
  }
  return
}

// -----

// Over the world size in i32: no world the analysis handles wraps it.
func.func private @chip(i32, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @world() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %lo = arith.constant 0 : i32
  %step = arith.constant 1 : i32
  %n = pld.world_size() : () -> i32
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %lo to %n step %step : i32 {
    pld.dispatch @chip(%r, %v) : (i32, tensor<64xf32>) -> ()
  }
  return
}

// -----

// Over the world size in i8: a world of 128 ranks or more would wrap it.
func.func private @chip(i8, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @world_narrow() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %lo = arith.constant 0 : i8
  %step = arith.constant 1 : i8
  %n = pld.world_size() : () -> i8
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %lo to %n step %step : i8 {
    // expected-error @+1 {{[unsupported-device]}}
    pld.dispatch @chip(%r, %v) : (i8, tensor<64xf32>) -> ()
  }
  return
}

// -----

// The same in 64 bits.
func.func private @chip(i64, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @wraps_i64() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %lo = arith.constant 3 : i64
  %hi = arith.constant 4 : i64
  %step = arith.constant 9223372036854775807 : i64
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %lo to %hi step %step : i64 {
    // expected-error @+1 {{[unsupported-device]}}
    pld.dispatch @chip(%r, %v) : (i64, tensor<64xf32>) -> ()
  }
  return
}

// -----

// An index is 64 bits wide (MLIR's default data layout): a world loop by 2^63 - 1 may
// wrap, one by 1 may not.
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @wraps_index() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %lo = arith.constant 2 : index
  %one = arith.constant 1 : index
  %step = arith.constant 9223372036854775807 : index
  %n = pld.world_size() : () -> index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the device operand is the induction variable of this scf.for}}
  scf.for %r = %lo to %n step %step {
    // expected-error @+1 {{[unsupported-device]}}
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  scf.for %r = %lo to %n step %one {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}
