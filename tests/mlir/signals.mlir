// commscope-synthesize-signals: a pld.allreduce without a signal gets its own signal
// window just before it, so that commscope-materialize puts it into the data's domain.
// RUN: %opt %s --commscope-synthesize-signals | %FileCheck %s
// The pipeline of the reference compiler, as a textual pipeline:
// RUN: %opt %s --pass-pipeline='builtin.module(commscope-synthesize-signals,commscope-materialize)' | %FileCheck %s --check-prefix=PIPE
// The result has the property the verifier checks:
// RUN: %opt %s --pass-pipeline='builtin.module(commscope-synthesize-signals,commscope-materialize,commscope-verify)' > /dev/null
// Idempotent: a second run (in the same pipeline, or on the printed output) changes
// nothing.
// RUN: %opt %s --commscope-synthesize-signals > %t.once && %opt %t.once --commscope-synthesize-signals > %t.twice && cmp %t.once %t.twice
// RUN: %opt %s --pass-pipeline='builtin.module(commscope-synthesize-signals,commscope-synthesize-signals)' > %t.pipe && cmp %t.once %t.pipe
// The ops carry the names of docs/semantics.md, "The companion pass", as named locations:
// RUN: %opt %s --commscope-synthesize-signals --mlir-print-debuginfo | %FileCheck %s --check-prefix=NAMES
// NAMES-DAG: loc("__allreduce_signal_world_size_0"(
// NAMES-DAG: loc("__allreduce_signal_buf_0"(
// NAMES-DAG: loc("__allreduce_signal_0"(
// NAMES-DAG: loc("__allreduce_signal_world_size_2"(
// NAMES-DAG: loc("__allreduce_signal_buf_2"(
// NAMES-DAG: loc("__allreduce_signal_2"(
// Listed with the other passes:
// RUN: %opt --help | %FileCheck %s --check-prefix=HELP
// HELP: --commscope-synthesize-signals

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// The bindings of docs/semantics.md in MLIR form, before the call: world_size, the size
// world_size * core_num * 4 (bytes of i32), the allocation and an i32 window
// [world_size, core_num] of it; other attributes of the call stay.
// CHECK-LABEL: func.func @host
// CHECK:         %[[DATA:.*]] = pld.window(%{{.*}}, %{{.*}}) {dtype = f32}
// CHECK:         scf.for
// CHECK:         }
// CHECK-NEXT:    %[[WS:.*]] = pld.world_size() : () -> index
// CHECK-NEXT:    %[[CORES:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[WIDTH:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[PART:.*]] = arith.muli %[[WS]], %[[CORES]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.muli %[[PART]], %[[WIDTH]] : index
// CHECK-NEXT:    %[[BUF:.*]] = pld.alloc_window_buffer(%[[SIZE]]) {name = "__allreduce_signal_buf_0"} : (index) -> i64
// CHECK-NEXT:    %[[SIG:.*]] = pld.window(%[[BUF]], %[[WS]], %[[CORES]]) {dtype = i32} : (i64, index, index) -> tensor<?x1xi32>
// CHECK-NEXT:    %[[SUM:.*]] = pld.allreduce(%[[DATA]], %[[SIG]]) {op = "sum"} : (tensor<64xf32>, tensor<?x1xi32>) -> tensor<64xf32>
// CHECK-NEXT:    return %[[SUM]]
//
// The signal is in the data's domain (devices 0 and 1), a slot after the data's.
// PIPE-LABEL: func.func @host
// PIPE-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1] slots [0, 1]
// PIPE:           pld.alloc_window_buffer(%{{.*}}) {name = "data", window_buffer = 0 : i64}
// PIPE:           pld.alloc_window_buffer(%{{.*}}) {name = "__allreduce_signal_buf_0", window_buffer = 1 : i64}
// PIPE-NEXT:      pld.window({{.*}}) {dtype = i32, window_buffer = 1 : i64}
// PIPE-NEXT:      pld.allreduce
func.func @host() -> tensor<64xf32> attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %buf = pld.alloc_window_buffer(%c64) {name = "data"} : (index) -> i64
  %data = pld.window(%buf, %c64) {dtype = f32} : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %c2 step %c1 {
    pld.dispatch @chip(%r, %data) : (index, tensor<64xf32>) -> ()
  }
  %sum = pld.allreduce(%data) {op = "sum"} : (tensor<64xf32>) -> tensor<64xf32>
  return %sum : tensor<64xf32>
}

