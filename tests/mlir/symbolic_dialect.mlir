// A scope's symbolic device set in the pld dialect: what parses and verifies, and the
// errors (with their locations) of a malformed one. The canonical form (no id or
// progression the others cover) is the commscope verifier's (symbolic_verify.mlir).
// RUN: %opt %s --split-input-file --verify-diagnostics
// A well-formed set prints as written, in both forms, and parses back:
// RUN: %opt %S/inputs/symbolic_scope.mlir > %t.once && %opt %t.once > %t.twice && cmp %t.once %t.twice
// RUN: %opt %S/inputs/symbolic_scope.mlir --verify-roundtrip | %FileCheck %s
// CHECK: pld.comm_domain_scope "comm_d0" devices [0, 7, range(0, world_size - 2), range(1, world_size, 2), range(0, world_size, 3), range(5, world_size, 3)] slots [0] {
// CHECK: pld.comm_domain_scope "comm_d1" devices [range(4, world_size - 3)] slots [1] {
// RUN: %opt %S/inputs/symbolic_scope.mlir --mlir-print-op-generic | %FileCheck --check-prefix=GENERIC %s
// GENERIC: progressions = #pld.progressions<[range(0, world_size - 2), range(1, world_size, 2), range(0, world_size, 3), range(5, world_size, 3)]>
// GENERIC: progressions = #pld.progressions<[range(4, world_size - 3)]>

func.func @zero_step() {
  // expected-error @+1 {{range(0, world_size, 0) has a step below 1}}
  pld.comm_domain_scope "comm_d0" devices [range(0, world_size, 0)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @negative_step() {
  // expected-error @+1 {{range(4, world_size, -1) has a step below 1}}
  pld.comm_domain_scope "comm_d0" devices [range(4, world_size, -1)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @negative_start() {
  // expected-error @+1 {{range(-1, world_size) starts at a negative device}}
  pld.comm_domain_scope "comm_d0" devices [range(-1, world_size)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @stop_beyond_the_world() {
  // expected-error @+1 {{expected ')'}}
  pld.comm_domain_scope "comm_d0" devices [range(0, world_size + 1)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @offset_without_minus() {
  // expected-error @+1 {{expected `world_size` or `world_size - C` with C >= 0}}
  pld.comm_domain_scope "comm_d0" devices [range(0, world_size 1)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @stop_not_world_relative() {
  // expected-error @+1 {{expected 'world_size'}}
  pld.comm_domain_scope "comm_d0" devices [range(0, 8)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @unsorted_ids() {
  // expected-error @+1 {{'pld.comm_domain_scope' op the ids of a device set with progressions must be ascending, unique and non-negative}}
  pld.comm_domain_scope "comm_d0" devices [2, 0, range(1, world_size, 2)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @repeated_id() {
  // expected-error @+1 {{'pld.comm_domain_scope' op the ids of a device set with progressions must be ascending, unique and non-negative}}
  pld.comm_domain_scope "comm_d0" devices [0, 0, range(1, world_size, 2)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @negative_id() {
  // expected-error @+1 {{'pld.comm_domain_scope' op the ids of a device set with progressions must be ascending, unique and non-negative}}
  pld.comm_domain_scope "comm_d0" devices [-1, range(1, world_size, 2)] slots [] {
    pld.yield
  }
  return
}

// -----

// By step first: range(1, world_size) (step 1) comes before range(1, world_size, 2).
func.func @steps_out_of_order() {
  // expected-error @+1 {{range(1, world_size) is out of order after range(1, world_size, 2): progressions are listed once each, by step, residue (start mod step), stop offset, then start}}
  pld.comm_domain_scope "comm_d0" devices [range(1, world_size, 2), range(1, world_size)] slots [] {
    pld.yield
  }
  return
}

// -----

// Then by residue: 4 mod 3 = 1 comes before 2 mod 3 = 2, though 2 < 4.
func.func @residues_out_of_order() {
  // expected-error @+1 {{range(4, world_size, 3) is out of order after range(2, world_size, 3)}}
  pld.comm_domain_scope "comm_d0" devices [range(2, world_size, 3), range(4, world_size, 3)] slots [] {
    pld.yield
  }
  return
}

// -----

// Then by stop offset, then by start.
func.func @offsets_out_of_order() {
  // expected-error @+1 {{range(0, world_size) is out of order after range(0, world_size - 1)}}
  pld.comm_domain_scope "comm_d0" devices [range(0, world_size - 1), range(0, world_size)] slots [] {
    pld.yield
  }
  return
}

// -----

func.func @listed_twice() {
  // expected-error @+1 {{range(1, world_size) is out of order after range(1, world_size)}}
  pld.comm_domain_scope "comm_d0" devices [range(1, world_size), range(1, world_size)] slots [] {
    pld.yield
  }
  return
}

// -----

// The attribute of the generic form is checked the same way.
func.func @generic() {
  // expected-error @+3 {{range(3, world_size, 0) has a step below 1}}
  "pld.comm_domain_scope"() ({
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", progressions = #pld.progressions<[range(3, world_size, 0)]>, slots = array<i64>} : () -> ()
  return
}

// -----

func.func @generic_empty() {
  // expected-error @+3 {{a symbolic device set needs at least one progression (without any it is a plain devices list)}}
  "pld.comm_domain_scope"() ({
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", progressions = #pld.progressions<[]>, slots = array<i64>} : () -> ()
  return
}

// -----

func.func @generic_id() {
  // expected-error @+3 {{expected 'range'}}
  "pld.comm_domain_scope"() ({
    "pld.yield"() : () -> ()
  }) {devices = array<i64>, name = "comm_d0", progressions = #pld.progressions<[0]>, slots = array<i64>} : () -> ()
  return
}
