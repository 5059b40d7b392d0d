// Expected plans as literal data, and one comparison that runs both in constant
// evaluation and at run time, on any adapter:
//
//   constexpr expectation e{.domains = {{"all", {"buf"}}}, .views = {{"data", "buf"}}};
//   static_assert(matches<p, e>);                     // the compiler runs the pass on p
//   CHECK(check(reference_program, e).ok());          // the same expectation at run time
//
// A failed `matches` names what differs in its static_assert message.
#pragma once

#include <commscope/analyze.hpp>
#include <commscope/compile_time/builder.hpp>
#include <commscope/compile_time/traits.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/plan.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace commscope::compile_time {

/// One domain: its devices ("all", or ascending ids and inclusive ranges: "0,2,5..7")
/// and its slots, the allocations' names in order.
struct domain_expectation {
  std::string_view devices;
  std::string_view slots[8]{};
};

/// A view variable and the allocation it views, by name.
struct view_expectation {
  std::string_view variable;
  std::string_view allocation;
};

/// The plan of one host orchestrator (the first, unless `function` names one) and the
/// diagnostics of the whole program, as code names ("dead-alloc", ...) in source order.
/// Lists end at their first empty entry.
struct expectation {
  domain_expectation domains[6]{};
  view_expectation views[12]{};
  std::string_view diagnostics[12]{};
  std::string_view function{};
};

enum class mismatch : std::uint8_t {
  none,
  no_such_function,
  domain_count,
  domain_devices,
  slot_count,
  slot,
  view_count,
  view,
  diagnostic_count,
  diagnostic_code,
  bad_devices_text,
};

/// The first difference between a plan and an expectation; `index` is the domain, view
/// or diagnostic concerned.
struct verdict {
  mismatch what = mismatch::none;
  std::uint32_t index = 0;
  [[nodiscard]] constexpr bool ok() const { return what == mismatch::none; }
};

[[nodiscard]] constexpr std::string_view describe(mismatch m) {
  switch (m) {
  case mismatch::none:
    return "the plan is as expected";
  case mismatch::no_such_function:
    return "the expected host orchestrator is not in the plan";
  case mismatch::domain_count:
    return "the plan has a different number of domains than expected";
  case mismatch::domain_devices:
    return "the devices of a domain differ from the expectation";
  case mismatch::slot_count:
    return "a domain has a different number of slots than expected";
  case mismatch::slot:
    return "a slot of a domain is not the expected allocation";
  case mismatch::view_count:
    return "the plan has a different number of views than expected";
  case mismatch::view:
    return "a view is not bound to the expected allocation";
  case mismatch::diagnostic_count:
    return "the plan has a different number of diagnostics than expected";
  case mismatch::diagnostic_code:
    return "a diagnostic has a different code than expected";
  case mismatch::bad_devices_text:
    return "an expected device list is not \"all\" or ascending ids and ranges like 0,2,5..7";
  }
  return "unknown mismatch";
}

/// How expectations name a view variable, for an adapter without a
/// `variable_name(variable)` member: specialize it.
template <class Traits> struct variable_names;

} // namespace commscope::compile_time

