// What the commscope passes run (passes.cpp defines the passes around it):
// `synthesize_module`, `materialize_module` and `verify_module`, private to this
// component (the benchmark times them too). Each diagnostic becomes an MLIR error at its
// op: the library's message, the pass's context after it, its code in brackets; followed
// by the library's notes (docs/semantics.md, "Notes") as MLIR notes, and by a note of the
// adapter's own where the library gives none (where an operand is defined, a function's
// blocks); no C++ exception leaves a pass.
#pragma once

#include <commscope/commscope.hpp>
#include <commscope/mlir/traits.hpp>

#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/Matchers.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/ADT/DenseMap.h>

namespace commscope::pld {

using traits = ir_traits<::mlir::ModuleOp>;

/// What the pass adds after the library's message where MLIR spells the thing otherwise
/// or offers a remedy of its own (a pass to run first, --inline); empty where the library
/// says it all. The library's message itself is never changed.
template <class Diagnostic> std::string_view context_of(const Diagnostic& d) {
  switch (d.why) {
  case commscope::reason::wrong_arity:
    if (d.subject == "allreduce" && d.arity == 1)
      return ": run commscope-synthesize-signals first to give it a signal";
    return {};
  case commscope::reason::bad_core_num:
    return ": the core_num attribute of pld.allreduce";
  case commscope::reason::unwrappable_body:
    return ": pld.comm_domain_scope wraps a function of one block (use scf control flow)";
  case commscope::reason::unknown_callee:
    return ": pld.dispatch names no function of the module";
  case commscope::reason::view_into_call:
  case commscope::reason::pointer_into_call:
    return " (--inline)";
  case commscope::reason::view_into_operation:
  case commscope::reason::pointer_into_operation:
    if (d.object == "func.return") // traits.hpp, returns_to_callers
      return ": the function is called in the module, and the pass does not follow a view it "
             "returns into its callers (dispatch the view in the function that allocates it)";
    return {};
  default:
    break;
  }
  if (d.code == error_code::unsupported_device)
    return ": the device operand of pld.dispatch must be a constant or the induction variable "
           "of an enclosing counted loop (scf.for, affine.for, a one-dimensional scf.parallel or "
           "scf.forall) with constant bounds, or from a constant to pld.world_size minus a "
           "constant with a constant step";
  return {};
}

/// The ops diagnostics point at, found again by location to attach notes about the
/// ops they concern (one walk, only when there is something to report). Where ops share
/// a location (a front end's one per source line; the size arithmetic that signal
/// synthesis puts before its allocation), the first pld op is the one: diagnostics
/// point at pld ops.
class related_ops {
public:
  explicit related_ops(::mlir::ModuleOp m) {
    m.walk([&](::mlir::Operation* op) {
      if (::mlir::isa<::mlir::UnknownLoc>(op->getLoc()))
        return;
      auto [it, fresh] = at_.try_emplace(op->getLoc().getAsOpaquePointer(), op);
      if (!fresh && !is_pld(it->second) && is_pld(op))
        it->second = op;
    });
  }
  ::mlir::Operation* at(traits::location where) const {
    return where ? at_.lookup(where.getAsOpaquePointer()) : nullptr;
  }
  template <class Op> Op find(traits::location where) const {
    return ::mlir::dyn_cast_or_null<Op>(at(where));
  }

private:
  static bool is_pld(::mlir::Operation* op) {
    return ::mlir::isa_and_present<dialect>(op->getDialect());
  }
  llvm::DenseMap<const void*, ::mlir::Operation*> at_;
};

} // namespace commscope::pld

