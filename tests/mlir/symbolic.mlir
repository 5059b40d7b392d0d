// Symbolic device sets: an scf.for from a constant to pld.world_size (minus a constant,
// written as arith.subi or arith.addi of a negative, directly or through a temporary)
// with a constant step gives a world-relative progression, which the scope holds beside
// its ids: `devices [0, range(1, world_size - 1)]`. Sets are joined and clustered in
// canonical form, so that {0} and range(1, world_size) are all devices.
// RUN: %opt %s --commscope-materialize | %FileCheck %s
// The same after canonicalize and cse (which write %n - 1 as arith.addi %n, %c-1):
// RUN: %opt %s --pass-pipeline='builtin.module(canonicalize, cse, commscope-materialize)' | %FileCheck %s
// A lower device-limit option judges a progression by its first device, as the
// adapter's own limit does:
// RUN: %not %opt %s --pass-pipeline='builtin.module(commscope-materialize{device-limit=3})' 2>&1 | %FileCheck %s --check-prefix=LIMIT
// LIMIT:     symbolic.mlir:[[# @LINE + 106]]:8: error: allocation 'x' is used on device 3, at or above the device limit 3 (the device-limit option) [device-out-of-range]
// LIMIT-NOT: error:
// The result verifies, prints in the custom form and parses back to the same text, also
// through the generic form and bytecode:
// RUN: %opt %s --commscope-materialize --commscope-verify > %t.once && %opt %t.once > %t.twice && cmp %t.once %t.twice
// RUN: %opt %t.once --mlir-print-op-generic | %opt > %t.generic && cmp %t.once %t.generic
// RUN: %opt %t.once --verify-roundtrip > /dev/null
// In the generic form the progressions are an attribute of their own:
// RUN: %opt %t.once --mlir-print-op-generic | %FileCheck --check-prefix=GENERIC %s
// GENERIC: <{devices = array<i64>, name = "comm_d0", progressions = #pld.progressions<[range(1, world_size)]>, slots = array<i64: 0>}>
// GENERIC: <{devices = array<i64: 0>, name = "comm_d0", progressions = #pld.progressions<[range(1, world_size - 1)]>, slots = array<i64: 0>}>

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// CHECK-LABEL: func.func @tail(
// CHECK: pld.comm_domain_scope "comm_d0" devices [range(1, world_size)] slots [0] {
func.func @tail() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c1 to %n step %c1 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}

// {0} and range(1, world_size - 1) stay as written: device 0 is below the stop in every
// world, but the progression's stop is not the world's.
// CHECK-LABEL: func.func @id_and_offset(
// CHECK: pld.comm_domain_scope "comm_d0" devices [0, range(1, world_size - 1)] slots [0] {
func.func @id_and_offset() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %m = arith.subi %n, %c1 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c1 to %m step %c1 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}

// The evens and the odds are all devices: no progression is left.
// CHECK-LABEL: func.func @halves(
// CHECK: pld.comm_domain_scope "comm_d0" devices [] slots [0] {
func.func @halves() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %n step %c2 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  scf.for %r = %c1 to %n step %c2 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}

// {0} and range(1, world_size) are all devices, so x clusters with y (which runs on
// all): one scope.
// CHECK-LABEL: func.func @clusters_with_all(
// CHECK: pld.comm_domain_scope "comm_d0" devices [] slots [0, 1] {
// CHECK-NOT: pld.comm_domain_scope
// CHECK: return
func.func @clusters_with_all() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c1 to %n step %c1 {
    pld.dispatch @chip(%r, %vx) : (index, tensor<64xf32>) -> ()
  }
  scf.for %r = %c0 to %n step %c1 {
    pld.dispatch @chip(%r, %vy) : (index, tensor<64xf32>) -> ()
  }
  return
}

// An id that continues a progression downwards is absorbed: {0} and range(2,
// world_size, 2) are range(0, world_size, 2). The stop through a temporary, written as
// an addition of -1 (either way round); the progressions print by step, then residue.
// CHECK-LABEL: func.func @absorbed(
// CHECK: pld.comm_domain_scope "comm_d0" devices [range(0, world_size, 2), range(3, world_size - 1, 4)] slots [0] {
func.func @absorbed() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cm1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %m = arith.addi %cm1, %n : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c3 to %m step %c4 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  scf.for %r = %c2 to %n step %c2 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  return
}