// An allreduce with its signal is left as written; the same program with the signal
// written by hand gives the same domain.
// CHECK-LABEL: func.func @explicit
// CHECK-NOT:     pld.world_size
// CHECK:         pld.allreduce(%{{.*}}, %{{.*}}) : (tensor<64xf32>, tensor<64xf32>) -> ()
// CHECK-NEXT:    return
// PIPE-LABEL: func.func @explicit
// PIPE-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1] slots [0, 1]
func.func @explicit() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %buf = pld.alloc_window_buffer(%c64) {name = "data"} : (index) -> i64
  %sbuf = pld.alloc_window_buffer(%c64) {name = "signal"} : (index) -> i64
  %data = pld.window(%buf, %c64) {dtype = f32} : (i64, index) -> tensor<64xf32>
  %sig = pld.window(%sbuf, %c64) {dtype = i32} : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %c2 step %c1 {
    pld.dispatch @chip(%r, %data) : (index, tensor<64xf32>) -> ()
  }
  pld.allreduce(%data, %sig) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// core_num sets the second dimension; N skips 1, which names in the module already use
// (an allocation's name here; any symbol or named location counts too), and counts on
// across functions in source order. Inside scf.if (no loop) the bindings go into the
// branch, just before the call.
// CHECK-LABEL: func.func @cores
// CHECK:         pld.alloc_window_buffer(%{{.*}}) {name = "__allreduce_signal_buf_1"}
// CHECK:         scf.if
// CHECK-NEXT:      %[[WS:.*]] = pld.world_size() : () -> index
// CHECK-NEXT:      %[[CORES:.*]] = arith.constant 4 : index
// CHECK:           pld.alloc_window_buffer(%{{.*}}) {name = "__allreduce_signal_buf_2"}
// CHECK-NEXT:      %[[SIG:.*]] = pld.window(%{{.*}}, %[[WS]], %[[CORES]]) {dtype = i32} : (i64, index, index) -> tensor<?x4xi32>
// CHECK-NEXT:      pld.allreduce(%{{.*}}, %[[SIG]]) {core_num = 4 : i64} : (tensor<64xf32>, tensor<?x4xi32>) -> ()
// CHECK:         pld.alloc_window_buffer(%{{.*}}) {name = "__allreduce_signal_buf_3"}
// CHECK:         tensor<?x8xi32>
// CHECK-NEXT:    pld.allreduce(%{{.*}}, %{{.*}}) {core_num = 8 : index}
// PIPE-LABEL: func.func @cores
// PIPE-NEXT:    pld.comm_domain_scope "comm_d0" devices [] slots [0, 1, 2, 3]
func.func @cores(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = pld.world_size() : () -> index
  %buf = pld.alloc_window_buffer(%c64) {name = "data"} : (index) -> i64
  %taken = pld.alloc_window_buffer(%c64) {name = "__allreduce_signal_buf_1"} : (index) -> i64
  %data = pld.window(%buf, %c64) {dtype = f32} : (i64, index) -> tensor<64xf32>
  %tv = pld.window(%taken, %c64) {dtype = f32} : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %n step %c1 {
    pld.dispatch @chip(%r, %data) : (index, tensor<64xf32>) -> ()
    pld.dispatch @chip(%r, %tv) : (index, tensor<64xf32>) -> ()
  }
  scf.if %flag {
    pld.allreduce(%data) {core_num = 4 : i64} : (tensor<64xf32>) -> ()
  }
  pld.allreduce(%data) {core_num = 8 : index} : (tensor<64xf32>) -> ()
  return
}

// Only host orchestrators are rewritten.
// CHECK-LABEL: func.func @chip_side
// CHECK-NOT:     pld.world_size
// CHECK:         pld.allreduce(%{{.*}}) : (tensor<64xf32>) -> ()
func.func @chip_side(%t: tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"} {
  pld.allreduce(%t) : (tensor<64xf32>) -> ()
  return
}
