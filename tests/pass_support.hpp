// Shared helpers of the pass's doctest suite on the reference IR: short renderings of
// diagnostics, device sets and domains, so that tests assert exact values in one line
// and a failure prints what the pass actually produced.
//
// Line numbers of built programs (builder.hpp): every function declaration, statement
// and chip orchestrator `return` takes the next line; a chip orchestrator takes two
// lines (its def and its return), a host orchestrator's def one. Statement columns are
// 9 + 4 * nesting depth; a call is at the statement's column, or after `target = `.
#pragma once

#include <commscope/commscope.hpp>
#include <commscope/reference/builder.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pass_test {

namespace ref = commscope::reference;
using traits = commscope::ir_traits<ref::program_ptr>;
using plan_t = commscope::plan<traits>;
using function_plan_t = commscope::function_plan<traits>;
using commscope::error_code;
using commscope::operation;
using ref::program_builder;
using ref::program_ptr;
using ref::variable_ptr;

inline void append_to(std::string& s, std::string_view v) { s.append(v.data(), v.size()); }
template <std::integral T>
void append_to(std::string& s, T v) {
  s += std::to_string(v);
}
/// Concatenation without `const char* + std::string`, on which g++ 12 -O3 gives a false
/// -Wrestrict (GCC bug 105329).
template <class... A>
std::string cat(const A&... a) {
  std::string s;
  (append_to(s, a), ...);
  return s;
}

/// "code subject line:column", one diagnostic per line, in the plan's order.
inline std::string diags(const plan_t& pl) {
  std::string out;
  for (const auto& d : pl.diagnostics) {
    if (!out.empty())
      out += '\n';
    out += cat(commscope::code_name(d.code), " ", d.subject, " ", d.where.line, ":",
               d.where.column);
  }
  return out;
}

inline std::string render(const commscope::device_set& s) {
  if (s.is_all())
    return "all";
  std::string out = "{";
  bool first = true;
  s.for_each([&](commscope::device_id d) {
    if (!first)
      out += ',';
    first = false;
    out += std::to_string(d);
  });
  return out + "}";
}

/// The plan of the host orchestrator called `name`.
inline const function_plan_t& function_named(const plan_t& pl, std::string_view name) {
  for (const auto& f : pl.functions)
    if (f.name == name)
      return f;
  FAIL("no host orchestrator " << name);
  return pl.functions.front();
}

/// The merged coverage of the allocation called `name` in any function.
inline std::string coverage(const plan_t& pl, std::string_view name) {
  for (const auto& f : pl.functions)
    for (const auto& a : f.allocations)
      if (a.name == name)
        return render(a.devices);
  return cat("<no allocation ", name, ">");
}

/// "[devices] slot,slot; [devices] slot" for one function, domains in order.
inline std::string domains(const function_plan_t& fp) {
  std::string out;
  for (const auto& d : fp.domains) {
    if (!out.empty())
      out += "; ";
    out += cat("[", render(d.devices), "]");
    bool first = true;
    for (auto a : d.slots) {
      out += first ? " " : ",";
      first = false;
      out += std::string(fp.allocations[a].name);
    }
  }
  return out;
}
inline std::string domains(const plan_t& pl) {
  REQUIRE(pl.functions.size() == 1);
  return domains(pl.functions[0]);
}

/// A program with one chip orchestrator `chip` (lines 1-2) and one host orchestrator
/// `host` (line 3): its first statement is on line 4.
struct fixture {
  program_builder pb;
  ref::signature_ptr chip = pb.chip_orchestrator("chip");
  ref::function_builder& h = pb.host_orchestrator("host");

  /// buf = alloc(64, name); data = window(buf): two lines.
  variable_ptr view(const std::string& name) {
    auto buf = h.alloc(name, 64);
    return h.window(cat(name, "_v"), buf);
  }
  program_ptr finish() { return pb.finish(); }
  plan_t analyze() {
    program_ = pb.finish();
    return commscope::analyze(program_);
  }
  program_ptr program_;
};

/// A device expression, and how many blocks its making opened around the dispatch.
struct device_form {
  ref::ex device;
  int open = 0;
};

/// The coverage of `buf` after one dispatch `chip(buf_v, device=...)` whose device form
/// `make(h)` builds (lines 4-5 hold buf and buf_v), or the diagnostics if there are any.
template <class Make>
std::string descriptor_of(Make make) {
  fixture f;
  auto data = f.view("buf");
  const device_form form = make(f.h);
  f.h.dispatch(f.chip, {data}, form.device);
  for (int i = 0; i < form.open; ++i)
    f.h.end();
  const auto pl = f.analyze();
  return pl.ok() ? coverage(pl, "buf") : diags(pl);
}

} // namespace pass_test
