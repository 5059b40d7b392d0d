// Codes have stable spellings; messages name their subject.
#include <commscope/diagnostics.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

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
  auto d = commscope::diagnostic<int>::make(commscope::error_code::device_out_of_range,
                                            commscope::reason::none, "chip_orch", 0, 0);
  d.with_device(5000000).with_limit(1048576);
  CHECK(d.message() ==
        "the dispatch of 'chip_orch' uses device 5000000, at or above the device limit 1048576");
  CHECK(d.message("99999999999999999999") ==
        "the dispatch of 'chip_orch' uses device 99999999999999999999, at or above the device "
        "limit 1048576");

  auto a = commscope::diagnostic<int>::make(commscope::error_code::malformed_op,
                                            commscope::reason::wrong_arity, "allreduce", 0, 0);
  a.with_arity(1, 2);
  CHECK(a.message() == "operation 'allreduce' takes 2 positional arguments, got 1");
  a.with_arity(2, 1);
  CHECK(a.message() == "operation 'allreduce' takes 1 positional argument, got 2");
  CHECK(a.help() == commscope::reason_row(commscope::reason::wrong_arity).help);

  // The code's message without the reason's cause, for a tool that says it its own way.
  const auto u = commscope::diagnostic<int>::make(commscope::error_code::unsupported_device,
                                                  commscope::reason::device_variable, "chip", 0, 0);
  CHECK(u.code_message() == "cannot infer the devices of the dispatch of 'chip' from its "
                            "device= expression");
  CHECK(u.message().starts_with(u.code_message() + ": the variable may hold"));

  auto m = commscope::diagnostic<int>::make(commscope::error_code::verify,
                                            commscope::reason::missing_devices, "a", 0, 0);
  m.with_object("comm_d0").with_missing_devices(3, 0);
  CHECK(m.message() == "scope 'comm_d0' lacks devices the program uses for allocation 'a': 3");
  m.with_missing_devices(3, 4);
  CHECK(m.message() ==
        "scope 'comm_d0' lacks devices the program uses for allocation 'a': 3 and 4 more");

  auto w = commscope::diagnostic<int>::make(commscope::error_code::collective_aliased_windows,
                                            commscope::reason::none, "allgather", 0, 0);
  w.with_arguments(0, 1).with_object("buf");
  CHECK(w.message() ==
        "the input and the target of collective 'allgather' are views of the same allocation "
        "'buf'");
  const commscope::note<int> n{commscope::note_kind::aliased_view, "target", 0};
  CHECK(n.message() == "the target is a view of it taken here");
}

namespace {
/// Whether every {field} of a pattern is one the formatter knows, in a form it knows.
bool fields_known(std::string_view pattern) {
  static constexpr std::string_view names[] = {
      "subject", "object", "device", "limit", "depth", "arity", "expected_arity",
      "argument", "other_argument", "more"};
  for (auto open = pattern.find('{'); open != std::string_view::npos;
       open = pattern.find('{', open + 1)) {
    const auto close = pattern.find('}', open);
    if (close == std::string_view::npos)
      return false;
    auto field = pattern.substr(open + 1, close - open - 1);
    std::string_view form;
    if (const auto colon = field.find(':'); colon != std::string_view::npos) {
      form = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    bool known = false;
    for (const auto name : names)
      known = known || field == name;
    if (!known || !(form.empty() || form == "as_is" || form == "s" || form == "role" ||
                     form == "and"))
      return false;
  }
  return std::count(pattern.begin(), pattern.end(), '{') ==
         std::count(pattern.begin(), pattern.end(), '}');
}

/// Whether a text of the library names a command-line flag of a tool (`-D NAME=INT`,
/// `--inline`): the library's texts are generic, tools add their own context.
bool names_a_flag(std::string_view text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i)
    if (text[i] == '-' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '(') &&
        (text[i + 1] == '-' || (text[i + 1] >= 'A' && text[i + 1] <= 'Z') ||
         (text[i + 1] >= 'a' && text[i + 1] <= 'z')))
      return true;
  return false;
}
} // namespace

TEST_CASE("every code and every reason has its message and help in the one table") {
  for (const auto& c : commscope::error_codes) {
    CAPTURE(c.name);
    CHECK(!c.name.empty());
    CHECK(!c.summary.empty());
    CHECK(!c.description.empty());
    CHECK(!c.help.empty());
    CHECK(!c.message.empty());
    CHECK(fields_known(c.message));
    for (const auto text : {c.summary, c.description, c.help, c.message})
      CHECK_FALSE(names_a_flag(text));
  }
  for (std::size_t k = 1; k < commscope::reasons.size(); ++k) {
    const auto why = static_cast<commscope::reason>(k);
    const auto& r = commscope::reason_row(why);
    CAPTURE(k);
    CHECK(!r.message.empty());
    CHECK(!r.help.empty());
    CHECK(fields_known(r.message));
    CHECK_FALSE(names_a_flag(r.message));
    CHECK_FALSE(names_a_flag(r.help));
    CHECK(commscope::detail::message_pattern(r.code, why) == r.message);
  }
  CHECK(commscope::reason_row(commscope::reason::uncovered_devices).code ==
        commscope::error_code::verify);
  for (const auto pattern : commscope::note_messages) {
    CHECK(!pattern.empty());
    CHECK(fields_known(pattern));
    CHECK_FALSE(names_a_flag(pattern));
  }
  CHECK(names_a_flag("bind it with -D NAME=INT"));
  CHECK(names_a_flag("(--inline)"));
  CHECK_FALSE(names_a_flag("world_size() - C"));
}

TEST_CASE("one order: by position, code, the reason's rank, subject") {
  using commscope::error_code;
  using commscope::reason;
  using D = commscope::diagnostic<int>;
  std::vector<D> v;
  v.push_back(D::make(error_code::verify, reason::unsorted_devices, "comm_d0", 0, 5));
  v.push_back(D::make(error_code::verify, reason::empty_scope, "comm_d0", 0, 5));
  v.push_back(D::make(error_code::verify, reason::null_slot, "comm_d0", 0, 5));
  v.push_back(D::make(error_code::verify, reason::slot_in_two_scopes, "w", 0, 5));
  v.push_back(D::make(error_code::dead_alloc, reason::none, "b", 0, 2));
  v.push_back(D::make(error_code::dead_alloc, reason::none, "a", 0, 2));
  commscope::detail::sort_diagnostics(v);
  CHECK(v[0].subject == "a");
  CHECK(v[1].subject == "b");
  CHECK(v[2].why == reason::slot_in_two_scopes);
  CHECK(v[3].why == reason::null_slot);
  CHECK(v[4].why == reason::empty_scope);
  CHECK(v[5].why == reason::unsorted_devices);
}
