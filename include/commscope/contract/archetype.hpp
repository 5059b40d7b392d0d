// The archetype: a traits class with exactly the required members of every layer, derived
// from their declarations, returning value-initialized results. The library is compiled
// against it (tests/contract/archetype_test.cpp), so an algorithm that asks an adapter for
// more than the contract states does not compile. After an unmet requirement the entry
// points return their results over `stand_in<T>`: the archetype with T's own handle types
// where T has them, so that the caller's code goes on compiling against a real plan and
// the contract's message stays the only error.
#pragma once

#include <commscope/contract/core.hpp>
#include <commscope/contract/readers.hpp>
#include <commscope/contract/rewrite.hpp>
#include <commscope/contract/signals.hpp>

#include <cstdint>
#include <type_traits>

namespace commscope::contract {

/// Every record of every layer.
using every_record =
    join<analysis_core, scope_readers, rewrite_hooks, signal_analysis, signal_rewrite>;

/// The archetype's own handle types: distinct, ordered, hashable, value-initializable.
struct archetype_handles {
  struct program {};
  enum class function : std::uint32_t {};
  enum class statement : std::uint32_t {};
  enum class expression : std::uint32_t {};
  enum class variable : std::uint32_t {};
  enum class location : std::uint32_t {};
  enum class window_buffer : std::uint32_t {};
};

/// The members of the list, over handles H, for the traits class F.
template <class H, class F, class List> struct archetype_members;
template <class H, class F, class... R>
struct archetype_members<H, F, records<R...>> : R::template archetype_member<H, F>... {};

/// The handle types of H, chosen over the names the members' declarations use.
#define COMMSCOPE_CONTRACT_HANDLES_OF(H)                                                           \
  using typename H::program;                                                                       \
  using typename H::function;                                                                      \
  using typename H::statement;                                                                     \
  using typename H::expression;                                                                    \
  using typename H::variable;                                                                      \
  using typename H::location;                                                                      \
  using typename H::window_buffer

/// The archetype.
struct archetype : archetype_handles,
                   archetype_members<archetype_handles, archetype, every_record> {
  COMMSCOPE_CONTRACT_HANDLES_OF(archetype_handles);
};

/// T's handle type where T gives it well, else the archetype's.
template <class T> struct stand_in_handles {
  template <class Record, class Given, class Otherwise>
  using pick = std::conditional_t<Record::template given<T>, Given, Otherwise>;
  using h = archetype_handles;
  using program = pick<contract::program, typename names<T>::program, h::program>;
  using function = pick<contract::function, typename names<T>::function, h::function>;
  using statement = pick<contract::statement, typename names<T>::statement, h::statement>;
  using expression = pick<contract::expression, typename names<T>::expression, h::expression>;
  using variable = pick<contract::variable, typename names<T>::variable, h::variable>;
  using location = pick<contract::location, typename names<T>::location, h::location>;
  using window_buffer =
      pick<contract::window_buffer, typename names<T>::window_buffer, h::window_buffer>;
};

/// The archetype over T's handles (for T without a specialization, the archetype).
template <class T>
struct stand_in : stand_in_handles<T>,
                  archetype_members<stand_in_handles<T>, stand_in<T>, every_record> {
  COMMSCOPE_CONTRACT_HANDLES_OF(stand_in_handles<T>);
};

/// T where it meets Needs, else its stand-in: the traits of an entry point's result.
template <class T, class Needs>
using checked =
    std::conditional_t<all_hold<T, Needs>, T,
                       std::conditional_t<specialization::holds<T>, stand_in<T>, archetype>>;

} // namespace commscope::contract
