// The generated `pld` dialect (../include/commscope/mlir/dialect.td), its verifiers,
// and the check of the function-level attributes pld.level / pld.role / pld.type.
#include <commscope/mlir/dialect.hpp>

#include <mlir/IR/Builders.h>
#include <mlir/IR/DialectImplementation.h>
#include <mlir/Interfaces/FunctionInterfaces.h>

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>

#include <array>

// clang-format off
#include <commscope/mlir/pld_dialect.cpp.inc>
#define GET_OP_CLASSES
#include <commscope/mlir/pld_ops.cpp.inc>
// clang-format on

namespace commscope::pld {

void register_dialect(mlir::DialectRegistry& registry) { registry.insert<PldDialect>(); }

void PldDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include <commscope/mlir/pld_ops.cpp.inc>
      >();
}

namespace {
/// The values each function-level attribute may take (traits.hpp, `describe`).
struct function_attribute {
  llvm::StringRef name;
  std::array<llvm::StringRef, 3> values;
};
constexpr std::array<function_attribute, 3> function_attributes{{
    {"pld.level", {"host", "chip", "core"}},
    {"pld.role", {"orchestrator", "worker", ""}},
    {"pld.type", {"orchestration", "graph", "kernel"}},
}};

mlir::LogicalResult non_negative_id(mlir::Operation* op, std::optional<std::uint64_t> id) {
  if (id && static_cast<std::int64_t>(*id) < 0)
    return op->emitOpError("window_buffer must be a non-negative id");
  return mlir::success();
}
} // namespace

mlir::LogicalResult PldDialect::verifyOperationAttribute(mlir::Operation* op,
                                                         mlir::NamedAttribute attribute) {
  const llvm::StringRef name = attribute.getName().getValue();
  const auto* known = llvm::find_if(function_attributes,
                                    [&](const function_attribute& a) { return a.name == name; });
  if (known == function_attributes.end())
    return op->emitError() << "unknown pld attribute '" << name
                           << "' (expected pld.level, pld.role or pld.type)";
  if (!mlir::isa<mlir::FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' belongs on a function";
  auto value = mlir::dyn_cast<mlir::StringAttr>(attribute.getValue());
  if (!value || value.getValue().empty() || !llvm::is_contained(known->values, value.getValue())) {
    auto diag = op->emitError() << "'" << name << "' must be one of";
    for (auto v : known->values)
      if (!v.empty())
        diag << " \"" << v << "\"";
    return diag;
  }
  return mlir::success();
}

mlir::LogicalResult AllocWindowBufferOp::verify() {
  return non_negative_id(*this, getWindowBuffer());
}
mlir::LogicalResult WindowOp::verify() { return non_negative_id(*this, getWindowBuffer()); }

mlir::LogicalResult DispatchOp::verify() {
  if (getArgs().empty())
    return emitOpError("needs a device operand first");
  return mlir::success();
}

mlir::LogicalResult CommDomainScopeOp::verify() {
  mlir::Block& body = getBody().front();
  auto y = body.empty() ? nullptr : mlir::dyn_cast<YieldOp>(body.back());
  if (!y)
    return emitOpError("body must end in pld.yield");
  if (y.getValues().getTypes() != getResultTypes())
    return emitOpError("pld.yield must forward values of the scope's result types");
  return mlir::success();
}

} // namespace commscope::pld
