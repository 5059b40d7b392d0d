// A view (or a window pointer) that reaches a use the pass cannot see past is
// view-escapes at that use: a call of a function that is no chip orchestrator, an op that
// may have side effects, an op with regions no interface describes, a terminator that
// passes it where no interface says. The messages are matched by the allocation, the
// callee or op, and the code; a function with a body is to be inlined, a declaration not.
// RUN: %opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --commscope-materialize

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @helper(%a: tensor<64xf32>) {
  return
}
func.func @call(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  // expected-error-re @+1 {{allocation 'x'{{.*}}inline 'helper' first (--inline) [view-escapes]}}
  func.call @helper(%v) : (tensor<64xf32>) -> ()
  return
}

// -----

// A declaration has no body to inline: it is a library's function, to be called in the
// chip function on the view it is dispatched.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @ext(tensor<64xf32>)
func.func @external_call() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{a view of allocation 'x' is passed to 'ext', a library function the pass does not follow: dispatch the view itself, and call 'ext' on it in the chip function [view-escapes]}}
  func.call @ext(%v) : (tensor<64xf32>) -> ()
  return
}

// -----

// Through a cast (derived) and an scf.if's result (a transfer) to the call.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @helper(tensor<?xf32>)
func.func @call_through(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  %w = scf.if %flag -> (tensor<64xf32>) {
    scf.yield %v : tensor<64xf32>
  } else {
    scf.yield %v : tensor<64xf32>
  }
  %c = tensor.cast %w : tensor<64xf32> to tensor<?xf32>
  // expected-error-re @+1 {{allocation 'x'{{.*}}'helper'{{.*}}[view-escapes]}}
  func.call @helper(%c) : (tensor<?xf32>) -> ()
  return
}

// -----

// A window pointer passed to a call.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @keep(i64)
func.func @pointer_call() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  // expected-error-re @+1 {{allocation 'x'{{.*}}'keep'{{.*}}[view-escapes]}}
  func.call @keep(%x) : (i64) -> ()
  return
}

// -----

// Ops that may have side effects: an op of an unregistered dialect, a store of the
// pointer, a call through a function value.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @helper(tensor<64xf32>)
func.func @side_effects(%m: memref<4xi64>) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{a view of it is taken here}}
  %v2 = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  // expected-error-re @+1 {{allocation 'x'{{.*}}'test.sink'{{.*}}[view-escapes]}}
  "test.sink"(%v) : (tensor<64xf32>) -> ()
  // expected-error-re @+1 {{allocation 'x'{{.*}}'memref.store'{{.*}}[view-escapes]}}
  memref.store %x, %m[%c0] : memref<4xi64>
  %f = func.constant @helper : (tensor<64xf32>) -> ()
  // expected-error-re @+1 {{allocation 'x'{{.*}}'func.call_indirect'{{.*}}[view-escapes]}}
  func.call_indirect %f(%v2) : (tensor<64xf32>) -> ()
  return
}

// -----

// An op with regions that no interface describes: its operand reaches its region's
// argument, which the pass does not follow; a view yielded out of such a region.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @regions() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{a view of it is taken here}}
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %vy) : (index, tensor<64xf32>) -> ()
  // expected-error-re @+1 {{allocation 'x'{{.*}}'test.region'{{.*}}[view-escapes]}}
  "test.region"(%vx) ({
  ^bb0(%a: tensor<64xf32>):
    pld.dispatch @chip(%c1, %a) : (index, tensor<64xf32>) -> ()
    "test.end"() : () -> ()
  }) : (tensor<64xf32>) -> ()
  %w = "test.wrap"() ({
    // expected-error-re @+1 {{allocation 'y'{{.*}}'test.yield'{{.*}}[view-escapes]}}
    "test.yield"(%vy) : (tensor<64xf32>) -> ()
  }) : () -> tensor<64xf32>
  pld.dispatch @chip(%c1, %w) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// No escapes: a view returned from the host function, a comparison of pointers whose
// result goes nowhere, views through casts and region results to dispatches.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @followed(%flag: i1) -> tensor<64xf32> attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c64) {name = "y"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vy = pld.window(%y, %c64) : (i64, index) -> tensor<64xf32>
  %same = arith.cmpi eq, %x, %y : i64
  %c = tensor.cast %vx : tensor<64xf32> to tensor<?xf32>
  %back = tensor.cast %c : tensor<?xf32> to tensor<64xf32>
  pld.dispatch @chip(%c0, %back) : (index, tensor<64xf32>) -> ()
  %w = affine.if affine_set<() : (0 == 0)>() -> tensor<64xf32> {
    affine.yield %vy : tensor<64xf32>
  } else {
    affine.yield %vy : tensor<64xf32>
  }
  pld.dispatch @chip(%c0, %w) : (index, tensor<64xf32>) -> ()
  return %vx : tensor<64xf32>
}

// -----

// A helper's results: its view operand escapes at the call, once, and a dispatch of what
// it returned reports nothing more.
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @twice(%a: tensor<64xf32>) -> tensor<64xf32> {
  return %a : tensor<64xf32>
}
func.func @call_results() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  // expected-error-re @+1 {{allocation 'x'{{.*}}inline 'twice' first (--inline) [view-escapes]}}
  %r = func.call @twice(%v) : (tensor<64xf32>) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %r) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// A window of a view (directly or through a cast) names no allocation: the view it is
