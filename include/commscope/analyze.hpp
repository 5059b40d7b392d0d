// The analysis entry points: steps 1-6 and 9 of docs/semantics.md for every host
// orchestrator, all errors in source order, nothing in the IR touched. The result is a
// plan (plan.hpp).
#pragma once

#include <commscope/detail/function_analysis.hpp>

namespace commscope {

/// Analyzes every host orchestrator of `p` (docs/semantics.md, steps 1-6 and 9) without
/// changing anything, through the traits object `traits`. Check `plan.ok()` before
/// `materialize`.
template <class Program, class Traits>
[[nodiscard]] constexpr auto analyze(const Program& p, const Traits& traits) {
  return detail::analyze_program<false>(p, traits);
}

/// The same, recording in each function plan the evidence of every allocation's
/// descriptor (plan.hpp, `evidence`).
template <class Program, class Traits>
[[nodiscard]] constexpr auto analyze(const Program& p, const Traits& traits, with_evidence_t) {
  return detail::analyze_program<true>(p, traits);
}

/// `analyze(p, ir_traits<Program>{})`.
template <class Program> [[nodiscard]] constexpr auto analyze(const Program& p) {
  using Traits = ir_traits<Program>;
  if constexpr (!analyzable_ir<Traits>) {
    diagnose_analysis<Traits>();
    return plan<plan_traits<Traits>>{};
  } else if constexpr (!default_constructible_traits<Traits>) {
    diagnose_default_traits<Traits>();
    return plan<Traits>{};
  } else {
    return analyze(p, Traits{});
  }
}

} // namespace commscope