// The helpers are in the library's internal namespace, named in full from commscope::pld:
// there `detail` is the one mlir-tblgen generates for the ops' adaptors.
namespace commscope::detail {
/// "operand defined here", at its op or, for an induction variable, at its loop (any
/// LoopLikeOpInterface: scf.for, affine.for).
inline void note_definition(::mlir::InFlightDiagnostic& diag, ::mlir::Value v,
                            const std::string& what) {
  if (auto* def = v.getDefiningOp()) {
    diag.attachNote(def->getLoc()) << what << " is defined here";
    return;
  }
  auto* owner = v.getParentRegion() ? v.getParentRegion()->getParentOp() : nullptr;
  auto loop = ::mlir::dyn_cast_or_null<::mlir::LoopLikeOpInterface>(owner);
  if (loop && loop.getSingleInductionVar() == v)
    diag.attachNote(loop.getLoc())
        << what << " is the induction variable of this " << owner->getName();
  else if (auto f = ::mlir::dyn_cast_or_null<::mlir::func::FuncOp>(owner))
    diag.attachNote(f.getLoc()) << what << " is an argument of '" << f.getSymName() << "'";
  else if (owner)
    diag.attachNote(owner->getLoc())
        << what << " is a block argument of this '" << owner->getName() << "'";
}

/// The library's notes of a diagnostic (docs/semantics.md, "Notes": the loop of a device
/// set, the first allocation of a duplicate name, each view of an unconsumed allocation,
/// the loop around a collective, the allocation and the two views of aliased windows),
/// then the adapter's own where the library has none: where the device operand or a
/// collective's argument is defined, why an allocation's function cannot be wrapped.
template <class Diagnostic>
void attach_notes(::mlir::InFlightDiagnostic& diag, const Diagnostic& d,
                  const pld::related_ops& ops) {
  // The loop of a device operand the library could not follow: the adapter's own note
  // (below) names the operand's definition in MLIR's terms.
  bool library_notes = false;
  for (const auto& n : d.notes)
    if (n.what != commscope::note_kind::variable_loop) {
      library_notes = true;
      if (n.where)
        diag.attachNote(::mlir::Location(n.where)) << n.message();
    }
  if (library_notes)
    return;
  switch (d.code) {
  case error_code::unsupported_device:
  case error_code::negative_device:
  case error_code::device_out_of_range:
  case error_code::partial_world_range:
    if (auto call = ops.find<pld::dispatch>(d.where); call && call->getNumOperands() > 0)
      note_definition(diag, call->getOperand(0), "the device operand");
    break;
  case error_code::collective_arg_not_window:
    if (auto* op = ops.at(d.where);
        op && d.argument >= 0 && static_cast<std::uint64_t>(d.argument) < op->getNumOperands())
      note_definition(diag, op->getOperand(static_cast<unsigned>(d.argument)),
                      "argument " + std::to_string(d.argument) + " of the collective");
    break;
  case error_code::malformed_op:
    if (auto alloc = ops.find<pld::alloc_window_buffer>(d.where)) {
      auto f = alloc->template getParentOfType<::mlir::func::FuncOp>();
      if (!f)
        break;
      if (d.why == commscope::reason::unwrappable_body)
        diag.attachNote(f.getLoc())
            << "'" << f.getSymName() << "' has " << f.getBody().getBlocks().size() << " blocks";
      else if (d.why == commscope::reason::alloc_outside_scope)
        f.walk([&](pld::comm_domain_scope s) {
          diag.attachNote(s.getLoc()) << "the function's comm-domain scopes start here";
          return ::mlir::WalkResult::interrupt();
        });
    }
    break;
  default:
    break;
  }
}
} // namespace commscope::detail

namespace commscope::pld {

/// Emits one diagnostic as an MLIR error at its op with its notes: the library's message,
/// `context` after it, its code in brackets.
template <class Diagnostic>
void emit(::mlir::ModuleOp m, const related_ops& ops, const Diagnostic& d,
          std::string_view context) {
  const ::mlir::Location at = d.where ? ::mlir::Location(d.where) : m.getLoc();
  auto diag = ::mlir::emitError(at);
  // An unsupported device is explained by the context and the notes in MLIR's terms (an
  // SSA value, an induction variable), not by the library's cause in the DSL's.
  diag << (d.code == error_code::unsupported_device ? d.code_message() : d.message()) << context
       << " [" << code_name(d.code) << "]";
  commscope::detail::attach_notes(diag, d, ops);
}

/// Emits every diagnostic, each with its context_of; returns whether there were none.
template <class Diagnostics> bool report(::mlir::ModuleOp m, const Diagnostics& diagnostics) {
  if (diagnostics.empty())
    return true;
  const related_ops ops(m);
  for (const auto& d : diagnostics)
    emit(m, ops, d, context_of(d));
  return false;
}

/// Run-time limits of the pass options; 0 keeps the adapter's. They can only lower the
/// adapter's limits (whose values the analysis fixes at compile time), and are checked
/// after the analysis, reported after its diagnostics.
struct limits {
  std::int64_t devices = 0;
  std::int64_t nesting = 0;
};

/// What the pass statistics count.
struct counts {
  std::uint64_t allocations = 0, domains = 0, dispatches = 0;
};

} // namespace commscope::pld

