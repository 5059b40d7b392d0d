// The companion pass through the adapter's layer-4 hooks (traits.hpp), and the pipeline
// that runs it before the main pass (docs/semantics.md, "The companion pass: signal
// synthesis"). All or nothing, like the main pass: the hook is called only for a plan
// without diagnostics, which covers the whole program.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/signals.hpp>
#include <commscope/plan_signals.hpp>
#include <commscope/rewrite_result.hpp>
#include <commscope/run.hpp>
#include <commscope/signal_plan.hpp>
#include <commscope/traits.hpp>

#include <utility>
#include <vector>

namespace commscope {

/// Inserts the bindings of every site of `pl` and passes each call its signal. Returns
/// `rejected` for a plan with diagnostics, `unchanged` when there is nothing to insert.
template <class Program, class Traits>
constexpr rewrite_result synthesize(Program& p, const signal_plan<signal_plan_traits<Traits>>& pl,
                                    const Traits& traits) {
  if constexpr (!signal_synthesizable_ir<Traits>) {
    diagnose_signals<Traits, true>();
    return rewrite_result::rejected;
  } else {
    if (!pl.ok())
      return rewrite_result::rejected;
    if (pl.sites.empty())
      return rewrite_result::unchanged;
    const detail::adapter<Traits> a(traits);
    auto rw = a.begin_signals(p);
    for (const auto& site : pl.sites) {
      const detail::signal_names names(site.index);
      a.insert_signal(rw, signal_spec<Traits>{site.function, site.statement, site.call, site.where,
                                              site.cores, site.index, names.world_size(),
                                              names.buffer(), names.signal()});
    }
    a.commit_signals(rw, p);
    return rewrite_result::rewritten;
  }
}

/// The companion pass alone: plan, then synthesize when there is nothing to report.
/// Returns the diagnostics (empty on success). Running it twice changes nothing the
/// second time: every allreduce then has its signal.
template <class Program, class Traits>
constexpr auto synthesize_signals(Program& p, const Traits& traits) {
  if constexpr (!signal_synthesizable_ir<Traits>) {
    diagnose_signals<Traits, true>();
    return diagnostics_of<Traits, contract::signal_synthesis_needs>{};
  } else {
    auto pl = plan_signals(p, traits);
    synthesize(p, pl, traits);
    return std::move(pl.diagnostics);
  }
}

/// `synthesize_signals(p, ir_traits<Program>{})`.
template <class Program> constexpr auto synthesize_signals(Program& p) {
  using Traits = ir_traits<Program>;
  if constexpr (!signal_synthesizable_ir<Traits>) {
    diagnose_signals<Traits, true>();
    return diagnostics_of<Traits, contract::signal_synthesis_needs>{};
  } else if constexpr (!default_constructible_traits<Traits>) {
    diagnose_default_traits<Traits>();
    return diagnostics_of<Traits, contract::signal_synthesis_needs>{};
  } else {
    return synthesize_signals(p, Traits{});
  }
}

/// Asks `run` for the whole pipeline: signal synthesis, then the main pass.
struct with_signal_synthesis_t {
  explicit constexpr with_signal_synthesis_t() = default;
};
inline constexpr with_signal_synthesis_t with_signal_synthesis{};

/// The pipeline of the reference compiler: signal synthesis, then (for a program it
/// accepts) the main pass. A program the synthesis rejects goes no further, so no cause
/// is reported twice. Returns the diagnostics of whichever pass reported.
template <class Program, class Traits>
constexpr auto run(Program& p, const Traits& traits, with_signal_synthesis_t) {
  if constexpr (!signal_synthesizable_ir<Traits>) {
    diagnose_signals<Traits, true>();
    return diagnostics_of<Traits, contract::signal_synthesis_needs>{};
  } else if constexpr (!materializable_ir<Traits>) {
    diagnose_rewrite<Traits>();
    return diagnostics_of<Traits, contract::rewrite_needs>{};
  } else {
    auto diagnostics = synthesize_signals(p, traits);
    if (!diagnostics.empty())
      return diagnostics;
    return run(p, traits);
  }
}

} // namespace commscope