namespace commscope::detail {

using compile_time::domain_expectation;
using compile_time::mismatch;
using compile_time::view_expectation;

template <std::size_t N> constexpr std::size_t length(const std::string_view (&items)[N]) {
  std::size_t n = 0;
  while (n < N && !items[n].empty())
    ++n;
  return n;
}
constexpr std::size_t length(const view_expectation (&items)[12]) {
  std::size_t n = 0;
  while (n < 12 && !items[n].variable.empty())
    ++n;
  return n;
}
constexpr std::size_t length(const domain_expectation (&items)[6]) {
  std::size_t n = 0;
  while (n < 6 && !items[n].devices.empty())
    ++n;
  return n;
}

/// Expands "0,2,5..7" into ids; false when the text is malformed or not ascending.
constexpr bool parse_devices(std::string_view s, std::vector<device_id>& out) {
  std::size_t i = 0;
  const auto number = [&](device_id& v) {
    if (i >= s.size() || s[i] < '0' || s[i] > '9')
      return false;
    v = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      v = v * 10 + (s[i++] - '0');
    return true;
  };
  while (i < s.size()) {
    device_id lo = 0;
    if (!number(lo))
      return false;
    device_id hi = lo;
    if (s.substr(i, 2) == "..") {
      i += 2;
      if (!number(hi) || hi < lo)
        return false;
    }
    for (device_id d = lo; d <= hi; ++d) {
      if (!out.empty() && out.back() >= d)
        return false;
      out.push_back(d);
    }
    if (i < s.size() && s[i++] != ',')
      return false;
  }
  return !out.empty();
}

/// Walks an expectation's text while a set is compared with it; no string is built, so the
/// comparison runs in constant evaluation with any standard library.
struct text_cursor {
  std::string_view text;
  std::size_t at = 0;
  bool ok = true;

  constexpr void literal(std::string_view want) {
    if (ok && text.substr(at, want.size()) == want)
      at += want.size();
    else
      ok = false;
  }
  constexpr void number(device_id want) {
    device_id got = 0;
    const std::size_t from = at;
    while (ok && at < text.size() && text[at] >= '0' && text[at] <= '9') {
      if (got > want) // also keeps an overlong number from overflowing
        break;
      got = got * 10 + static_cast<device_id>(text[at++] - '0');
    }
    ok = ok && at != from && got == want;
  }
  constexpr void separator() {
    if (at != 0)
      literal(",");
  }
};

/// Whether a set with progressions is written `text`: its ids, then each progression as
/// `range(S,ws)`, `range(S,ws-C)` or `range(S,ws-C,K)`, comma-separated.
template <class Set> constexpr bool matches_symbolic_text(const Set& s, std::string_view text) {
  text_cursor c{text};
  s.for_each([&](device_id d) {
    c.separator();
    c.number(d);
  });
  for (const device_progression p : s.progressions()) {
    c.separator();
    c.literal("range(");
    c.number(p.start);
    c.literal(",ws");
    if (p.stop_offset != 0) {
      c.literal("-");
      c.number(p.stop_offset);
    }
    if (p.step != 1) {
      c.literal(",");
      c.number(p.step);
    }
    c.literal(")");
  }
  return c.ok && c.at == text.size();
}

template <class Set> constexpr mismatch compare_devices(const Set& actual, std::string_view text) {
  if (actual.has_progressions() || text.find("range(") != std::string_view::npos)
    return actual.has_progressions() && matches_symbolic_text(actual, text)
               ? mismatch::none
               : mismatch::domain_devices;
  if (text == "all")
    return actual.is_all() ? mismatch::none : mismatch::domain_devices;
  std::vector<device_id> want;
  if (!parse_devices(text, want))
    return mismatch::bad_devices_text;
  if (actual.is_all())
    return mismatch::domain_devices;
  std::vector<device_id> got;
  actual.for_each([&](device_id d) { got.push_back(d); });
  return got == want ? mismatch::none : mismatch::domain_devices;
}

} // namespace commscope::detail

