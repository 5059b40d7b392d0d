// The whole pass (docs/semantics.md): analyze, then materialize when there is nothing to
// report. The pipeline with signal synthesis first is `run(p, traits,
// with_signal_synthesis)` (synthesize.hpp).
#pragma once

#include <commscope/analyze.hpp>
#include <commscope/materialize.hpp>
#include <commscope/plan.hpp>
#include <commscope/traits.hpp>

#include <utility>
#include <vector>

namespace commscope {

/// The whole pass: analyze, and materialize when there is nothing to report. Returns the
/// diagnostics (empty on success). The plan itself is not returned: it describes the
/// program before the rewrite, whose nodes an IR rebuilt on rewrite may have released;
/// call analyze and materialize yourself to inspect it.
template <class Program, class Traits> constexpr auto run(Program& p, const Traits& traits) {
  if constexpr (!materializable_ir<Traits>) {
    diagnose_rewrite<Traits>();
    return diagnostics_of<Traits, contract::rewrite_needs>{};
  } else {
    auto pl = analyze(p, traits);
    materialize(p, pl, traits);
    return std::move(pl.diagnostics);
  }
}

/// `run(p, ir_traits<Program>{})`.
template <class Program> constexpr auto run(Program& p) {
  using Traits = ir_traits<Program>;
  if constexpr (!materializable_ir<Traits>) {
    diagnose_rewrite<Traits>();
    return diagnostics_of<Traits, contract::rewrite_needs>{};
  } else if constexpr (!default_constructible_traits<Traits>) {
    diagnose_default_traits<Traits>();
    return diagnostics_of<Traits, contract::rewrite_needs>{};
  } else {
    return run(p, Traits{});
  }
}

} // namespace commscope
