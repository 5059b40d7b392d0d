// The `pld` dialect: just enough MLIR to write a host program (see traits.hpp for the
// form). Defined in C++ without TableGen; every op uses the generic syntax
// `"pld.window"(%buf, %n) {dtype = f32} : (i64, index) -> tensor<?xf32>` and verifies
// nothing about its operands, so that a wrong arity reaches the pass, which reports it
// as `malformed-op` with the library's message instead of a parser error.
#pragma once

#include <commscope/traits.hpp>

#include <mlir/IR/Dialect.h>
#include <mlir/IR/OpDefinition.h>

#include <algorithm>
#include <cstddef>

namespace commscope::pld {

/// A string usable as a template argument: the op's name.
template <std::size_t N>
struct op_name {
  char text[N]{};
  constexpr op_name(const char (&s)[N]) { std::copy_n(s, N, text); } // NOLINT: implicit
};

/// One op of the dialect: its name, the library operation it is (none for the structural
/// ops), and its MLIR traits.
template <op_name Name, commscope::operation Kind, template <class> class... Traits>
class op : public ::mlir::Op<op<Name, Kind, Traits...>, Traits...> {
  using base = ::mlir::Op<op, Traits...>;

public:
  using base::base;
  static constexpr commscope::operation kind = Kind;
  static ::llvm::StringRef getOperationName() { return {Name.text, sizeof(Name.text) - 1}; }
  static ::llvm::ArrayRef<::llvm::StringRef> getAttributeNames() { return {}; }
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(op)
};

using operation = commscope::operation;
using alloc_window_buffer = op<"pld.alloc_window_buffer", operation::alloc_window_buffer>;
using window = op<"pld.window", operation::window>;
using world_size = op<"pld.world_size", operation::world_size>;
using allreduce = op<"pld.allreduce", operation::allreduce>;
using broadcast = op<"pld.broadcast", operation::broadcast>;
using reduce_scatter = op<"pld.reduce_scatter", operation::reduce_scatter>;
using barrier = op<"pld.barrier", operation::barrier>;
using allgather = op<"pld.allgather", operation::allgather>;
using all_to_all = op<"pld.all_to_all", operation::all_to_all>;
using all_to_all_v = op<"pld.all_to_all_v", operation::all_to_all_v>;
/// `pld.dispatch(%device, %args...) {callee = @chip}`: a call of a chip orchestrator.
using dispatch = op<"pld.dispatch", operation::none>;
/// One materialized domain: attributes name, devices (array<i64>, empty = all) and slots
/// (array<i64> of the window_buffer ids of its allocations). Its results forward the
/// values the function returns from inside the body, through `pld.yield`.
using comm_domain_scope =
    op<"pld.comm_domain_scope", operation::none, ::mlir::OpTrait::OneRegion,
       ::mlir::OpTrait::VariadicResults, ::mlir::OpTrait::ZeroOperands,
       ::mlir::OpTrait::SingleBlock>;
using yield = op<"pld.yield", operation::none, ::mlir::OpTrait::ZeroResults,
                 ::mlir::OpTrait::IsTerminator>;

/// A list of ops to classify an op by.
template <class... Ops>
struct op_list {
  static commscope::operation classify(::mlir::Operation* o) {
    commscope::operation r = commscope::operation::none;
    (void)((::mlir::isa<Ops>(o) && (r = Ops::kind, true)) || ...); // stops at the first match
    return r;
  }
};
/// The operations of pass.md.
using recognised = op_list<alloc_window_buffer, window, world_size, allreduce, broadcast,
                           reduce_scatter, barrier, allgather, all_to_all, all_to_all_v>;

class dialect : public ::mlir::Dialect {
public:
  explicit dialect(::mlir::MLIRContext* ctx)
      : Dialect(getDialectNamespace(), ctx, ::mlir::TypeID::get<dialect>()) {
    addOperations<alloc_window_buffer, window, world_size, allreduce, broadcast,
                  reduce_scatter, barrier, allgather, all_to_all, all_to_all_v, dispatch,
                  comm_domain_scope, yield>();
  }
  static ::llvm::StringRef getDialectNamespace() { return "pld"; }
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(dialect)
};

} // namespace commscope::pld
