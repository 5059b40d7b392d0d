// The entry points of the companion pass's analysis (docs/semantics.md, "The companion
// pass: signal synthesis"): every signal-less host allreduce, where its bindings go and its
// fresh suffix N, or the errors that keep the program from being rewritten. The result is
// a signal plan (signal_plan.hpp); the finder is detail/signals.hpp.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/signals.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/signal_plan.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace commscope {

/// Finds every signal-less allreduce of every host orchestrator of `p` and chooses its
/// fresh suffix; changes nothing. Check `ok()` before `synthesize`.
template <class Program, class Traits>
[[nodiscard]] constexpr auto plan_signals(const Program& p, const Traits& traits) {
  if constexpr (!signal_analyzable_ir<Traits>) {
    diagnose_signals<Traits, false>();
    return signal_plan<signal_plan_traits<Traits>>{};
  } else {
    const detail::adapter<Traits> a(traits);
    signal_plan<Traits> result;
    std::uint64_t order = 0;
    detail::signal_finder<Traits> finder(a, result, order);
    for (auto&& f : a.functions(p))
      if (a.describe(f).is_host_orchestrator())
        finder.run(f);
    detail::sort_diagnostics(result.diagnostics);
    if (!result.ok() || result.sites.empty())
      return result;
    // Fresh suffixes: the counter skips every N one of whose names is taken. It never
    // passes sites + taken names, so suffixes beyond that need no record.
    // One pass over the names in use keeps the suffixes of those that look synthesized.
    detail::vec<std::uint64_t> suffixes;
    std::size_t taken_names = 0;
    for (auto&& name : a.names_in_use(p)) {
      const std::string_view n(name);
      if (!n.starts_with(detail::signal_prefix))
        continue;
      ++taken_names;
      if (const std::int64_t k = detail::signal_suffix(n); k >= 0)
        suffixes.push_back(static_cast<std::uint64_t>(k));
    }
    const std::size_t bound = result.sites.size() + taken_names;
    detail::vec<std::uint8_t> taken(bound, 0);
    for (const auto k : suffixes)
      if (k < bound)
        taken[static_cast<std::size_t>(k)] = 1;
    std::uint64_t next = 0;
    for (auto& site : result.sites) {
      while (taken[static_cast<std::size_t>(next)])
        ++next;
      site.index = next++;
    }
    return result;
  }
}

/// `plan_signals(p, ir_traits<Program>{})`.
template <class Program> [[nodiscard]] constexpr auto plan_signals(const Program& p) {
  using Traits = ir_traits<Program>;
  if constexpr (!signal_analyzable_ir<Traits>) {
    diagnose_signals<Traits, false>();
    return signal_plan<signal_plan_traits<Traits>>{};
  } else if constexpr (!default_constructible_traits<Traits>) {
    diagnose_default_traits<Traits>();
    return signal_plan<Traits>{};
  } else {
    return plan_signals(p, Traits{});
  }
}

} // namespace commscope
