// The pass and the verifier as MLIR passes on a module (`commscope-materialize`,
// `commscope-verify`). Each diagnostic becomes an MLIR error at its op's location, its
// code in brackets; no C++ exception leaves runOnOperation.
#pragma once

#include <commscope/commscope.hpp>
#include <commscope/mlir/traits.hpp>

#include <mlir/Pass/Pass.h>

#include <exception>
#include <memory>

namespace commscope::pld {

using traits = ir_traits<::mlir::ModuleOp>;

/// Emits every diagnostic; returns whether there were none.
template <class Diagnostics>
bool report(::mlir::ModuleOp m, const Diagnostics& diagnostics) {
  for (const auto& d : diagnostics) {
    const ::mlir::Location at = d.where ? ::mlir::Location(d.where) : m.getLoc();
    ::mlir::emitError(at) << d.message() << " [" << code_name(d.code) << "]";
  }
  return diagnostics.empty();
}

/// The rewrite nests one block; a host orchestrator with a CFG has no single body to wrap.
inline bool single_block_hosts(::mlir::ModuleOp m) {
  bool ok = true;
  for (auto f : traits::functions(m))
    if (traits::describe(f).is_host_orchestrator() && !f.getBody().hasOneBlock() &&
        !f.getBody().empty()) {
      ::mlir::emitError(f.getLoc())
          << "a host orchestrator must have a single block [malformed-op]";
      ok = false;
    }
  return ok;
}

struct materialize_pass
    : ::mlir::PassWrapper<materialize_pass, ::mlir::OperationPass<::mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(materialize_pass)
  ::llvm::StringRef getArgument() const override { return "commscope-materialize"; }
  ::llvm::StringRef getDescription() const override {
    return "Materialize communication-domain scopes around host orchestrator bodies";
  }
  void runOnOperation() override {
    auto m = getOperation();
    try {
      if (!single_block_hosts(m))
        return signalPassFailure();
      const auto pl = analyze(m);
      if (!report(m, pl.diagnostics))
        return signalPassFailure(); // nothing was touched: the rewrite needs a clean plan
      if (materialize(m, pl) != materialized::rewritten)
        markAllAnalysesPreserved();
    } catch (const std::exception& e) {
      ::mlir::emitError(m.getLoc()) << "commscope: " << e.what();
      signalPassFailure();
    } catch (...) {
      ::mlir::emitError(m.getLoc()) << "commscope: unknown exception";
      signalPassFailure();
    }
  }
};

struct verify_pass : ::mlir::PassWrapper<verify_pass, ::mlir::OperationPass<::mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(verify_pass)
  ::llvm::StringRef getArgument() const override { return "commscope-verify"; }
  ::llvm::StringRef getDescription() const override {
    return "Check the property 'comm-domain scopes materialized'";
  }
  void runOnOperation() override {
    markAllAnalysesPreserved();
    try {
      if (!report(getOperation(), verify(getOperation())))
        signalPassFailure();
    } catch (...) {
      ::mlir::emitError(getOperation().getLoc()) << "commscope: verifier failed";
      signalPassFailure();
    }
  }
};

inline std::unique_ptr<::mlir::Pass> create_materialize_pass() {
  return std::make_unique<materialize_pass>();
}
inline std::unique_ptr<::mlir::Pass> create_verify_pass() {
  return std::make_unique<verify_pass>();
}

} // namespace commscope::pld
