// The pass as MLIR passes are: a registered name in a textual pipeline after
// the upstream canonicalize and cse, so that bounds and devices computed by arith ops
// fold to constants and analyze; options; statistics; nested modules.
// RUN: %opt %s --pass-pipeline='builtin.module(canonicalize, cse, commscope-materialize)' | %FileCheck %s
// Without folding, the same arithmetic is no device the pass can infer:
// RUN: %not %opt %s --commscope-materialize 2>&1 | %FileCheck %s --check-prefix=RAW
// RAW-COUNT-2: [unsupported-device]
// Dumps name the pass by its registered argument:
// RUN: %opt %s --pass-pipeline='builtin.module(canonicalize, commscope-materialize)' --mlir-print-ir-after=commscope-materialize 2>&1 >/dev/null | %FileCheck %s --check-prefix=DUMP
// DUMP: IR Dump After CommscopeMaterialize (commscope-materialize)
// The options as --help lists them. (The statistics allocations, domains and dispatches
// are declared and counted, but Debian's LLVM 19 is built without LLVM_ENABLE_STATS:
// --mlir-pass-statistics prints no pass's statistics there, upstream ones included.)
// RUN: %opt --help | %FileCheck %s --check-prefix=HELP
// HELP:      --commscope-materialize
// HELP-NEXT:   --device-limit=
// HELP-NEXT:   --nesting-limit=
// Options: a lower nesting limit, a lower device limit.
// RUN: %not %opt %s --pass-pipeline='builtin.module(canonicalize, commscope-materialize{nesting-limit=1})' 2>&1 | %FileCheck %s --check-prefix=NESTING
// NESTING: error: allocation 'b' would open nested scope 2, beyond the limit of 1 nested comm-domain scopes (the nesting-limit option) [scope-nesting-limit]
// RUN: %not %opt %s --pass-pipeline='builtin.module(canonicalize, commscope-materialize{device-limit=3})' 2>&1 | %FileCheck %s --check-prefix=DEVICES
// DEVICES:      pipeline.mlir:41:5: error: the dispatch of 'chip' uses device 3, at or above the device limit 3 (the device-limit option) [device-out-of-range]
// DEVICES:      pipeline.mlir:40:3: note: the device operand is the induction variable of this scf.for
// DEVICES:      pipeline.mlir:46:3: error: the dispatch of 'chip' uses device 3, at or above the device limit 3 (the device-limit option) [device-out-of-range]
// (and the allocation of @through_if, below)

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

// CHECK-LABEL: func.func @host
// CHECK:         pld.comm_domain_scope "comm_d0" devices [0, 1, 2, 3] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [3] slots [1] {
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.addi %c1, %c1 : index
  %c4 = arith.muli %c2, %c2 : index
  %c64 = arith.constant 64 : index
  %a = pld.alloc_window_buffer(%c64) {name = "a"} : (index) -> i64
  %va = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>
  scf.for %r = %c0 to %c4 step %c1 {
    pld.dispatch @chip(%r, %va) : (index, tensor<64xf32>) -> ()
  }
  %b = pld.alloc_window_buffer(%c64) {name = "b"} : (index) -> i64
  %vb = pld.window(%b, %c64) : (i64, index) -> tensor<64xf32>
  %d = arith.subi %c4, %c1 : index
  pld.dispatch @chip(%d, %vb) : (index, tensor<64xf32>) -> ()
  return
}

// A device carried through an scf.if's result (an arith.select after canonicalize) is
// no form the dispatch shows: the allocation's device set has it.
// CHECK-LABEL: func.func @through_if
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [1, 5] slots [0] {
// RUN: %not %opt %s --pass-pipeline='builtin.module(canonicalize, commscope-materialize{device-limit=5})' 2>&1 | %FileCheck %s --check-prefix=THROUGH
// RUN: %not %opt %s --pass-pipeline='builtin.module(commscope-materialize{device-limit=5})' 2>&1 | %FileCheck %s --check-prefix=THROUGH
// THROUGH:     pipeline.mlir:[[# @LINE + 8]]:8: error: allocation 'c' is used on device 5, at or above the device limit 5 (the device-limit option) [device-out-of-range]
// THROUGH-NOT: error:
// DEVICES:     pipeline.mlir:[[# @LINE + 6]]:8: error: allocation 'c' is used on device 5, at or above the device limit 3 (the device-limit option) [device-out-of-range]
// DEVICES-NOT: error:
func.func @through_if(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %c = pld.alloc_window_buffer(%c64) {name = "c"} : (index) -> i64
  %vc = pld.window(%c, %c64) : (i64, index) -> tensor<64xf32>
  %d = scf.if %flag -> (index) {
    scf.yield %c1 : index
  } else {
    scf.yield %c5 : index
  }
  pld.dispatch @chip(%d, %vc) : (index, tensor<64xf32>) -> ()
  return
}
