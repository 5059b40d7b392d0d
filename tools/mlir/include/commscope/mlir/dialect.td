// The `pld` dialect in ODS: the MLIR form of a host program (see
// <commscope/mlir/traits.hpp>). Built by mlir-tblgen into the library commscope::pld
// (tools/mlir/CMakeLists.txt); installed for ODS that refers to its ops (DRR patterns,
// documentation).
//
// The operations the pass recognizes (docs/semantics.md, "The host program") take
// variadic operands and results on purpose: a wrong number of arguments is the pass's
// `malformed-op` (with its message), not a parse error. What the verifiers check is the
// structure nothing else checks: a scope's region and its yield, the attributes' kinds,
// non-negative window-buffer ids, and the function-level attributes pld.level / pld.role
// / pld.type (a typo is an error instead of a silently skipped function).
#ifndef COMMSCOPE_PLD_DIALECT_TD
#define COMMSCOPE_PLD_DIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Pld_Dialect : Dialect {
  let name = "pld";
  let cppNamespace = "::commscope::pld";
  let summary = "Host programs of distributed accelerators: window buffers, dispatches, "
                "collectives and communication-domain scopes";
  let hasOperationAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
}

/// The world-relative progressions of a symbolic device set (docs/semantics.md,
/// "Symbolic device sets"): `range(START, world_size - C, STEP)` is
/// {START + k*STEP < world_size - C}.
def Pld_ProgressionsAttr : AttrDef<Pld_Dialect, "Progressions"> {
  let mnemonic = "progressions";
  let summary = "world-relative device progressions of a comm-domain scope";
  let description = [{
    `#pld.progressions<[range(1, world_size, 2), range(0, world_size - 1)]>`: each is
    `range(START, world_size - C, STEP)` with START >= 0, STEP >= 1 and C >= 0; a step of
    1 and a C of 0 are not written. They are listed once each in the printed order of a
    device set (by step, residue START mod STEP, C, then START), and there is at least
    one: a set without progressions is a plain `devices` list. Whether the set is in
    canonical form (no progression or id the others already cover) is the commscope
    verifier's question, which knows the smallest world that can run the program.
  }];
  let parameters = (ins ArrayRefParameter<"::commscope::device_progression">:$progressions);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

class Pld_Op<string mnemonic, list<Trait> traits = []> : Op<Pld_Dialect, mnemonic, traits>;

/// An operation the pass recognizes: operands and results as written, checked by the pass.
class Pld_PassOp<string mnemonic, string kind, list<Trait> traits = []>
    : Pld_Op<mnemonic, traits> {
  let arguments = (ins Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$outs);
  let assemblyFormat = "`(` $args `)` attr-dict `:` functional-type($args, $outs)";
  let extraClassDeclaration = "static constexpr ::commscope::operation kind = "
                              "::commscope::operation::" # kind # ";";
}

def Pld_AllocWindowBufferOp : Pld_PassOp<"alloc_window_buffer", "alloc_window_buffer"> {
  let summary = "allocates a per-rank communication window: (size) -> pointer";
  let arguments = (ins Variadic<AnyType>:$args, OptionalAttr<StrAttr>:$name,
                       OptionalAttr<I64Attr>:$window_buffer);
  let hasVerifier = 1;
}

def Pld_WindowOp : Pld_PassOp<"window", "window"> {
  let summary = "a view of a window buffer: (pointer, shape...) -> tensor";
  let arguments = (ins Variadic<AnyType>:$args, OptionalAttr<TypeAttr>:$dtype,
                       OptionalAttr<I64Attr>:$window_buffer);
  let hasVerifier = 1;
}

def Pld_WorldSizeOp : Pld_PassOp<"world_size", "world_size", [Pure]> {
  let summary = "the number of ranks";
}

def Pld_AllreduceOp : Pld_PassOp<"allreduce", "allreduce"> {
  let summary = "host collective (data, signal)";
}
def Pld_BroadcastOp : Pld_PassOp<"broadcast", "broadcast"> {
  let summary = "host collective (data, signal)";
}
def Pld_ReduceScatterOp : Pld_PassOp<"reduce_scatter", "reduce_scatter"> {
  let summary = "host collective (data, signal)";
}
def Pld_BarrierOp : Pld_PassOp<"barrier", "barrier"> {
  let summary = "host collective (signal)";
}
def Pld_AllgatherOp : Pld_PassOp<"allgather", "allgather"> {
  let summary = "host collective (input, target, signal)";
}
def Pld_AllToAllOp : Pld_PassOp<"all_to_all", "all_to_all"> {
  let summary = "host collective (input, target, signal)";
}
def Pld_AllToAllVOp : Pld_PassOp<"all_to_all_v", "all_to_all_v"> {
  let summary = "host collective (input, target, signal, send_counts, recv_counts)";
}

def Pld_DispatchOp : Pld_Op<"dispatch"> {
  let summary = "runs a chip orchestrator on a device: (device, arguments...)";
  let description = [{
    `pld.dispatch @chip(%device, %args...)`: the first operand is the device, the others
    are the callee's arguments. A callee that is no function of the module is reported
    by the pass (`malformed-op`), with the other errors of the program.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$outs);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` functional-type($args, $outs)";
  let hasVerifier = 1;
}

// AffineScope: the rewrite moves the host body into the innermost scope, so the values
// defined at the function's top level, valid affine symbols there (the bound of an
// `affine.for %i = 0 to %ws`), must stay symbols at the scope's top level.
def Pld_CommDomainScopeOp : Pld_Op<"comm_domain_scope",
                                   [AffineScope, SingleBlock, NoRegionArguments]> {
  let summary = "one communication domain: its devices and its window buffers";
  let description = [{
    The materialized form of one domain (docs/semantics.md, step 10). `devices` is
    ascending, empty for all devices; with `progressions` (a symbolic device set) it holds
    the set's ids (ascending, unique, non-negative; possibly none) and the progressions
    the rest. The custom form writes both as one list,
    `devices [0, range(1, world_size, 2)]`. `slots` lists the `window_buffer` ids of its
    allocations, in order.
    The body ends in `pld.yield`, whose operands are the scope's results: the values the
    function returns from inside the body. Scopes nest, outermost first.
  }];
  let arguments = (ins StrAttr:$name, DenseI64ArrayAttr:$devices, DenseI64ArrayAttr:$slots,
                       OptionalAttr<Pld_ProgressionsAttr>:$progressions);
  let results = (outs Variadic<AnyType>:$outs);
  let regions = (region SizedRegion<1>:$body);
  // A plain device list: the builder of the op before it could hold progressions.
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$outs, "::mlir::StringAttr":$name,
                   "::mlir::DenseI64ArrayAttr":$devices, "::mlir::DenseI64ArrayAttr":$slots),
      [{ build($_builder, $_state, outs, name, devices, slots, ProgressionsAttr()); }]>
  ];
  let assemblyFormat =
      "$name `devices` custom<DeviceSet>($devices, $progressions) `slots` $slots "
      "attr-dict-with-keyword (`:` type($outs)^)? $body";
  let hasVerifier = 1;
}

def Pld_YieldOp : Pld_Op<"yield", [Pure, Terminator,
                                   HasParent<"CommDomainScopeOp">]> {
  let summary = "ends a scope's body, forwarding the scope's results";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // COMMSCOPE_PLD_DIALECT_TD
