// The pass and the verifier for MLIR (`commscope-materialize`, `commscope-verify`). The
// passes are declared in ODS (passes.td: names, options, statistics) and defined in the
// library commscope_pld; what they run is here, header-only: `materialize_module` and
// `verify_module`. Each diagnostic becomes an MLIR error at its op, its code in
// brackets, with notes at the related ops; no C++ exception leaves a pass.
#pragma once

#include <commscope/commscope.hpp>
#include <commscope/mlir/traits.hpp>

#include <mlir/IR/Diagnostics.h>
#include <mlir/Pass/Pass.h>

#include <cstdint>
#include <memory>
#include <string>

namespace commscope::pld {

// clang-format off
#define GEN_PASS_DECL
#include <commscope/mlir/passes.h.inc>
// clang-format on

using traits = ir_traits<::mlir::ModuleOp>;

/// The message of a diagnostic, in MLIR terms where the library's words are the
/// reference IR's (`device=` is the dispatch's first operand here).
template <class Diagnostic> std::string message_of(const Diagnostic& d) {
  const std::string who = "'" + std::string(d.subject) + "'";
  switch (d.code) {
  case error_code::malformed_op:
    if (d.why == commscope::detail::unwrappable_body)
      return "allocation " + who +
             " is in a function with more than one block: pld.comm_domain_scope wraps a "
             "single block (use scf control flow)";
    if (d.why == commscope::detail::unknown_callee)
      return "pld.dispatch of " + who + ", which is no function of the module";
    break;
  case error_code::unsupported_device:
    return "cannot infer the devices of the pld.dispatch of " + who +
           " from its device operand (expected a constant or the induction variable of an "
           "enclosing scf.for with constant bounds or 0 to pld.world_size step 1)";
  case error_code::partial_world_range:
    return "the pld.dispatch of " + who +
           " runs in an scf.for over part of the world: only 0 to pld.world_size step 1 "
           "covers all devices";
  default:
    break;
  }
  return d.message();
}

/// Emits one diagnostic as an MLIR error at its op.
template <class Diagnostic>
::mlir::InFlightDiagnostic emit(::mlir::ModuleOp m, const Diagnostic& d) {
  const ::mlir::Location at = d.where ? ::mlir::Location(d.where) : m.getLoc();
  auto diag = ::mlir::emitError(at);
  diag << message_of(d) << " [" << code_name(d.code) << "]";
  return diag;
}

/// Emits every diagnostic; returns whether there were none.
template <class Diagnostics> bool report(::mlir::ModuleOp m, const Diagnostics& diagnostics) {
  for (const auto& d : diagnostics)
    emit(m, d);
  return diagnostics.empty();
}

/// Run-time limits of the pass options; 0 keeps the adapter's. They can only lower the
/// adapter's limits, and are checked on the plan after the analysis (at the allocation
/// concerned: the plan keeps no dispatches).
struct limits {
  std::int64_t devices = 0;
  std::int64_t nesting = 0;
};

/// What the pass statistics count.
struct counts {
  std::uint64_t allocations = 0, domains = 0, dispatches = 0;
};

namespace detail_ {
/// The highest device of a finite set; -1 for bottom or all.
template <class Set> std::int64_t highest(const Set& s) {
  return s.is_all() || s.is_bottom() ? -1 : s.intervals().back().last;
}

/// The option limits, as diagnostics of the plan's own codes.
template <class Plan> bool check_limits(const Plan& pl, const limits& lim) {
  bool ok = true;
  for (const auto& fp : pl.functions) {
    if (fp.status != function_plan<traits>::state::analysed)
      continue;
    if (lim.devices > 0)
      for (const auto& a : fp.allocations)
        if (const auto top = highest(a.devices); top >= lim.devices) {
          ::mlir::emitError(::mlir::Location(a.where))
              << "allocation '" << a.name << "' is used on device " << top
              << ", at or above the device-limit option " << lim.devices
              << " [device-out-of-range]";
          ok = false;
        }
    if (lim.nesting > 0 && fp.domains.size() > static_cast<std::uint64_t>(lim.nesting)) {
      const auto& a =
          fp.allocations[fp.domains[static_cast<std::size_t>(lim.nesting)].slots.front()];
      ::mlir::emitError(::mlir::Location(a.where))
          << "allocation '" << a.name << "' would open nested scope " << lim.nesting + 1
          << ", beyond the nesting-limit option " << lim.nesting << " [scope-nesting-limit]";
      ok = false;
    }
  }
  return ok;
}
} // namespace detail_

/// The pass on one module: analyse, report, and rewrite when there is nothing to
/// report. Returns false on errors (the module is then unchanged); `changed` tells
/// whether anything was rewritten.
inline bool materialize_module(::mlir::ModuleOp m, const limits& lim, counts& n, bool& changed) {
  changed = false;
  const symbol_scope symbols(m);
  const auto pl = analyze(m);
  const bool clean = report(m, pl.diagnostics);
  if (!detail_::check_limits(pl, lim) || !clean)
    return false; // nothing was touched: the rewrite needs a clean plan
  for (const auto& fp : pl.functions) {
    n.allocations += fp.allocations.size();
    n.domains += fp.domains.size();
    if (fp.status == function_plan<traits>::state::analysed)
      ::mlir::func::FuncOp(fp.function).walk([&](dispatch) { ++n.dispatches; });
  }
  changed = materialize(m, pl);
  return true;
}

/// The verifier of "comm-domain scopes materialized" on one module.
inline bool verify_module(::mlir::ModuleOp m) {
  const symbol_scope symbols(m);
  return report(m, verify(m));
}

/// The passes (defined in the library commscope_pld, registered by name).
inline std::unique_ptr<::mlir::Pass> create_materialize_pass() {
  return createCommscopeMaterialize();
}
inline std::unique_ptr<::mlir::Pass> create_verify_pass() { return createCommscopeVerify(); }
/// Registers both passes with MLIR's pass registry (for mlir-opt style drivers).
void register_passes();

} // namespace commscope::pld
