// The host collectives: buffers that only collectives use inherit coverage from their
// data or target buffer, transitively and whatever the order; a collective's result is
// its data (or target) again.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.type = "orchestration"}

// The built-in example of commscope-opt (tests/cli/builtin.py), in MLIR form: the same
// two domains.
// CHECK-LABEL: func.func @host_orch
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [] slots [0, 1] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [0, 1] slots [2] {
// CHECK:             pld.alloc_window_buffer({{.*}}) {name = "buf", window_buffer = 0 : i64}
// CHECK:             pld.alloc_window_buffer({{.*}}) {name = "signal", window_buffer = 1 : i64}
// CHECK:             pld.alloc_window_buffer({{.*}}) {name = "staging", window_buffer = 2 : i64}
// CHECK:           }
// CHECK:         }
func.func @host_orch() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %c128 = arith.constant 128 : index
  %n = "pld.world_size"() : () -> index
  %buf = "pld.alloc_window_buffer"(%c1024) {name = "buf"} : (index) -> i64
  %signal = "pld.alloc_window_buffer"(%n) {name = "signal"} : (index) -> i64
  %stage = "pld.alloc_window_buffer"(%c128) {name = "staging"} : (index) -> i64
  %data = "pld.window"(%buf, %c64) {dtype = f32} : (i64, index) -> tensor<64xf32>
  %sig = "pld.window"(%signal, %n) {dtype = i32} : (i64, index) -> tensor<64xf32>
  %part = "pld.window"(%stage, %c64) {dtype = f16} : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r, %data) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  %sum = "pld.allreduce"(%data, %sig) {op = "sum"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  scf.for %d = %c0 to %c2 step %c1 {
    "pld.dispatch"(%d, %part) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  return
}

// CHECK-LABEL: func.func @collectives
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1, 2, 3] slots [0, 1, 2, 9] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [6] slots [3, 10] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [5] slots [4, 5] {
// CHECK-NEXT:          pld.comm_domain_scope "comm_d3" devices [8] slots [6, 7, 8] {
// CHECK:                 pld.barrier
// CHECK:       return
func.func @collectives() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %d = "pld.alloc_window_buffer"(%c64) {name = "d"} : (index) -> i64
  %s1 = "pld.alloc_window_buffer"(%c64) {name = "s1"} : (index) -> i64
  %s2 = "pld.alloc_window_buffer"(%c64) {name = "s2"} : (index) -> i64
  %in = "pld.alloc_window_buffer"(%c64) {name = "in"} : (index) -> i64
  %t = "pld.alloc_window_buffer"(%c64) {name = "t"} : (index) -> i64
  %sg = "pld.alloc_window_buffer"(%c64) {name = "sg"} : (index) -> i64
  %t2 = "pld.alloc_window_buffer"(%c64) {name = "t2"} : (index) -> i64
  %s4 = "pld.alloc_window_buffer"(%c64) {name = "s4"} : (index) -> i64
  %r4 = "pld.alloc_window_buffer"(%c64) {name = "r4"} : (index) -> i64
  %s5 = "pld.alloc_window_buffer"(%c64) {name = "s5"} : (index) -> i64
  %sc = "pld.alloc_window_buffer"(%c64) {name = "sc"} : (index) -> i64
  %vd = "pld.window"(%d, %c64) : (i64, index) -> tensor<64xf32>
  %vs1 = "pld.window"(%s1, %c64) : (i64, index) -> tensor<64xf32>
  %vs2 = "pld.window"(%s2, %c64) : (i64, index) -> tensor<64xf32>
  %vin = "pld.window"(%in, %c64) : (i64, index) -> tensor<64xf32>
  %vt = "pld.window"(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vsg = "pld.window"(%sg, %c64) : (i64, index) -> tensor<64xf32>
  %vt2 = "pld.window"(%t2, %c64) : (i64, index) -> tensor<64xf32>
  %vs4 = "pld.window"(%s4, %c64) : (i64, index) -> tensor<64xf32>
  %vr4 = "pld.window"(%r4, %c64) : (i64, index) -> tensor<64xf32>
  %vs5 = "pld.window"(%s5, %c64) : (i64, index) -> tensor<64xf32>
  %vsc = "pld.window"(%sc, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %c4 step %c1 {
    "pld.dispatch"(%r, %vd) {callee = @chip} : (index, tensor<64xf32>) -> ()
  }
  "pld.dispatch"(%c6, %vin) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c6, %vsc) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c5, %vt) {callee = @chip} : (index, tensor<64xf32>) -> ()
  "pld.dispatch"(%c8, %vt2) {callee = @chip} : (index, tensor<64xf32>) -> ()
  // s2 <- s1 is stated before s1 <- d: inheritance is computed to a fixed point.
  "pld.broadcast"(%vs1, %vs2) : (tensor<64xf32>, tensor<64xf32>) -> ()
  %sum = "pld.allreduce"(%vd, %vs1) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // The allreduce's result is d's view: s5 <- d.
  "pld.reduce_scatter"(%sum, %vs5) : (tensor<64xf32>, tensor<64xf32>) -> ()
  "pld.allgather"(%vin, %vt, %vsg) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // send_counts has its own window: two arguments of one allocation would alias.
  "pld.all_to_all_v"(%vin, %vt2, %vs4, %vsc, %vr4) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  "pld.barrier"(%vs2) : (tensor<64xf32>) -> ()
  return
}
