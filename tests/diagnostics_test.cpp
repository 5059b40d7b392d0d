// Codes have stable spellings; messages name their subject.
#include <commscope/diagnostics.hpp>

#include <doctest/doctest.h>

#include <string>

TEST_CASE("every code has its documented spelling") {
  using commscope::error_code;
  CHECK(commscope::code_name(error_code::dead_alloc) == "dead-alloc");
  CHECK(commscope::code_name(error_code::unconsumed_alloc) == "unconsumed-alloc");
  CHECK(commscope::code_name(error_code::empty_coverage) == "empty-coverage");
  CHECK(commscope::code_name(error_code::unsupported_device) == "unsupported-device");
  CHECK(commscope::code_name(error_code::negative_device) == "negative-device");
  CHECK(commscope::code_name(error_code::device_out_of_range) == "device-out-of-range");
  CHECK(commscope::code_name(error_code::partial_world_range) == "partial-world-range");
  CHECK(commscope::code_name(error_code::duplicate_name) == "duplicate-name");
  CHECK(commscope::code_name(error_code::malformed_op) == "malformed-op");
  CHECK(commscope::code_name(error_code::collective_arg_not_window) ==
        "collective-arg-not-window");
  CHECK(commscope::code_name(error_code::uncovered_collective) == "uncovered-collective");
  CHECK(commscope::code_name(error_code::barrier_no_coverage) == "barrier-no-coverage");
  CHECK(commscope::code_name(error_code::collective_in_loop) == "collective-in-loop");
  CHECK(commscope::code_name(error_code::verify) == "verify");
}

TEST_CASE("messages name the allocation, callee or operation and the numbers") {
  commscope::diagnostic<int> d{};
  d.code = commscope::error_code::device_out_of_range;
  d.subject = "chip_orch";
  d.number = 5000000;
  d.extra = 1048576;
  const std::string m = d.message();
  CHECK(m.find("'chip_orch'") != std::string::npos);
  CHECK(m.find("5000000") != std::string::npos);
  CHECK(m.find("1048576") != std::string::npos);

  commscope::diagnostic<int> a{};
  a.code = commscope::error_code::malformed_op;
  a.why = commscope::reason::wrong_arity;
  a.subject = "allreduce";
  a.number = 1;
  a.extra = 2;
  CHECK(a.message() == "operation 'allreduce' takes 2 positional arguments, got 1");
}
