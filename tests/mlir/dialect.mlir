// The pld dialect in ODS: verifiers, the function-level attributes checked,
// a custom assembly format that re-parses (no --allow-unregistered-dialect anywhere).
// RUN: %opt %s --split-input-file --verify-diagnostics
// The pass's output prints in the custom form, and parses back to the same text:
// RUN: %opt %S/basic.mlir --commscope-materialize > %t.once && %opt %t.once > %t.twice && cmp %t.once %t.twice
// window_buffer is an inherent attribute, kept in the op's properties: the rewrite sets
// it without building and uniquing a new attribute dictionary per op.
// RUN: %opt %S/basic.mlir --commscope-materialize --mlir-print-op-generic | %FileCheck %s
// CHECK: "pld.alloc_window_buffer"(%{{.*}}) <{name = "buf", window_buffer = 0 : i64}> : (index) -> i64
// CHECK: "pld.window"(%{{.*}}, %{{.*}}) <{dtype = f32, window_buffer = 0 : i64}> : (i64, index) -> tensor<256xf32>
// CHECK: }) : () -> index
// CHECK-NOT: window_buffer = 0 : i64}

// expected-error @+1 {{'pld.level' must be one of "host" "chip" "core"}}
func.func @typo() attributes {pld.level = "hots", pld.role = "orchestrator"} {
  return
}

// -----

// expected-error @+1 {{'pld.role' must be one of "orchestrator" "worker"}}
func.func @role() attributes {pld.level = "host", pld.role = "orchestra"} {
  return
}

// -----

// expected-error @+1 {{unknown pld attribute 'pld.levle' (expected pld.level, pld.role or pld.type)}}
func.func @name() attributes {pld.levle = "host"} {
  return
}

// -----

func.func @not_a_function() {
  // expected-error @+1 {{'pld.level' belongs on a function}}
  %c0 = arith.constant {pld.level = "host"} 0 : index
  return
}

// -----

func.func @negative_id() {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'pld.alloc_window_buffer' op window_buffer must be a non-negative id}}
  %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = -1 : i64} : (index) -> i64
  return
}

// -----

func.func @no_device() {
  // expected-error @+1 {{'pld.dispatch' op needs a device operand first}}
  pld.dispatch @chip() : () -> ()
  return
}

// -----

func.func @yield_types() -> index {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'pld.comm_domain_scope' op pld.yield must forward values of the scope's result types}}
  %r = pld.comm_domain_scope "comm_d0" devices [] slots [] : index {
    pld.yield
  }
  return %r : index
}

// -----

func.func @slots_kind() {
  // expected-error @+1 {{Invalid attribute `slots` in property conversion: [0]}}
  "pld.comm_domain_scope"() <{name = "comm_d0", devices = array<i64>, slots = [0]}> ({
    pld.yield
  }) : () -> ()
  return
}
