// The compile-time half of the table: the compiler runs the pass on every program of
// cases.hpp and compares the plan with its expectation. Building this file is the test;
// a wrong expectation is a compile error naming what differs.
#include "cases.hpp"

#include <commscope/compile_time/expect.hpp>
#include <commscope/plan_signals.hpp>

#include <doctest/doctest.h>

#include <array>
#include <iterator>
#include <type_traits>

namespace {

using namespace commscope::compile_time;

template <const auto&... Cases> constexpr bool all_match(ct_cases::table<Cases...>) {
  return (report<check(Cases.program, Cases.expected)>::value && ...);
}
static_assert(all_match(ct_cases::all{}));
static_assert(all_match(ct_cases::rebinding{}));
static_assert(all_match(ct_cases::rebinding_without_renaming{}));
static_assert(all_match(ct_cases::alternatives{}));
static_assert(all_match(ct_cases::partial_world{}));

/// The symbolic table through the compile-time traits with symbolic device sets.
template <const auto&... Cases> constexpr bool all_match_symbolic(ct_cases::table<Cases...>) {
  return (report<check(
              Cases.program, Cases.expected,
              symbolic_traits<std::remove_cvref_t<decltype(Cases.program)>::capacity>{})>::value &&
          ...);
}
static_assert(all_match_symbolic(ct_cases::symbolic{}));
/// The expectation text of a symbolic set is matched exactly: a wrong id, step, offset or
/// trailing text is a mismatch.
constexpr commscope::device_set zero_and_odd_ranks() {
  auto s = commscope::device_set::single(0);
  s.join(commscope::device_set::progression({1, 2, 1}));
  return s;
}
static_assert(commscope::detail::compare_devices(zero_and_odd_ranks(), "0,range(1,ws-1,2)") ==
              mismatch::none);
static_assert(commscope::detail::compare_devices(zero_and_odd_ranks(), "0,range(1,ws-1)") ==
              mismatch::domain_devices);
static_assert(commscope::detail::compare_devices(zero_and_odd_ranks(), "0,range(1,ws,2)") ==
              mismatch::domain_devices);
static_assert(commscope::detail::compare_devices(zero_and_odd_ranks(), "1,range(1,ws-1,2)") ==
              mismatch::domain_devices);
static_assert(commscope::detail::compare_devices(zero_and_odd_ranks(), "0,range(1,ws-1,2),") ==
              mismatch::domain_devices);
static_assert(commscope::detail::compare_devices(zero_and_odd_ranks(), "0,range(10,ws-1,2)") ==
              mismatch::domain_devices);
static_assert(commscope::detail::compare_devices(commscope::device_set::single(0), "range(0,ws)") ==
              mismatch::domain_devices);
static_assert(commscope::contract::symbolic_device_sets::of<symbolic_traits<
                  std::remove_cvref_t<decltype(ct_cases::symbolic_start.program)>::capacity>>());

/// The compile-time adapter is the analysis core alone (traits.hpp, layer 1): no scope
/// readers, no rewrite hooks, and the pass runs on it all the same.
using ct_traits =
    commscope::ir_traits<std::remove_cvref_t<decltype(ct_cases::constant_device.program)>>;
static_assert(commscope::analyzable_ir<ct_traits>);
static_assert(!commscope::reads_scopes<ct_traits> && !commscope::rewrites<ct_traits>);
static_assert(!commscope::contract::symbolic_device_sets::of<ct_traits>());

/// The pass also runs through a constexpr traits object.
constexpr ct_traits ct_object{};
static_assert(commscope::analyze(ct_cases::world_loop.program, ct_object).ok());

// ---- signal synthesis: its analysis runs in the compiler (docs/semantics.md, "The
// companion pass: signal synthesis")

using commscope::operation;
using ct_cases::buffer;
using ct_cases::host;
using ct_cases::run_on;
using ct_cases::view;

/// The codes of a signal plan's diagnostics, in order, against `expected`.
template <std::size_t K>
constexpr bool signal_codes(const auto& pl, const std::array<std::string_view, K>& expected) {
  if (pl.diagnostics.size() != K)
    return false;
  for (std::size_t i = 0; i < K; ++i)
    if (commscope::code_name(pl.diagnostics[i].code) != expected[i])
      return false;
  return true;
}

constexpr auto signal_less =
    host(buffer(), view(), run_on(0), let<"data">(malformed<operation::allreduce>(use<"data">)),
         eval(malformed<operation::allreduce>(use<"data">)));
static_assert(commscope::plan_signals(signal_less, ct_object).ok());
static_assert(commscope::plan_signals(signal_less, ct_object).sites.size() == 2);
static_assert(commscope::plan_signals(signal_less, ct_object).sites[1].index == 1);
static_assert(commscope::plan_signals(signal_less, ct_object).sites[0].cores == 1);

/// A name of the program that a suffix would produce is skipped: N = 0 and 2 are taken.
constexpr auto names_taken = host(
    buffer(), view(), run_on(0), let<"__allreduce_signal_0">(0), let<"__allreduce_signal_buf_2">(0),
    let<"__allreduce_signal_world_size_01">(0), // not a suffix the counter writes
    eval(malformed<operation::allreduce>(use<"data">)),
    eval(malformed<operation::allreduce>(use<"data">)),
    eval(malformed<operation::allreduce>(use<"data">)));
static_assert(commscope::plan_signals(names_taken, ct_object).sites[0].index == 1);
static_assert(commscope::plan_signals(names_taken, ct_object).sites[1].index == 3);
static_assert(commscope::plan_signals(names_taken, ct_object).sites[2].index == 4);

/// With their signals written, nothing is left to synthesize: the pass is idempotent.
static_assert(commscope::plan_signals(ct_cases::allreduce_inherits.program, ct_object).ok());
static_assert(
    commscope::plan_signals(ct_cases::allreduce_inherits.program, ct_object).sites.empty());

constexpr auto synthesis_errors =
    host(buffer(), view(), run_on(0),
         for_range<"r">(2)(eval(malformed<operation::allreduce>(use<"data">))), // in a loop
         eval(opaque(malformed<operation::allreduce>(use<"data">))),            // nested
         eval(malformed<operation::allreduce>()),                               // no data
         eval(malformed<operation::allreduce>(use<"data">, use<"data">, use<"data">)));
static_assert(signal_codes(commscope::plan_signals(synthesis_errors, ct_object),
                           std::array<std::string_view, 4>{"collective-in-loop", "malformed-op",
                                                           "malformed-op", "malformed-op"}));
static_assert(commscope::plan_signals(synthesis_errors, ct_object).sites.empty());

/// Every error code of the pass (all but the verifier's, and the nesting limit that
/// the compile-time IR does not declare) is expected by some case.
constexpr bool every_code_covered() {
  std::array<bool, commscope::error_code_names.size()> seen{};
  ct_cases::all::for_each([&](const auto& c) {
    // Up to the first empty entry only: g++ 12 rejects reading the defaulted tail of a
    // constexpr array of string_views ("modification of ... is not a constant expression").
    for (std::size_t i = 0;
         i < std::size(c.expected.diagnostics) && !c.expected.diagnostics[i].empty(); ++i)
      for (std::size_t k = 0; k < seen.size(); ++k)
        if (commscope::code_name(static_cast<commscope::error_code>(k)) ==
            c.expected.diagnostics[i])
          seen[k] = true;
  });
  for (std::size_t k = 0; k < seen.size(); ++k)
    if (!seen[k] && static_cast<commscope::error_code>(k) != commscope::error_code::verify &&
        static_cast<commscope::error_code>(k) != commscope::error_code::scope_nesting_limit)
      return false;
  return true;
}
static_assert(every_code_covered(), "a pass error code has no case in cases.hpp");

} // namespace

TEST_CASE("the compile-time table holds every case, checked when this file compiled") {
  CHECK(ct_cases::all::size >= 40);
}

TEST_CASE("the compile-time IR gives the same plans at run time") {
  ct_cases::all::for_each([](const auto& c) {
    const verdict v = check(c.program, c.expected);
    INFO(c.name);
    CHECK_MESSAGE(v.ok(), describe(v.what), " (index ", v.index, ")");
  });
}
