// An integer offset of a window pointer or of a view (`arith.addi %buf, %c8`,
// `arith.subi %v, %c8`) is derived from it, as any pure op's result is: a window of the
// offset pointer is a view of the allocation, a dispatch of the offset view covers it,
// and either passed to a helper is view-escapes. (The form `x - C` is also how a loop
// bound below the world size is written: that reading of it is kept, in symbolic.mlir.)
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize | %FileCheck %s

// a: {0, 1} (a window of its pointer plus 8), b: {2, 3} (a view minus 8, and 8 plus it).
// CHECK-LABEL: func.func @offsets
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2, 3, 4] slots [1] {
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip_i64(i64) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @offsets() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : i64
  %c256 = arith.constant 256 : index
  %a = pld.alloc_window_buffer(%c256) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c256) {name = "b"} : (index) -> i64
  %va = pld.window(%a, %c256) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c256) : (i64, index) -> i64
  pld.dispatch @chip(%c0, %va) : (index, tensor<64xf32>) -> ()
  %p = arith.addi %a, %c8 : i64
  %vp = pld.window(%p, %c256) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %vp) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip_i64(%c2, %vb) : (index, i64) -> ()
  %below = arith.subi %vb, %c8 : i64
  pld.dispatch @chip_i64(%c3, %below) : (index, i64) -> ()
  %above = arith.addi %c8, %vb : i64
  pld.dispatch @chip_i64(%c4, %above) : (index, i64) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @keep(i64)
func.func @pointer_offset_escapes() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : i64
  %c256 = arith.constant 256 : index
  // expected-note @+1 {{allocation 'a' is here}}
  %a = pld.alloc_window_buffer(%c256) {name = "a"} : (index) -> i64
  %va = pld.window(%a, %c256) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %va) : (index, tensor<64xf32>) -> ()
  %p = arith.addi %a, %c8 : i64
  // expected-error-re @+1 {{window pointer of allocation 'a'{{.*}}'keep'{{.*}}[view-escapes]}}
  func.call @keep(%p) : (i64) -> ()
  return
}

// -----

func.func private @chip_i64(i64) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @keep(i64)
func.func @view_offset_escapes() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : i64
  %c256 = arith.constant 256 : index
  %a = pld.alloc_window_buffer(%c256) {name = "a"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %va = pld.window(%a, %c256) : (i64, index) -> i64
  pld.dispatch @chip_i64(%c0, %va) : (index, i64) -> ()
  %q = arith.subi %va, %c8 : i64
  // expected-error-re @+1 {{a view of allocation 'a'{{.*}}'keep'{{.*}}[view-escapes]}}
  func.call @keep(%q) : (i64) -> ()
  return
}
