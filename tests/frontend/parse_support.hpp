// Shared helpers of the front end's tests: parse a module that must parse (or must not),
// and wrap a host orchestrator body in a `@pl.program` class.
#pragma once

#include <commscope/frontend/frontend.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace parse_test {

namespace ref = commscope::reference;
namespace fe = commscope::frontend;

inline ref::program_ptr parse_ok(std::string_view text) {
  auto r = fe::parse(text);
  if (!r)
    FAIL_CHECK(r.error->line << ":" << r.error->column << ": " << r.error->message);
  REQUIRE(r.program);
  return r.program;
}

inline fe::syntax_error parse_error(std::string_view text) {
  auto r = fe::parse(text);
  REQUIRE_FALSE(r);
  REQUIRE(r.error);
  return *r.error;
}

/// A program whose host orchestrator body is `body` (indented by 8 spaces): the chip
/// orchestrator `chip` is functions[0], the host `host` functions[1], and the body's
/// first line is line 9.
inline std::string host_program(std::string_view body) {
  std::string s = "@pl.program\nclass P:\n"
                  "    @pl.function(type=pl.FunctionType.Orchestration)\n"
                  "    def chip(self, x):\n        return x\n\n"
                  "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
                  "    def host(self):\n";
  s += body;
  return s;
}

} // namespace parse_test
