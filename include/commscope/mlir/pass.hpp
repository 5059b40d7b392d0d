// The pass and the verifier as MLIR passes on a module (`commscope-materialize`,
// `commscope-verify`). Each diagnostic becomes an MLIR error at its op's location, its
// code in brackets; no C++ exception leaves runOnOperation.
#pragma once

#include <commscope/commscope.hpp>
#include <commscope/mlir/traits.hpp>

#include <mlir/Pass/Pass.h>

#include <exception>
#include <memory>
#include <string>

namespace commscope::pld {

using traits = ir_traits<::mlir::ModuleOp>;

/// The message of a diagnostic, in MLIR terms where the library's words are the
/// reference IR's.
template <class Diagnostic> std::string message_of(const Diagnostic& d) {
  if (d.code == error_code::malformed_op && d.why == detail::unwrappable_body)
    return "allocation '" + std::string(d.subject) +
           "' is in a function with more than one block: pld.comm_domain_scope wraps a "
           "single block (use scf control flow)";
  return d.message();
}

/// Emits every diagnostic; returns whether there were none.
template <class Diagnostics> bool report(::mlir::ModuleOp m, const Diagnostics& diagnostics) {
  for (const auto& d : diagnostics) {
    const ::mlir::Location at = d.where ? ::mlir::Location(d.where) : m.getLoc();
    ::mlir::emitError(at) << message_of(d) << " [" << code_name(d.code) << "]";
  }
  return diagnostics.empty();
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
      const symbol_scope symbols(m);
      const auto pl = analyze(m);
      if (!report(m, pl.diagnostics))
        return signalPassFailure(); // nothing was touched: the rewrite needs a clean plan
      if (!materialize(m, pl))
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
      const symbol_scope symbols(getOperation());
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
