// The `pld` dialect: just enough MLIR to write a host program (see
// <commscope/mlir/traits.hpp> for the form). Declared in ODS (dialect.td); mlir-tblgen
// generates the classes included here (installed beside this header) and their
// definitions, compiled into the library commscope::pld. Each op of an operation the pass
// recognizes (docs/semantics.md, "The host program") carries its library operation as
// `kind`.
#pragma once

#include <commscope/device_set.hpp>
#include <commscope/traits.hpp>

#include <mlir/Bytecode/BytecodeOpInterface.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/Dialect.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/IR/OpDefinition.h>
#include <mlir/IR/OpImplementation.h>
#include <mlir/Interfaces/SideEffectInterfaces.h>

#include <llvm/ADT/Hashing.h>

namespace commscope {
/// A progression as a parameter of an MLIR attribute (pld.progressions), which hashes it.
inline llvm::hash_code hash_value(const device_progression& p) {
  return llvm::hash_combine(p.start, p.step, p.stop_offset);
}
} // namespace commscope

// clang-format off
#include <commscope/mlir/pld_dialect.h.inc>
#define GET_ATTRDEF_CLASSES
#include <commscope/mlir/pld_attrs.h.inc>
#define GET_OP_CLASSES
#include <commscope/mlir/pld_ops.h.inc>
// clang-format on

namespace commscope::pld {

using dialect = PldDialect;
/// Adds the pld dialect to a registry (for mlir-opt style drivers).
void register_dialect(::mlir::DialectRegistry& registry);

using alloc_window_buffer = AllocWindowBufferOp;
using window = WindowOp;
using world_size = WorldSizeOp;
using allreduce = AllreduceOp;
using broadcast = BroadcastOp;
using reduce_scatter = ReduceScatterOp;
using barrier = BarrierOp;
using allgather = AllgatherOp;
using all_to_all = AllToAllOp;
using all_to_all_v = AllToAllVOp;
/// `pld.dispatch @chip(%device, %args...)`: a call of a chip orchestrator.
using dispatch = DispatchOp;
/// One materialized domain: name, devices (empty = all; with progressions, a symbolic
/// set's ids) and slots (the window_buffer ids of its allocations). Its results forward
/// the function's returned values.
using comm_domain_scope = CommDomainScopeOp;
/// `#pld.progressions<[range(1, world_size, 2)]>`: a scope's world-relative progressions.
using progressions_attr = ProgressionsAttr;
using yield = YieldOp;

/// A list of ops to classify an op by.
template <class... Ops> struct op_list {
  static commscope::operation classify(::mlir::Operation* o) {
    if (!::mlir::isa_and_present<dialect>(o->getDialect()))
      return commscope::operation::none; // most ops of a body: one comparison
    commscope::operation r = commscope::operation::none;
    (void)((::mlir::isa<Ops>(o) && (r = Ops::kind, true)) || ...); // stops at the first match
    return r;
  }
};
/// The operations the pass recognizes (docs/semantics.md, "The host program").
using recognized = op_list<alloc_window_buffer, window, world_size, allreduce, broadcast,
                           reduce_scatter, barrier, allgather, all_to_all, all_to_all_v>;
/// The former spelling, kept for one release (CHANGELOG.md).
using recognised = recognized;

} // namespace commscope::pld