// taken of would be used wherever it is dispatched, uncounted.
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @window_of_view() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  %c = tensor.cast %v : tensor<64xf32> to tensor<?xf32>
  // expected-error-re @+1 {{a view of allocation 'x'{{.*}}'window'{{.*}}[view-escapes]}}
  %w = pld.window(%c, %c64) : (tensor<?xf32>, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %w) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// A window pointer that may be an allocation's pointer or a view (an arith.select of the
// two) is a view of the allocation, and the view's allocation would be used uncounted:
// view-escapes at the window, naming the view's allocation ('y' alone got device 0).
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip_i64(i64) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @window_of_pointer_or_view(%flag: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %x = pld.alloc_window_buffer(%c256) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c256) {name = "y"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %vy = pld.window(%y, %c256) : (i64, index) -> i64
  pld.dispatch @chip_i64(%c0, %vy) : (index, i64) -> ()
  %p = arith.select %flag, %x, %vy : i64
  // expected-error @+1 {{a view of allocation 'y' is an operand of 'window'}}
  %w = pld.window(%p, %c256) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %w) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// The same merged by an scf.if's result, and by a block argument: one error per window,
// naming the first allocation of the views it may be ('y', not 'z').
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chip_i64(i64) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @window_of_merged_pointer(%flag: i1, %other: i1) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %x = pld.alloc_window_buffer(%c256) {name = "x"} : (index) -> i64
  %y = pld.alloc_window_buffer(%c256) {name = "y"} : (index) -> i64
  %z = pld.alloc_window_buffer(%c256) {name = "z"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %vy = pld.window(%y, %c256) : (i64, index) -> i64
  %vz = pld.window(%z, %c256) : (i64, index) -> i64
  pld.dispatch @chip_i64(%c0, %vy) : (index, i64) -> ()
  pld.dispatch @chip_i64(%c0, %vz) : (index, i64) -> ()
  %p = scf.if %flag -> (i64) {
    scf.yield %x : i64
  } else {
    %q = arith.select %other, %vz, %vy : i64
    scf.yield %q : i64
  }
  // expected-error @+1 {{a view of allocation 'y' is an operand of 'window'}}
  %w = pld.window(%p, %c256) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %w) : (index, tensor<64xf32>) -> ()
  %r = scf.execute_region -> (i64) {
    cf.cond_br %flag, ^b1(%vy : i64), ^b1(%x : i64)
  ^b1(%s: i64):
    scf.yield %s : i64
  }
  // expected-error @+1 {{a view of allocation 'y' is an operand of 'window'}}
  %u = pld.window(%r, %c256) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c2, %u) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// A host orchestrator that the module calls returns into its caller, which the pass does
// not follow: 'main' dispatches the view on device 1, which x's scope would lack.
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @make() -> (tensor<64xf32>, i64) attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{a view of allocation 'x' is an operand of 'func.return', which may have side effects the pass cannot follow: dispatch the view directly, or derive it through an operation without side effects: the function is called in the module, and the pass does not follow a view it returns into its callers (dispatch the view in the function that allocates it) [view-escapes]}}
  return %vx, %x : tensor<64xf32>, i64
}
func.func @main() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %v:2 = func.call @make() : () -> (tensor<64xf32>, i64)
  pld.dispatch @chip(%c1, %v#0) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// The same for a window pointer, returned by a function called through a func.constant.
func.func private @chip(index, tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @make_pointer() -> i64 attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vx = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vx) : (index, tensor<64xf32>) -> ()
  // expected-error-re @+1 {{the window pointer of allocation 'x' is an operand of 'func.return'{{.*}}its callers{{.*}}[view-escapes]}}
  return %x : i64
}
func.func @main() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f = func.constant @make_pointer : () -> i64
  %p = func.call_indirect %f() : () -> i64
  // A window of what main does not allocate is an error of its own.
  // expected-error-re @+1 {{a window is taken of a pointer that names no allocation of this host orchestrator{{.*}}[malformed-op]}}
  %w = pld.window(%p, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c1, %w) : (index, tensor<64xf32>) -> ()
  return
}

// -----

// A window pointer dispatched as it is: the chip could take windows of it on device 1,
// which no view counts (the view alone gives device 0).
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func private @chipp(i64) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @pointer_dispatch() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the window pointer of allocation 'x' is passed to the dispatch of 'chipp': a dispatch gives its devices to the views it is passed, not to a pointer; take a window of the pointer and dispatch that [view-escapes]}}
  pld.dispatch @chipp(%c1, %x) : (index, i64) -> ()
  return
}

// -----

// An op of an unregistered dialect that ends the host's body is no return: it may do
// anything with the view it is passed (launch it on every device).
func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @ends_in_unregistered() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{a view of it is taken here}}
  %v = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %v) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{a view of allocation 'x' is an operand of 'test.launch_on_all_devices_and_return'}}
  "test.launch_on_all_devices_and_return"(%v) : (tensor<64xf32>) -> ()
}
