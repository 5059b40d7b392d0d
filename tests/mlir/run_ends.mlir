// W, the smallest world a host needs, comes from the dispatches that surely run. One
// after an op that may end the run in some worlds only does not: cf.assert, a call (its
// callee may exit), an op of an unregistered dialect. In a world of 1, @assert dispatches
// x on device 0 and then aborts: x needs {0} there, so its set stays
// [0, range(1, world_size - 1)], and is not merged into range(0, world_size - 1) (empty in
// a world of 1) by the dispatch on device 7 after the assert.
// RUN: %opt %s --allow-unregistered-dialect --commscope-materialize | %FileCheck %s
// RUN: %opt %s --allow-unregistered-dialect --commscope-materialize --commscope-verify > /dev/null

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @exit(i32)

// CHECK-LABEL: func.func @assert
// CHECK: pld.comm_domain_scope "comm_d0" devices [0, range(1, world_size - 1)] slots [0]
func.func @assert() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %ws = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %w = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  %u = arith.subi %ws, %c1 : index
  scf.for %r = %c1 to %u step %c1 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  %ok = arith.cmpi uge, %ws, %c8 : index
  cf.assert %ok, "needs 8 ranks"
  pld.dispatch @chip(%c7, %w) : (index, tensor<64xf32>) -> ()
  return
}

// The same with the check written as a call of a function that exits, under scf.if.
// CHECK-LABEL: func.func @exit_call
// CHECK: pld.comm_domain_scope "comm_d0" devices [0, range(1, world_size - 1)] slots [0]
func.func @exit_call() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %status = arith.constant 1 : i32
  %ws = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %w = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  %u = arith.subi %ws, %c1 : index
  scf.for %r = %c1 to %u step %c1 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  %small = arith.cmpi ult, %ws, %c8 : index
  scf.if %small {
    func.call @exit(%status) : (i32) -> ()
  }
  pld.dispatch @chip(%c7, %w) : (index, tensor<64xf32>) -> ()
  return
}

// An op of a dialect the tool does not know may check the world as well.
// CHECK-LABEL: func.func @unregistered
// CHECK: pld.comm_domain_scope "comm_d0" devices [0, range(1, world_size - 1)] slots [0]
func.func @unregistered() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %ws = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %w = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  %u = arith.subi %ws, %c1 : index
  scf.for %r = %c1 to %u step %c1 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  "test.require_world"(%ws) : (index) -> ()
  pld.dispatch @chip(%c7, %w) : (index, tensor<64xf32>) -> ()
  return
}

// After the dispatch on device 7, the same checks end no run that matters to it: every
// run reaches device 7, so the world has at least 8 devices and {0} joins the
// progression.
// CHECK-LABEL: func.func @checks_after
// CHECK: pld.comm_domain_scope "comm_d0" devices [range(0, world_size - 1)] slots [0]
func.func @checks_after() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %status = arith.constant 1 : i32
  %ws = pld.world_size() : () -> index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %w = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c7, %w) : (index, tensor<64xf32>) -> ()
  %u = arith.subi %ws, %c1 : index
  scf.for %r = %c1 to %u step %c1 {
    pld.dispatch @chip(%r, %v) : (index, tensor<64xf32>) -> ()
  }
  %ok = arith.cmpi uge, %ws, %c8 : index
  cf.assert %ok, "needs 8 ranks"
  func.call @exit(%status) : (i32) -> ()
  return
}