namespace commscope::compile_time {

/// The name an expectation uses for a view variable: the traits object's
/// `variable_name(v)` if it has one, else `variable_names<Traits>`.
template <class Traits>
constexpr std::string_view name_of(const Traits& t, typename Traits::variable v) {
  if constexpr (requires { t.variable_name(v); })
    return t.variable_name(v);
  else
    return variable_names<Traits>::of(v);
}

/// Compares a plan with an expectation; the first difference wins.
template <class Traits>
[[nodiscard]] constexpr verdict compare(const plan<Traits>& p, const expectation& e,
                                        const Traits& t) {
  using commscope::detail::length;
  const auto n_diag = length(e.diagnostics);
  if (p.diagnostics.size() != n_diag)
    return {mismatch::diagnostic_count, static_cast<std::uint32_t>(p.diagnostics.size())};
  for (std::uint32_t i = 0; i < n_diag; ++i)
    if (code_name(p.diagnostics[i].code) != e.diagnostics[i])
      return {mismatch::diagnostic_code, i};

  const function_plan<Traits>* fp = nullptr;
  for (const auto& f : p.functions)
    if (e.function.empty() || f.name == e.function) {
      fp = &f;
      break;
    }
  const auto n_dom = length(e.domains);
  const auto n_view = length(e.views);
  if (!fp)
    return {n_dom == 0 && n_view == 0 && e.function.empty() ? mismatch::none
                                                            : mismatch::no_such_function,
            0};

  if (fp->domains.size() != n_dom)
    return {mismatch::domain_count, static_cast<std::uint32_t>(fp->domains.size())};
  for (std::uint32_t d = 0; d < n_dom; ++d) {
    const auto& got = fp->domains[d];
    const auto& want = e.domains[d];
    if (const auto m = commscope::detail::compare_devices(got.devices, want.devices);
        m != mismatch::none)
      return {m, d};
    if (got.slots.size() != length(want.slots))
      return {mismatch::slot_count, d};
    for (std::size_t k = 0; k < got.slots.size(); ++k)
      if (fp->allocations[got.slots[k]].name != want.slots[k])
        return {mismatch::slot, d};
  }

  if (fp->views.size() != n_view)
    return {mismatch::view_count, static_cast<std::uint32_t>(fp->views.size())};
  for (std::uint32_t v = 0; v < n_view; ++v) {
    const auto& got = fp->views[v];
    if (name_of(t, got.variable) != e.views[v].variable || got.allocation == no_index ||
        fp->allocations[got.allocation].name != e.views[v].allocation)
      return {mismatch::view, v};
  }
  return {};
}

/// Runs the pass on `p` through the traits object `t` and compares its plan with `e`: in
/// constant evaluation for a compile-time program, at run time for any adapter.
template <class Program, class Traits>
[[nodiscard]] constexpr verdict check(const Program& p, const expectation& e, const Traits& t) {
  return compare<Traits>(analyze(p, t), e, t);
}
/// `check(p, e, ir_traits<Program>{})`.
template <class Program>
[[nodiscard]] constexpr verdict check(const Program& p, const expectation& e) {
  return check(p, e, ir_traits<Program>{});
}

/// Turns a verdict into a compile error that says what differs; `V.index` (shown in the
/// compiler's "required from" line) is the domain, view or diagnostic concerned.
template <verdict V> struct report {
  static_assert(V.what != mismatch::no_such_function,
                "commscope::compile_time: the expected host orchestrator is not in the plan");
  static_assert(V.what != mismatch::domain_count,
                "commscope::compile_time: the plan has a different number of domains than "
                "expected");
  static_assert(V.what != mismatch::domain_devices,
                "commscope::compile_time: the devices of a domain differ from the expectation");
  static_assert(V.what != mismatch::slot_count,
                "commscope::compile_time: a domain has a different number of slots than "
                "expected");
  static_assert(V.what != mismatch::slot,
                "commscope::compile_time: a slot of a domain is not the expected allocation");
  static_assert(V.what != mismatch::view_count,
                "commscope::compile_time: the plan has a different number of views than "
                "expected");
  static_assert(V.what != mismatch::view,
                "commscope::compile_time: a view is not bound to the expected allocation");
  static_assert(V.what != mismatch::diagnostic_count,
                "commscope::compile_time: the plan has a different number of diagnostics "
                "than expected");
  static_assert(V.what != mismatch::diagnostic_code,
                "commscope::compile_time: a diagnostic has a different code than expected");
  static_assert(V.what != mismatch::bad_devices_text,
                "commscope::compile_time: an expected device list must be \"all\" or "
                "ascending ids and ranges like 0,2,5..7");
  static constexpr bool value = V.ok();
};

/// `static_assert(matches<program, expectation>)`: the pass runs in the compiler.
template <const auto& Program, const expectation& Expected>
inline constexpr bool matches = report<check(Program, Expected)>::value;

} // namespace commscope::compile_time
