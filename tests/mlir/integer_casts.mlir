// A device or a bound cast to another integer type (i32 device operands, a world size
// read as i32 and cast to index, as lowerings write them) keeps its devices: arith's
// index_cast, index_castui, extsi, extui and trunci to index or 32 bits or more keep
// every device and world size below the device limit, so the cast is a copy. A cast to
// fewer bits may wrap, and its devices stay unsupported.
// RUN: %not %opt %s --split-input-file --commscope-materialize 2>/dev/null | %FileCheck %s
// RUN: %not %opt %s --split-input-file --commscope-materialize 2>&1 >/dev/null | %FileCheck %s --check-prefix=ERR

func.func private @chip(i32, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
// CHECK-LABEL: func.func @device_cast
// CHECK: pld.comm_domain_scope "comm_d0" devices [] slots [0]
func.func @device_cast() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = pld.world_size() : () -> index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %n step %c1 {
    %d = arith.index_cast %r : index to i32
    pld.dispatch @chip(%d, %v) : (i32, tensor<64xf32>) -> ()
  }
  return
}

// -----

func.func private @chip(i32, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @wide(i64, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
// CHECK-LABEL: func.func @bound_cast
// CHECK: pld.comm_domain_scope "comm_d0" devices [range(1, world_size)] slots [0]
// CHECK: pld.comm_domain_scope "comm_d1" devices [2, 3] slots [1]
func.func @bound_cast() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %w = pld.world_size() : () -> i32
  %n = arith.index_cast %w : i32 to index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c1 to %n step %c1 {
    %d = arith.index_castui %r : index to i32
    pld.dispatch @chip(%d, %v) : (i32, tensor<64xf32>) -> ()
  }
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %u = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  %c3 = arith.constant 3 : i64
  %d3 = arith.trunci %c3 : i64 to i32
  pld.dispatch @chip(%d3, %u) : (i32, tensor<64xf32>) -> ()
  %c2 = arith.constant 2 : i32
  %d2 = arith.extsi %c2 : i32 to i64
  pld.dispatch @wide(%d2, %u) : (i64, tensor<64xf32>) -> ()
  return
}

// -----

// An i8 device may wrap: 200 is -56 in i8.
func.func private @narrow(i8, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
// ERR: error: cannot infer the devices of the dispatch of 'narrow'{{.*}}[unsupported-device]
// ERR-NEXT: pld.dispatch @narrow
func.func @narrow_cast() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = pld.world_size() : () -> index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %n step %c1 {
    %d = arith.index_cast %r : index to i8
    pld.dispatch @narrow(%d, %v) : (i8, tensor<64xf32>) -> ()
  }
  return
}
