// The verifier of "comm-domain scopes materialized" on hand-written MLIR: one finding
// per fault, at the scope (or the view) concerned.
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-verify

func.func @empty() attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-error @+1 {{scope 'comm_d0' has no slots [verify]}}
  "pld.comm_domain_scope"() ({
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", slots = array<i64>} : () -> ()
  return
}

// -----

func.func @null_slot() attributes {pld.level = "host", pld.role = "orchestrator"} {
  // Slot 5 names no allocation in the scope.
  // expected-error @+1 {{scope 'comm_d0' has a null slot [verify]}}
  "pld.comm_domain_scope"() ({
    %c64 = arith.constant 64 : index
    %a = "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", slots = array<i64: 0, 5>} : () -> ()
  return
}

// -----

func.func @two_scopes() attributes {pld.level = "host", pld.role = "orchestrator"} {
  "pld.comm_domain_scope"() ({
    // expected-error @+1 {{window buffer 'a' is a slot of more than one scope [verify]}}
    "pld.comm_domain_scope"() ({
      %c64 = arith.constant 64 : index
      %a = "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
      "pld.yield"() : () -> ()
    }) {devices = array<i64: 1>, name = "comm_d1", slots = array<i64: 0>} : () -> ()
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", slots = array<i64: 0>} : () -> ()
  return
}

// -----

func.func @unsorted() attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-error @+1 {{scope 'comm_d0' has a device list that is not ascending, unique and non-negative [verify]}}
  "pld.comm_domain_scope"() ({
    %c64 = arith.constant 64 : index
    %a = "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    "pld.yield"() : () -> ()
  }) {devices = array<i64: 3, 1>, name = "comm_d0", slots = array<i64: 0>} : () -> ()
  return
}

// -----

func.func @view_outside() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'a' is no slot of a scope that encloses it [verify]}}
  %a = "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
  // A view records its window buffer with its pointer's id; this one is outside every
  // scope, and the scope below cannot hold its allocation either.
  // expected-error @+1 {{a view of window buffer 'a' is outside every scope that holds it [verify]}}
  %va = "pld.window"(%a, %c64) {window_buffer = 0 : i64} : (i64, index) -> tensor<64xf32>
  // expected-error @+1 {{scope 'comm_d0' has a null slot [verify]}}
  "pld.comm_domain_scope"() ({
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", slots = array<i64: 0>} : () -> ()
  return
}

// -----

// A window whose id is not its pointer's is no view of anything: nothing to report.
func.func @mismatched_id() attributes {pld.level = "host", pld.role = "orchestrator"} {
  "pld.comm_domain_scope"() ({
    %c64 = arith.constant 64 : index
    %a = "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    %va = "pld.window"(%a, %c64) {window_buffer = 7 : i64} : (i64, index) -> tensor<64xf32>
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", slots = array<i64: 0>} : () -> ()
  return
}

// -----

// A hand-written allocation without a result cannot be a slot.
func.func @resultless() attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-error @+1 {{scope 'comm_d0' has a null slot [verify]}}
  "pld.comm_domain_scope"() ({
    %c64 = arith.constant 64 : index
    "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> ()
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", slots = array<i64: 0>} : () -> ()
  return
}

// -----

// A partly materialized body: a scope, then an allocation outside it. Every
// allocation of a host orchestrator with scopes is a slot of a scope enclosing it.
func.func @partly() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  "pld.comm_domain_scope"() ({
    %a = "pld.alloc_window_buffer"(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", slots = array<i64: 0>} : () -> ()
  // expected-error @+1 {{allocation 'late' is no slot of a scope that encloses it [verify]}}
  %late = "pld.alloc_window_buffer"(%c64) {name = "late"} : (index) -> i64
  return
}

// -----

// A chip function or a host without scopes is no materialized host: nothing to report.
func.func @plain() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  %a = "pld.alloc_window_buffer"(%c64) {name = "a"} : (index) -> i64
  return
}
