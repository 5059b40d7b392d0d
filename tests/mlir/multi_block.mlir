// A host orchestrator with several blocks (a CFG): without allocations it is
// left unchanged; with allocations it is one located error among all the others, which
// are still reported (here another function's dead-alloc).
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize
// RUN: %not %opt %s --split-input-file --commscope-materialize 2>&1 | %FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED-LABEL: func.func @cfg_without_allocations
// UNCHANGED-NOT:   comm_domain_scope
// UNCHANGED:       cf.cond_br
// UNCHANGED-NOT:   comm_domain_scope
// UNCHANGED:       return

func.func private @chip(index) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @cfg_without_allocations(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  cf.cond_br %flag, ^then, ^done
^then:
  "pld.dispatch"(%c0, %c0) {callee = @chip} : (index, index) -> ()
  cf.br ^done
^done:
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @cfg_with_allocations(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-note @-1 {{'cfg_with_allocations' has 3 blocks}}
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'x' is in a body that cannot be wrapped in comm-domain scopes: pld.comm_domain_scope wraps a function of one block (use scf control flow) [malformed-op]}}
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  cf.cond_br %flag, ^then, ^done
^then:
  "pld.dispatch"(%c0, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  cf.br ^done
^done:
  return
}

func.func @other() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'y' has no window view [dead-alloc]}}
  %y = "pld.alloc_window_buffer"(%c64) {name = "y"} : (index) -> i64
  return
}

// -----

// A body whose blocks form a loop (a cycle of the CFG, whatever their text order): its one
// honest error, and no unconsumed-alloc beside it (the view reaches the dispatch in the
// block written before the allocation, on the loop's next trip).
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @body_loop(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-note @-1 {{'body_loop' has 4 blocks}}
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  cf.br ^head
^body:
  "pld.dispatch"(%c0, %v) {callee = @chip} : (index, tensor<64xf32>) -> ()
  cf.br ^head
^head:
  // expected-error @+1 {{allocation 'x' is in a body that cannot be wrapped in comm-domain scopes: pld.comm_domain_scope wraps a function of one block (use scf control flow) [malformed-op]}}
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  cf.cond_br %flag, ^body, ^done
^done:
  return
}

// -----

// The same with the view carried around the loop by a block argument.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @body_loop_carried(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  // expected-note @-1 {{'body_loop_carried' has 3 blocks}}
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{allocation 'x' is in a body that cannot be wrapped in comm-domain scopes: pld.comm_domain_scope wraps a function of one block (use scf control flow) [malformed-op]}}
  %x = "pld.alloc_window_buffer"(%c64) {name = "x"} : (index) -> i64
  %v = "pld.window"(%x, %c64) : (i64, index) -> tensor<64xf32>
  cf.br ^loop(%v : tensor<64xf32>)
^loop(%w: tensor<64xf32>):
  "pld.dispatch"(%c0, %w) {callee = @chip} : (index, tensor<64xf32>) -> ()
  cf.cond_br %flag, ^loop(%w : tensor<64xf32>), ^done
^done:
  return
}
