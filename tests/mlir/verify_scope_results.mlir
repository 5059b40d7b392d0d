// A materialized body whose values are used after its scopes yields them: the scopes'
// results are what they yield, so a dispatch of one after the scope uses the view's
// allocation, and a scope that lacks its device is reported. Worked out by hand: x is
// dispatched on devices 0 and 5, and comm_d0 lists [0]; the verifier bound the results to
// nothing and accepted it.
// RUN: %not %opt %s --commscope-verify 2>&1 | %FileCheck %s
// CHECK: error: scope 'comm_d0' lacks devices the program uses for allocation 'x': 5 [verify]

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}

func.func @h() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c5 = arith.constant 5 : index
  %0 = pld.comm_domain_scope "comm_d0" devices [0] slots [0] : tensor<64xf32> {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %x = pld.alloc_window_buffer(%c64) {name = "x", window_buffer = 0 : i64} : (index) -> i64
    %v = pld.window(%x, %c64) {window_buffer = 0 : i64} : (i64, index) -> tensor<64xf32>
    pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
    pld.yield %v : tensor<64xf32>
  }
  pld.dispatch @chip(%c5, %0) : (index, tensor<64xf32>) -> ()
  return
}
