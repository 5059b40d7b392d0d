// The run-time half of the table: every program of cases.hpp, rebuilt in the reference
// IR, gives the plan its expectation describes, with the same verdict function the
// compiler ran (expect.hpp). The two IRs also agree on what each diagnostic says.
#include "cases.hpp"
#include "to_reference.hpp"

#include <commscope/commscope.hpp>
#include <commscope/compile_time/expect.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <string>
#include <type_traits>

using namespace commscope::compile_time;

TEST_CASE("every case of the compile-time table holds at run time in the reference IR") {
  std::size_t checked = 0;
  ct_cases::all::for_each([&](const auto& c) {
    INFO(c.name);
    const auto program = ct_cases::to_reference(c.program);
    const verdict v = check(program, c.expected);
    CHECK_MESSAGE(v.ok(), describe(v.what), " (index ", v.index, ")");
    ++checked;
  });
  CHECK(checked == ct_cases::all::size);
}

TEST_CASE("the rebinding and control-flow cases hold in the reference IR") {
  const auto run = [](const auto& c) {
    INFO(c.name);
    const auto program = ct_cases::to_reference(c.program);
    const verdict v = check(program, c.expected);
    CHECK_MESSAGE(v.ok(), describe(v.what), " (index ", v.index, ")");
  };
  ct_cases::rebinding::for_each(run);
  ct_cases::rebinding_without_renaming::for_each(run);
  ct_cases::alternatives::for_each(run);
}

TEST_CASE("the reference IR has symbolic device sets: the symbolic cases hold there") {
  static_assert(commscope::contract::symbolic_device_sets::of<
                commscope::ir_traits<commscope::reference::program_ptr>>());
  std::size_t checked = 0;
  ct_cases::symbolic::for_each([&](const auto& c) {
    INFO(c.name);
    const auto program = ct_cases::to_reference(c.program);
    const verdict v = check(program, c.expected);
    CHECK_MESSAGE(v.ok(), describe(v.what), " (index ", v.index, ")");
    ++checked;
  });
  CHECK(checked == ct_cases::symbolic::size);
}

TEST_CASE("both IRs report the same diagnostics, word for word") {
  // Both with symbolic device sets, which select some messages (partial-world-range).
  ct_cases::all::for_each([](const auto& c) {
    INFO(c.name);
    using program_type = std::remove_cvref_t<decltype(c.program)>;
    const auto ct_plan = commscope::analyze(
        c.program, commscope::compile_time::symbolic_traits<program_type::capacity>{});
    const auto program = ct_cases::to_reference(c.program); // the plan points into it
    const auto ref_plan = commscope::analyze(program);
    REQUIRE(ct_plan.diagnostics.size() == ref_plan.diagnostics.size());
    for (std::size_t i = 0; i < ct_plan.diagnostics.size(); ++i) {
      const auto& a = ct_plan.diagnostics[i];
      const auto& b = ref_plan.diagnostics[i];
      CHECK(a.code == b.code);
      CHECK(a.why == b.why);
      CHECK(a.subject == b.subject);
      CHECK(a.object == b.object);
      CHECK(a.device == b.device);
      CHECK(a.limit == b.limit);
      CHECK(a.depth == b.depth);
      CHECK(a.arity == b.arity);
      CHECK(a.expected_arity == b.expected_arity);
      CHECK(a.argument == b.argument);
      CHECK(a.other_argument == b.other_argument);
      CHECK(a.more == b.more);
      CHECK(a.message() == b.message());
    }
    REQUIRE(ct_plan.functions.size() == ref_plan.functions.size());
    for (std::size_t f = 0; f < ct_plan.functions.size(); ++f) {
      CHECK(ct_plan.functions[f].name == ref_plan.functions[f].name);
      CHECK(static_cast<int>(ct_plan.functions[f].status) ==
            static_cast<int>(ref_plan.functions[f].status));
      CHECK(ct_plan.functions[f].allocations.size() == ref_plan.functions[f].allocations.size());
    }
  });
}

TEST_CASE("a wrong expectation is caught at run time too") {
  expectation wrong = ct_cases::constant_device.expected;
  wrong.domains[0].devices = "4";
  const verdict v = check(ct_cases::to_reference(ct_cases::constant_device.program), wrong);
  CHECK(v.what == mismatch::domain_devices);
  CHECK(v.index == 0);
  CHECK(describe(v.what) == "the devices of a domain differ from the expectation");
}
