// What each entry point needs, as lists of the layers' records, and the functions the
// entry points call first: each static_asserts the message of the first record that does
// not hold, and nothing else, so that an incomplete adapter gets one short error naming
// the member to add instead of a page of template errors. The entry points do not put
// these concepts in a requires-clause, which would turn the message into "no matching
// function"; they return their results over the stand-in (archetype.hpp) instead.
#pragma once

#include <commscope/contract/archetype.hpp>

#include <concepts>
#include <type_traits>

namespace commscope {

namespace contract {
/// `analyze`: the core, and the scope readers all or none.
using analysis_needs = join<analysis_core, records<scope_readers_all_or_none>>;
/// `verify`.
using verification_needs = join<analysis_needs, scope_readers>;
/// `materialize`, `run`.
using rewrite_needs = join<analysis_needs, rewrite_hooks>;
/// `plan_signals`.
using signal_analysis_needs = join<analysis_needs, signal_analysis>;
/// `synthesize_signals`.
using signal_synthesis_needs = join<signal_analysis_needs, signal_rewrite>;
} // namespace contract

/// Everything `analyze` needs.
template <class T>
concept analyzable_ir = contract::all_hold<T, contract::analysis_needs>;
/// The scope readers (`verify` needs them on top of analyzable_ir).
template <class T>
concept reads_scopes = contract::all_hold<T, contract::scope_readers>;
/// The rewrite hooks (`materialize` needs them on top of analyzable_ir).
template <class T>
concept rewrites = contract::all_hold<T, contract::rewrite_hooks>;
/// Everything `run` (analysis plus rewrite) needs.
template <class T>
concept materializable_ir = analyzable_ir<T> && rewrites<T>;
/// Everything `plan_signals` needs.
template <class T>
concept signal_analyzable_ir = contract::all_hold<T, contract::signal_analysis_needs>;
/// Everything `synthesize_signals` needs.
template <class T>
concept signal_synthesizable_ir = contract::all_hold<T, contract::signal_synthesis_needs>;

/// The British spellings of the previous release, kept for one release.
template <class T>
concept analysable_ir = analyzable_ir<T>;
template <class T>
concept signal_analysable_ir = signal_analyzable_ir<T>;

/// The traits of `analyze`'s plan for T: T, or after an unmet requirement its stand-in.
template <class T> using plan_traits = contract::checked<T, contract::analysis_needs>;
/// The same for signal synthesis' plan.
template <class T> using signal_plan_traits = contract::checked<T, contract::signal_analysis_needs>;

/// Called first by `analyze`.
template <class T> constexpr void diagnose_analysis() {
  contract::diagnose_first<T>(contract::analysis_needs{});
}
/// Called first by `verify`.
template <class T> constexpr void diagnose_readers() {
  contract::diagnose_first<T>(contract::verification_needs{});
}
/// Called first by `materialize` and `run`.
template <class T> constexpr void diagnose_rewrite() {
  contract::diagnose_first<T>(contract::rewrite_needs{});
}
/// Called first by the signal-synthesis entry points (its rewrite hook only when
/// `Rewrite`).
template <class T, bool Rewrite> constexpr void diagnose_signals() {
  if constexpr (Rewrite)
    contract::diagnose_first<T>(contract::signal_synthesis_needs{});
  else
    contract::diagnose_first<T>(contract::signal_analysis_needs{});
}

/// The one-argument entry points default-construct `ir_traits<Program>`: only for a
/// traits class without state, or one that says its default state works
/// (`usable_by_default`: an optional cache). One that holds its module (an index IR's
/// traits) would read through a null module.
template <class T>
concept default_constructible_traits = std::default_initializable<T> &&
    (std::is_empty_v<T> || contract::usable_by_default::of<T>());

/// Called by the one-argument entry points, after the layers they need are diagnosed.
template <class T> constexpr void diagnose_default_traits() {
  if constexpr (!default_constructible_traits<T>)
    static_assert(detail::always_false<T>,
                  "commscope: this ir_traits specialization holds state (a module, a table), so "
                  "the library cannot make one (unless it says `static constexpr bool "
                  "usable_by_default = true`): pass the traits object, as in "
                  "analyze(program, traits), materialize(program, plan, traits), "
                  "run(program, traits), verify(program, traits), "
                  "synthesize_signals(program, traits)");
}

} // namespace commscope
