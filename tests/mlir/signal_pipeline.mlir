// After commscope-synthesize-signals, commscope-materialize judges the synthesized
// windows like any other; its diagnostics and notes that concern them point at the
// allreduce they were made for (the synthesized ops carry its location, named).
// RUN: %opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(commscope-synthesize-signals,commscope-materialize)'

// A function with several blocks cannot be wrapped: the synthesized allocation is the
// first, and the notes are the adapter's, at the function.
// expected-note @+2 {{'host' has 2 blocks}}
// expected-note @+1 {{argument 0 of the collective is an argument of 'host'}}
func.func @host(%t: tensor<64xf32>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-error @+2 {{allocation '__allreduce_signal_buf_0' is in a body that cannot be wrapped in comm-domain scopes}}
  // expected-error @+1 {{argument 0 of collective 'allreduce' does not resolve to a window view [collective-arg-not-window]}}
  pld.allreduce(%t) : (tensor<64xf32>) -> ()
  cf.br ^next
^next:
  return
}

// -----

// The data has no devices: the allreduce is uncovered-collective, and its synthesized
// signal is not reported again (one diagnostic per cause).
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-error @+1 {{the buffer of collective 'allreduce' has no devices to pass on [uncovered-collective]}}
  pld.allreduce(%v) : (tensor<64xf32>) -> ()
  return
}