namespace commscope::detail {
/// The highest device a dispatch names, for the forms read at the dispatch: a constant,
/// or the induction variable of a counted loop (LoopLikeOpInterface: scf.for, affine.for)
/// with constant bounds and a positive step. A device carried through region results (an
/// scf.if's, an iter_arg) is found in the device sets of the allocations (check_limits).
inline std::optional<std::int64_t> highest_device(pld::dispatch call) {
  if (call->getNumOperands() == 0)
    return std::nullopt;
  const ::mlir::Value device = call->getOperand(0);
  llvm::APInt c;
  if (::mlir::matchPattern(device, ::mlir::m_ConstantInt(&c)))
    return c.getSExtValue();
  const auto constant = [](std::optional<::mlir::OpFoldResult> f) -> std::optional<std::int64_t> {
    if (!f)
      return std::nullopt;
    if (auto v = llvm::dyn_cast<::mlir::Value>(*f)) {
      llvm::APInt i;
      if (!::mlir::matchPattern(v, ::mlir::m_ConstantInt(&i)))
        return std::nullopt;
      return i.getSExtValue();
    }
    return pld::integer_of(llvm::cast<::mlir::Attribute>(*f));
  };
  auto arg = ::mlir::dyn_cast<::mlir::BlockArgument>(device);
  auto loop =
      arg ? ::mlir::dyn_cast<::mlir::LoopLikeOpInterface>(arg.getOwner()->getParentOp()) : nullptr;
  if (!loop || loop.getSingleInductionVar() != device)
    return std::nullopt;
  const auto lo = constant(loop.getSingleLowerBound()), hi = constant(loop.getSingleUpperBound()),
             step = constant(loop.getSingleStep());
  if (!lo || !hi || !step || *step <= 0 || *lo >= *hi)
    return std::nullopt;
  return *lo + (*hi - 1 - *lo) / *step * *step;
}

/// The option limits, with the codes and places of the adapter's own: device-limit at
/// each dispatch of a chip orchestrator that reaches it (or, in a function with none, at
/// each allocation whose device set does), nesting-limit at the first allocation beyond
/// it. The findings are the library's diagnostics with the option named after them.
/// Counts the dispatches on the way.
template <class Plan>
bool check_limits(::mlir::ModuleOp m, const Plan& pl, const pld::traits& t, const pld::limits& lim,
                  pld::counts& n) {
  using diagnostic = commscope::diagnostic<pld::traits::location>;
  std::vector<diagnostic> found;
  for (const auto& fp : pl.functions) {
    if (fp.status != function_plan<pld::traits>::state::analyzed)
      continue;
    bool reported = false;
    ::mlir::func::FuncOp(fp.function).walk([&](pld::dispatch call) {
      ++n.dispatches;
      const auto top = lim.devices > 0 ? highest_device(call) : std::nullopt;
      if (!top || *top < lim.devices)
        return;
      const auto callee = t.call_target_of({call, {}});
      if (callee.what != call_target::kind::function || !callee.callee.is_chip_orchestrator())
        return;
      detail::report(found, error_code::device_out_of_range, reason::none, callee.callee.name,
                     t.location_of({call, {}}), 0)
          .with_device(*top)
          .with_limit(lim.devices);
      reported = true;
    });
    for (const auto& a : fp.allocations) {
      if (lim.devices <= 0 || reported)
        continue;
      // Its highest id, or else the lowest start of a progression (as the adapter's own
      // limit judges one: by its first device) at or above the limit.
      const auto runs = a.devices.intervals();
      std::optional<std::int64_t> over;
      if (!runs.empty() && runs.back().last >= lim.devices)
        over = runs.back().last;
      else if (a.devices.has_progressions())
        for (const device_progression p : a.devices.progressions())
          if (p.start >= lim.devices && (!over || p.start < *over))
            over = p.start;
      if (over)
        detail::report(found, error_code::device_out_of_range, reason::allocation_beyond_limit,
                       a.name, a.where, 0)
            .with_device(*over)
            .with_limit(lim.devices);
    }
    if (lim.nesting > 0 && fp.domains.size() > static_cast<std::uint64_t>(lim.nesting)) {
      const auto& a =
          fp.allocations[fp.domains[static_cast<std::size_t>(lim.nesting)].slots.front()];
      detail::report(found, error_code::scope_nesting_limit, reason::none, a.name, a.where, 0)
          .with_depth(lim.nesting + 1)
          .with_limit(lim.nesting);
    }
  }
  if (found.empty())
    return true;
  const pld::related_ops ops(m);
  for (const auto& d : found)
    pld::emit(m, ops, d,
              d.code == error_code::scope_nesting_limit ? " (the nesting-limit option)"
                                                        : " (the device-limit option)");
  return false;
}
} // namespace commscope::detail

namespace commscope::pld {

/// The pass on one module: analyze, report, and rewrite when there is nothing to
/// report. Returns false on errors (the module is then unchanged); `changed` tells
/// whether anything was rewritten.
inline bool materialize_module(::mlir::ModuleOp m, const limits& lim, counts& n, bool& changed) {
  changed = false;
  const ::mlir::SymbolTable symbols(m);
  const traits t{&symbols};
  const auto pl = analyze(m, t);
  const bool clean = report(m, pl.diagnostics);
  if (!commscope::detail::check_limits(m, pl, t, lim, n) || !clean)
    return false; // nothing was touched: the rewrite needs a clean plan
  for (const auto& fp : pl.functions) {
    n.allocations += fp.allocations.size();
    n.domains += fp.domains.size();
  }
  changed = materialize(m, pl, t) == rewrite_result::rewritten;
  return true;
}

/// The companion pass on one module (docs/semantics.md, "The companion pass: signal
/// synthesis"): plan, report, and give every signal-less pld.allreduce its signal window
/// when there is nothing to report. Returns false on errors (the module is then
/// unchanged); `signals` counts the windows synthesized.
inline bool synthesize_module(::mlir::ModuleOp m, std::uint64_t& signals) {
  signals = 0;
  const ::mlir::SymbolTable symbols(m);
  const traits t{&symbols};
  const auto pl = plan_signals(m, t);
  if (!report(m, pl.diagnostics))
    return false;
  signals = pl.sites.size();
  synthesize(m, pl, t);
  return true;
}

/// The verifier of "comm-domain scopes materialized" on one module.
inline bool verify_module(::mlir::ModuleOp m) {
  const ::mlir::SymbolTable symbols(m);
  return report(m, verify(m, traits{&symbols}));
}

} // namespace commscope::pld
