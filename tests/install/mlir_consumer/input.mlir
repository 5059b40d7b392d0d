// The input of the tool built from the installed package, checked by FileCheck
// (tests/install/run.cmake runs it with --commscope-materialize --commscope-verify).
func.func private @chip(tensor<256xf32>) attributes {pld.level = "chip", pld.type = "orchestration"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %buf = pld.alloc_window_buffer(%c1024) {name = "buf"} : (index) -> i64
  %data = pld.window(%buf, %c1024) {dtype = f32} : (i64, index) -> tensor<256xf32>
  %n = pld.world_size() : () -> index
  scf.for %r = %c0 to %n step %c1 {
    pld.dispatch @chip(%r, %data) : (index, tensor<256xf32>) -> ()
  }
  return
}
// CHECK-LABEL: func.func @host()
// CHECK:         pld.comm_domain_scope "comm_d0" devices [] slots [0] {
// CHECK:           pld.alloc_window_buffer({{.*}}) {name = "buf", window_buffer = 0 : i64}
// CHECK-NEXT:      pld.window({{.*}}) {dtype = f32, window_buffer = 0 : i64}
// CHECK:           pld.dispatch @chip
// CHECK:           pld.yield
