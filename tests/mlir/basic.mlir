// The example of docs/commscope-opt.md, "The JSON plan", in MLIR form: one allocation, one
// view, one dispatch over the whole world gives one domain over all devices.
// RUN: %opt %s --commscope-materialize | %FileCheck %s
// Idempotent: a second run (on the printed output) changes nothing.
// RUN: %opt %s --commscope-materialize > %t.once && %opt %t.once --commscope-materialize > %t.twice && cmp %t.once %t.twice
// The result has the property the verifier checks.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s

module {
  func.func private @chip_orch(tensor<256xf32>) attributes {pld.type = "orchestration", pld.level = "chip"}

  func.func @host_orch() -> index attributes {pld.level = "host", pld.role = "orchestrator"} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 1024 : index
    %shape = arith.constant 256 : index
    %buf = "pld.alloc_window_buffer"(%bytes) {name = "buf"} : (index) -> i64
    %data = "pld.window"(%buf, %shape) {dtype = f32} : (i64, index) -> tensor<256xf32>
    %n = "pld.world_size"() : () -> index
    scf.for %r = %c0 to %n step %c1 {
      "pld.dispatch"(%r, %data) {callee = @chip_orch} : (index, tensor<256xf32>) -> ()
    }
    return %c0 : index
  }
}

// CHECK-LABEL: func.func @host_orch() -> index
// CHECK-NEXT:    %[[R:.*]] = pld.comm_domain_scope "comm_d0" devices [] slots [0] : index {
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK:           pld.alloc_window_buffer(%{{.*}}) {name = "buf", window_buffer = 0 : i64}
// CHECK-NEXT:      pld.window(%{{.*}}, %{{.*}}) {dtype = f32, window_buffer = 0 : i64}
// CHECK:           pld.dispatch @chip_orch
// CHECK:           pld.yield %[[C0]] : index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : index
