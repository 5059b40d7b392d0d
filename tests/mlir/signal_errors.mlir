// The errors of commscope-synthesize-signals: each at its pld.allreduce, the code in
// brackets, a collective-in-loop with a note at the innermost loop.
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-synthesize-signals
// All of them, in source order, with the notes after their error; and in a pipeline a
// module the synthesis rejects goes no further (commscope-materialize would report the
// signal-less allreduces again, as malformed-op):
// RUN: %not %opt %s --split-input-file --pass-pipeline='builtin.module(commscope-synthesize-signals,commscope-materialize)' 2>&1 >/dev/null | %FileCheck %s
// CHECK:      signal_errors.mlir:1 offset :49:7: error: an allreduce without a signal cannot run inside a loop: its synthesized signal would be a fresh window per iteration [collective-in-loop]
// CHECK:      signal_errors.mlir:1 offset :46:5: note: inside this loop
// CHECK:      signal_errors.mlir:1 offset :62:5: error: {{.*}} [collective-in-loop]
// CHECK:      signal_errors.mlir:1 offset :57:3: note: inside this loop
// CHECK:      error: the core_num= of an allreduce without a signal must be a positive integer constant: the core_num attribute of pld.allreduce [malformed-op]
// CHECK-COUNT-4: error: {{.*}} [malformed-op]
// CHECK:      error: operation 'allreduce' takes 2 positional arguments, got 3 [malformed-op]
// CHECK:      error: {{.*}} [collective-in-loop]
// CHECK-NOT:  error:
// The module after the failed pass is the module before it (all or nothing):
// RUN: %not %opt %s --split-input-file --commscope-synthesize-signals --mlir-print-ir-after-failure 2>&1 | %FileCheck %s --check-prefix=SAME
// SAME:      IR Dump After CommscopeSynthesizeSignals Failed
// SAME-NOT:  __allreduce_signal
// SAME-NOT:  pld.world_size
// SAME:      IR Dump After CommscopeSynthesizeSignals Failed
// SAME-NOT:  pld.world_size
// SAME:      IR Dump After CommscopeSynthesizeSignals Failed
// SAME-NEXT: module {
// SAME-NEXT:   func.func @valid
// SAME-NEXT:     pld.allreduce(%arg0) : (tensor<64xf32>) -> ()
// SAME-NEXT:     return
// SAME:        func.func @host
// SAME-NEXT:     pld.allreduce(%arg0) : (tensor<64xf32>) -> ()
// SAME-NOT:  pld.world_size

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %buf = pld.alloc_window_buffer(%c64) {name = "data"} : (index) -> i64
  %data = pld.window(%buf, %c64) {dtype = f32} : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %c2 step %c1 {
    pld.dispatch @chip(%r, %data) : (index, tensor<64xf32>) -> ()
  }
  // The note points at the innermost loop.
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      // expected-note @-1 {{inside this loop}}
      // expected-error @+1 {{an allreduce without a signal cannot run inside a loop: its synthesized signal would be a fresh window per iteration [collective-in-loop]}}
      pld.allreduce(%data) : (tensor<64xf32>) -> ()
    }
  }
  // An allreduce with its signal may run in a loop: the signal is one window.
  scf.for %i = %c0 to %c2 step %c1 {
    pld.allreduce(%data, %data) : (tensor<64xf32>, tensor<64xf32>) -> ()
  }
  // expected-note @+1 {{inside this loop}}
  scf.while : () -> () {
    %go = arith.constant false
    scf.condition(%go)
  } do {
    // expected-error @+1 {{[collective-in-loop]}}
    pld.allreduce(%data) : (tensor<64xf32>) -> ()
    scf.yield
  }
  return
}

// -----

// core_num must be a positive integer: not a string, a boolean, zero, a negative value
// or an integer wider than 64 bits.
func.func @host(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-error @+1 {{the core_num= of an allreduce without a signal must be a positive integer constant: the core_num attribute of pld.allreduce [malformed-op]}}
  pld.allreduce(%t) {core_num = "four"} : (tensor<64xf32>) -> ()
  // expected-error @+1 {{[malformed-op]}}
  pld.allreduce(%t) {core_num = true} : (tensor<64xf32>) -> ()
  // expected-error @+1 {{[malformed-op]}}
  pld.allreduce(%t) {core_num = 0 : i64} : (tensor<64xf32>) -> ()
  // expected-error @+1 {{[malformed-op]}}
  pld.allreduce(%t) {core_num = -2 : i32} : (tensor<64xf32>) -> ()
  // expected-error @+1 {{[malformed-op]}}
  pld.allreduce(%t) {core_num = 36893488147419103232 : i128} : (tensor<64xf32>) -> ()
  return
}

// -----

// Other numbers of operands; and one error anywhere keeps every valid site unchanged
// (the first allreduce here, and the whole of @valid).
func.func @valid(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  pld.allreduce(%t) : (tensor<64xf32>) -> ()
  return
}
func.func @host(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  pld.allreduce(%t) : (tensor<64xf32>) -> ()
  // expected-error @+1 {{operation 'allreduce' takes 2 positional arguments, got 3 [malformed-op]}}
  pld.allreduce(%t, %t, %t) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-note @-1 {{inside this loop}}
    // expected-error @+1 {{[collective-in-loop]}}
    pld.allreduce(%t) {core_num = 2 : i64} : (tensor<64xf32>) -> ()
  }
  return
}
