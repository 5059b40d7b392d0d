// The result of the companion pass's analysis (`plan_signals`, plan_signals.hpp): a value
// the caller inspects before `synthesize` (synthesize.hpp). Like the plan (plan.hpp) it
// holds IR handles, so it lives no longer than the IR it describes unchanged.
#pragma once

#include <commscope/diagnostics.hpp>

#include <cstdint>
#include <vector>

namespace commscope {

/// One allreduce that gets a synthesized signal.
template <class Traits> struct signal_site {
  typename Traits::function function{};
  typename Traits::statement statement{}; ///< the bindings go immediately before it
  typename Traits::expression call{};
  typename Traits::location where{};
  std::int64_t cores = 1;
  std::uint64_t index = 0; ///< N
};

/// The result of `plan_signals`: the sites in source order, or the reasons not to rewrite.
template <class Traits> struct signal_plan {
  std::vector<signal_site<Traits>> sites;
  std::vector<diagnostic<typename Traits::location>> diagnostics;

  [[nodiscard]] constexpr bool ok() const { return diagnostics.empty(); }
};

} // namespace commscope
