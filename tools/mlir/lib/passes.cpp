// The commscope passes as MLIR declares them (passes.td): registered names, options and
// statistics around synthesize_module, materialize_module and verify_module (pass.hpp).

// Debian's LLVM 19 is built with NDEBUG, so its pass statistics are llvm::NoopStatistic;
// Statistic.h makes them TrackingStatistic whenever NDEBUG is undefined (a Debug build
// of ours), and the two layouts would then disagree across the library boundary. So
// Statistic.h comes first, seen with NDEBUG.
#ifndef NDEBUG
#define NDEBUG
#include <llvm/ADT/Statistic.h>
#undef NDEBUG
#else
#include <llvm/ADT/Statistic.h>
#endif

#include "pass.hpp"

#include <commscope/mlir/passes.hpp>

#include <exception>
#include <type_traits>

static_assert(std::is_same_v<llvm::Statistic, llvm::NoopStatistic>,
              "llvm/ADT/Statistic.h must be seen with NDEBUG, as LLVM was built");

namespace commscope::pld {

// clang-format off
#define GEN_PASS_DEF_COMMSCOPESYNTHESIZESIGNALS
#define GEN_PASS_DEF_COMMSCOPEMATERIALIZE
#define GEN_PASS_DEF_COMMSCOPEVERIFY
#include <commscope/mlir/passes.h.inc>
// clang-format on

namespace {

/// Runs `body`; an exception becomes an error at the module and a failed pass.
template <class Body> bool guarded(::mlir::ModuleOp m, Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    ::mlir::emitError(m.getLoc()) << "commscope: " << e.what();
  } catch (...) {
    ::mlir::emitError(m.getLoc()) << "commscope: unknown exception";
  }
  return false;
}

struct synthesize_signals_pass : impl::CommscopeSynthesizeSignalsBase<synthesize_signals_pass> {
  void runOnOperation() override {
    std::uint64_t n = 0;
    const bool ok = guarded(getOperation(), [&] { return synthesize_module(getOperation(), n); });
    signals += n;
    if (!ok)
      return signalPassFailure();
    if (n == 0)
      markAllAnalysesPreserved();
  }
};

struct materialize_pass : impl::CommscopeMaterializeBase<materialize_pass> {
  using CommscopeMaterializeBase::CommscopeMaterializeBase;
  void runOnOperation() override {
    counts n;
    bool changed = false;
    const bool ok = guarded(getOperation(), [&] {
      return materialize_module(getOperation(), {deviceLimit, nestingLimit}, n, changed);
    });
    allocations += n.allocations;
    domains += n.domains;
    dispatches += n.dispatches;
    if (!ok)
      return signalPassFailure();
    if (!changed)
      markAllAnalysesPreserved();
  }
};

struct verify_pass : impl::CommscopeVerifyBase<verify_pass> {
  void runOnOperation() override {
    markAllAnalysesPreserved();
    if (!guarded(getOperation(), [&] { return verify_module(getOperation()); }))
      signalPassFailure();
  }
};

} // namespace

// clang-format off
#define GEN_PASS_REGISTRATION
#include <commscope/mlir/passes.h.inc>
// clang-format on

void register_passes() { registerCommscopePasses(); }

} // namespace commscope::pld
