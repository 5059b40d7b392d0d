// collective-aliased-windows for every host collective: two window arguments that are
// views of one allocation, reported once per collective at the call, naming both roles and
// the allocation, with notes at the allocation and at the two views. A barrier has one
// argument and is never reported.
// RUN: %opt %s --split-input-file --verify-diagnostics --commscope-materialize
// The notes follow their error, allocation first, then the views in argument order:
// RUN: %not %opt %s --split-input-file --commscope-materialize 2>&1 >/dev/null | grep -E ': (error|note): ' | %FileCheck %s
// CHECK:      error: the data and the signal of collective 'allreduce' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the data is a view of it taken here
// CHECK-NEXT: note: the signal is a view of it taken here
// CHECK:      error: the data and the signal of collective 'broadcast' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the data is a view of it taken here
// CHECK-NEXT: note: the signal is a view of it taken here
// CHECK:      error: the data and the signal of collective 'reduce_scatter' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the data is a view of it taken here
// CHECK-NEXT: note: the signal is a view of it taken here
// CHECK:      error: the data and the signal of collective 'allreduce' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the data is a view of it taken here
// CHECK-NEXT: note: the signal is a view of it taken here
// CHECK:      error: the data and the signal of collective 'broadcast' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the data is a view of it taken here
// CHECK-NEXT: note: the signal is a view of it taken here
// CHECK:      error: the input and the target of collective 'allgather' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the input is a view of it taken here
// CHECK-NEXT: note: the target is a view of it taken here
// CHECK:      error: the target and the signal of collective 'allgather' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the target is a view of it taken here
// CHECK-NEXT: note: the signal is a view of it taken here
// CHECK:      error: the input and the target of collective 'allgather' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the input is a view of it taken here
// CHECK-NEXT: note: the target is a view of it taken here
// CHECK:      error: the input and the signal of collective 'all_to_all' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the input is a view of it taken here
// CHECK-NEXT: note: the signal is a view of it taken here
// CHECK:      error: the send_counts and the recv_counts of collective 'all_to_all_v' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the send_counts is a view of it taken here
// CHECK-NEXT: note: the recv_counts is a view of it taken here
// CHECK:      error: the target and the recv_counts of collective 'all_to_all_v' are views of the same allocation 'x' [collective-aliased-windows]
// CHECK-NEXT: note: allocation 'x' is here
// CHECK-NEXT: note: the target is a view of it taken here
// CHECK-NEXT: note: the recv_counts is a view of it taken here
// CHECK-NOT:  error:

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // allreduce(data, signal): two views of one allocation.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{the data is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the signal is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the data and the signal of collective 'allreduce' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.allreduce(%a, %b) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // broadcast(data, signal): two views of one allocation.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{the data is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the signal is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the data and the signal of collective 'broadcast' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.broadcast(%a, %b) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // reduce_scatter(data, signal): two views of one allocation.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{the data is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the signal is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the data and the signal of collective 'reduce_scatter' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.reduce_scatter(%a, %b) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // The same view twice: both notes at it.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+2 {{the data is a view of it taken here}}
  // expected-note @+1 {{the signal is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the data and the signal of collective 'allreduce' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.allreduce(%a, %a) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // The result of an allreduce is its data's view: broadcasting it with another view
  // of the data's allocation aliases.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{the data is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the signal is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  %sum = pld.allreduce(%a, %vs) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // expected-error @+1 {{the data and the signal of collective 'broadcast' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.broadcast(%sum, %b) : (tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // allgather(input, target, signal): input and target.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  // expected-note @+1 {{the input is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the target is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the input and the target of collective 'allgather' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.allgather(%a, %b, %vs) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // allgather: target and signal.
  %in = pld.alloc_window_buffer(%c64) {name = "in"} : (index) -> i64
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vin = pld.window(%in, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the target is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the signal is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vin) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the target and the signal of collective 'allgather' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.allgather(%vin, %a, %b) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // Three views of one allocation: reported once, for the first pair.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  // expected-note @+1 {{the input is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the target is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %c = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the input and the target of collective 'allgather' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.allgather(%a, %b, %c) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // all_to_all(input, target, signal): input and signal.
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %t = pld.alloc_window_buffer(%c64) {name = "t"} : (index) -> i64
  // expected-note @+1 {{the input is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vt = pld.window(%t, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the signal is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %vt) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the input and the signal of collective 'all_to_all' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.all_to_all(%a, %vt, %b) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // all_to_all_v(input, target, signal, send_counts, recv_counts): the counts.
  %in = pld.alloc_window_buffer(%c64) {name = "in"} : (index) -> i64
  %t = pld.alloc_window_buffer(%c64) {name = "t"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %vin = pld.window(%in, %c64) : (i64, index) -> tensor<64xf32>
  %vt = pld.window(%t, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the send_counts is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the recv_counts is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vin) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %vt) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the send_counts and the recv_counts of collective 'all_to_all_v' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.all_to_all_v(%vin, %vt, %vs, %a, %b) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // all_to_all_v: target and recv_counts.
  %in = pld.alloc_window_buffer(%c64) {name = "in"} : (index) -> i64
  // expected-note @+1 {{allocation 'x' is here}}
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %s = pld.alloc_window_buffer(%c64) {name = "s"} : (index) -> i64
  %sc = pld.alloc_window_buffer(%c64) {name = "sc"} : (index) -> i64
  %vin = pld.window(%in, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the target is a view of it taken here}}
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vs = pld.window(%s, %c64) : (i64, index) -> tensor<64xf32>
  %vsc = pld.window(%sc, %c64) : (i64, index) -> tensor<64xf32>
  // expected-note @+1 {{the recv_counts is a view of it taken here}}
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %vin) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %vsc) : (index, tensor<64xf32>) -> ()
  // expected-error @+1 {{the target and the recv_counts of collective 'all_to_all_v' are views of the same allocation 'x' [collective-aliased-windows]}}
  pld.all_to_all_v(%vin, %a, %vs, %vsc, %b) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> ()
  return
}

// -----

func.func private @chip(tensor<64xf32>) attributes {pld.level = "chip", pld.role = "orchestrator"}
func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // A barrier has one argument: nothing to alias. Two barriers on two views of one
  // allocation, and barriers on the signal of an allreduce, are no race.
  %x = pld.alloc_window_buffer(%c64) {name = "x"} : (index) -> i64
  %d = pld.alloc_window_buffer(%c64) {name = "d"} : (index) -> i64
  %a = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %b = pld.window(%x, %c64) : (i64, index) -> tensor<64xf32>
  %vd = pld.window(%d, %c64) : (i64, index) -> tensor<64xf32>
  pld.dispatch @chip(%c0, %a) : (index, tensor<64xf32>) -> ()
  pld.dispatch @chip(%c0, %vd) : (index, tensor<64xf32>) -> ()
  pld.barrier(%a) : (tensor<64xf32>) -> ()
  pld.barrier(%b) : (tensor<64xf32>) -> ()
  pld.allreduce(%vd, %a) : (tensor<64xf32>, tensor<64xf32>) -> ()
  pld.barrier(%a) : (tensor<64xf32>) -> ()
  return
}
