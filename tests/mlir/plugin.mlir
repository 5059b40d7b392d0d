// The stock mlir-opt-19 of Debian's mlir-19-tools with commscope's plugin loaded as a
// dialect plugin and as a pass plugin: the same dialect, passes and results.
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %S/basic.mlir --pass-pipeline='builtin.module(canonicalize, cse, commscope-materialize, commscope-verify)' | %FileCheck %s
// CHECK-LABEL: func.func @host_orch
// CHECK:         pld.comm_domain_scope "comm_d0" devices [] slots [0] : index {
// CHECK:           pld.alloc_window_buffer(%{{.*}}) {name = "buf", window_buffer = 0 : i64}
// The companion pass too, in the same pipeline:
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %S/signals.mlir --pass-pipeline='builtin.module(commscope-synthesize-signals, commscope-materialize, commscope-verify)' | %FileCheck %s --check-prefix=SIGNALS
// SIGNALS-LABEL: func.func @host
// SIGNALS-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1] slots [0, 1]
// SIGNALS:           pld.alloc_window_buffer(%{{.*}}) {name = "__allreduce_signal_buf_0", window_buffer = 1 : i64}
// Dialects commscope-mlir-opt does not register, the stock mlir-opt's: async.execute.
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %S/inputs/async_execute.mlir --pass-pipeline='builtin.module(commscope-materialize)' | %FileCheck %S/inputs/async_execute.mlir
// Errors are reported the same way (a pass plugin registers after the command line is
// read: its passes are named in --pass-pipeline, not as flags):
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(commscope-materialize)' --verify-diagnostics

func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'x' has no window view [dead-alloc]}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  return
}
