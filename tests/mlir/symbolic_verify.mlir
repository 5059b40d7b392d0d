// The verifier of "comm-domain scopes materialized" on symbolic device sets: a scope's
// set must be in canonical form for every world that can run it (larger than its
// largest id), or clustering could have put it with an equal one.
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-verify

// {0} and range(1, world_size) are all devices: `devices []`.
func.func @all_written_out() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{scope 'comm_d0' has a symbolic device set that is not in canonical form [verify]}}
  pld.comm_domain_scope "comm_d0" devices [0, range(1, world_size)] slots [0] {
    %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    pld.yield
  }
  return
}

// -----

func.func @world() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{scope 'comm_d0' has a symbolic device set that is not in canonical form [verify]}}
  pld.comm_domain_scope "comm_d0" devices [range(0, world_size)] slots [0] {
    %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    pld.yield
  }
  return
}

// -----

// The evens and the odds.
func.func @halves() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{scope 'comm_d0' has a symbolic device set that is not in canonical form [verify]}}
  pld.comm_domain_scope "comm_d0" devices [range(0, world_size, 2), range(1, world_size, 2)] slots [0] {
    %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    pld.yield
  }
  return
}

// -----

// One progression inside another (same step, residue and stop): the smaller start wins.
func.func @nested() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{scope 'comm_d0' has a symbolic device set that is not in canonical form [verify]}}
  pld.comm_domain_scope "comm_d0" devices [range(1, world_size, 2), range(3, world_size, 2)] slots [0] {
    %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    pld.yield
  }
  return
}

// -----

// An id on a progression, and one continuing it downwards.
func.func @ids_covered() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{scope 'comm_d0' has a symbolic device set that is not in canonical form [verify]}}
  pld.comm_domain_scope "comm_d0" devices [5, range(1, world_size, 2)] slots [0] {
    %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    // expected-error @+1 {{scope 'comm_d1' has a symbolic device set that is not in canonical form [verify]}}
    pld.comm_domain_scope "comm_d1" devices [0, range(2, world_size, 2)] slots [1] {
      %b = pld.alloc_window_buffer(%c64) {name = "b", window_buffer = 1 : i64} : (index) -> i64
      pld.yield
    }
    pld.yield
  }
  return
}

// -----

// Canonical sets verify clean: {0} beside range(1, world_size - 1) (whose stop is not
// the world's); device 7, past the stop of range(0, world_size - 3) in the smallest
// world that has it (8 devices); progressions of different steps, residues or stops.
func.func @canonical() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  pld.comm_domain_scope "comm_d0" devices [0, range(1, world_size - 1)] slots [0] {
    %a = pld.alloc_window_buffer(%c64) {name = "a", window_buffer = 0 : i64} : (index) -> i64
    pld.comm_domain_scope "comm_d1" devices [7, range(0, world_size - 3)] slots [1] {
      %b = pld.alloc_window_buffer(%c64) {name = "b", window_buffer = 1 : i64} : (index) -> i64
      pld.comm_domain_scope "comm_d2" devices [range(1, world_size - 1, 2), range(2, world_size, 4)] slots [2] {
        %c = pld.alloc_window_buffer(%c64) {name = "c", window_buffer = 2 : i64} : (index) -> i64
        pld.yield
      }
      pld.yield
    }
    pld.yield
  }
  return
}
