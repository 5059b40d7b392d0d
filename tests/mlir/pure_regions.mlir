// An op without side effects whose regions no interface describes (tensor.pad,
// tensor.generate) is followed as any op without side effects is: its results, and its
// regions' arguments, may be views of its operands, and what its regions' terminators
// yield may be its results. It was view-escapes, at the op or at its terminator.
// RUN: %opt %s --commscope-materialize --commscope-verify | %FileCheck %s

// a: {0, 1} (padded), b: {2, 3} (its elements generate a tensor), c: {3, 4} (its
// element is the padding value of a tensor dispatched on 3).
// CHECK-LABEL: func.func @pure_regions
// CHECK-NEXT:    pld.comm_domain_scope "comm_d0" devices [0, 1] slots [0] {
// CHECK-NEXT:      pld.comm_domain_scope "comm_d1" devices [2, 3] slots [1] {
// CHECK-NEXT:        pld.comm_domain_scope "comm_d2" devices [3, 4] slots [2] {
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip72(tensor<72xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @pure_regions() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f0 = arith.constant 0.0 : f32
  %c256 = arith.constant 256 : index
  %a = pld.alloc_window_buffer(%c256) {name = "a"} : (index) -> i64
  %b = pld.alloc_window_buffer(%c256) {name = "b"} : (index) -> i64
  %c = pld.alloc_window_buffer(%c256) {name = "c"} : (index) -> i64
  %va = pld.window(%a, %c256) : (i64, index) -> tensor<64xf32>
  %vb = pld.window(%b, %c256) : (i64, index) -> tensor<64xf32>
  %vc = pld.window(%c, %c256) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %va) : (index, tensor<64xf32>) -> ()
  %padded = tensor.pad %va low[4] high[4] {
  ^bb0(%i: index):
    tensor.yield %f0 : f32
  } : tensor<64xf32> to tensor<72xf32>
  pld.dispatch @chip72(%c1, %padded) : (index, tensor<72xf32>) -> ()
  pld.dispatch @chip(%c2, %vb) : (index, tensor<64xf32>) -> ()
  %generated = tensor.generate {
  ^bb0(%i: index):
    %x = tensor.extract %vb[%i] : tensor<64xf32>
    tensor.yield %x : f32
  } : tensor<64xf32>
  pld.dispatch @chip(%c3, %generated) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c4, %vc) : (index, tensor<64xf32>) -> ()
  %e = tensor.empty() : tensor<64xf32>
  %by_c = tensor.pad %e low[4] high[4] {
  ^bb0(%i: index):
    %x = tensor.extract %vc[%c0] : tensor<64xf32>
    tensor.yield %x : f32
  } : tensor<64xf32> to tensor<72xf32>
  pld.dispatch @chip72(%c3, %by_c) : (index, tensor<72xf32>) -> ()
  return
}
