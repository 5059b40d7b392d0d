// The library against the archetype: a traits class with exactly the required members of
// every layer. Every entry point compiles and runs over it, so no algorithm asks an adapter
// for more than the contract declares; its results over a program of nothing are empty.
#include <commscope/commscope.hpp>

#include <doctest/doctest.h>

#include <type_traits>

using commscope::contract::archetype;

static_assert(commscope::analyzable_ir<archetype>);
static_assert(commscope::reads_scopes<archetype>);
static_assert(commscope::materializable_ir<archetype>);
static_assert(commscope::signal_synthesizable_ir<archetype>);
static_assert(commscope::default_constructible_traits<archetype>);
// It gives no optional member: the defaults are what runs.
static_assert(!commscope::provides<archetype, commscope::contract::control_of>);
static_assert(!commscope::provides<archetype, commscope::contract::subexpressions>);
static_assert(!commscope::provides<archetype, commscope::contract::flow_of>);
static_assert(!commscope::provides<archetype, commscope::contract::variable_index>);
// Handles of the archetype are distinct types: a mix-up does not compile.
static_assert(!std::is_same_v<archetype::statement, archetype::expression>);

// The stand-in keeps the handle types an adapter gives well.
struct only_handles {
  using program = int;
  using function = const char*;
  using statement = long;
  using expression = short;
  using variable = unsigned;
  using location = double;
};
using stand_in = commscope::contract::stand_in<only_handles>;
static_assert(std::is_same_v<stand_in::statement, long>);
static_assert(std::is_same_v<stand_in::location, double>);
static_assert(std::is_same_v<stand_in::window_buffer, archetype::window_buffer>);
static_assert(commscope::materializable_ir<stand_in>);
static_assert(std::is_same_v<commscope::plan_traits<only_handles>, stand_in>);
static_assert(std::is_same_v<commscope::plan_traits<archetype>, archetype>);

TEST_CASE("every entry point runs over the archetype") {
  archetype::program p;
  const archetype traits;
  const auto pl = commscope::analyze(p, traits);
  CHECK(pl.ok());
  CHECK(pl.functions.empty());
  CHECK(commscope::materialize(p, pl, traits) == commscope::rewrite_result::unchanged);
  CHECK(commscope::run(p, traits).empty());
  CHECK(commscope::verify(p, traits).empty());
  const auto signals = commscope::plan_signals(p, traits);
  CHECK(signals.ok());
  CHECK(commscope::synthesize(p, signals, traits) == commscope::rewrite_result::unchanged);
  CHECK(commscope::synthesize_signals(p, traits).empty());
  CHECK(commscope::run(p, traits, commscope::with_signal_synthesis).empty());
}
