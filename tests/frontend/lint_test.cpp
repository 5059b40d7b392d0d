// What the front end gives the driver's lint diagnostics (cli.md, "For people and for
// CI"): unknown decorators, invalid UTF-8, calls that dispatch nothing, suggestions for
// open names, folded allocation sizes.
#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace fe = commscope::frontend;

namespace {

/// "L:C code message | help" per diagnostic of the program or the module.
std::string diagnostics_of(const std::vector<fe::front_end_diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds)
    out += std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + " " + d.code +
           " " + d.message + " | " + d.help + "\n";
  return out;
}

} // namespace

TEST_CASE("an unknown decorator of the DSL outside any program rejects the file") {
  const auto m = fe::parse_module("import pypto.language as pl\n"
                                  "import functools\n"
                                  "@functools.wraps(f)\n"
                                  "@pl.jit.hots\n"
                                  "def main(x):\n"
                                  "    return x\n");
  REQUIRE(!m.error);
  CHECK(m.programs.empty());
  CHECK(diagnostics_of(m.diagnostics) ==
        "4:2 unknown-decorator unknown decorator 'pl.jit.hots': the DSL has no such "
        "decorator | did you mean 'pl.jit.host'?\n");
}

TEST_CASE("an unknown decorator or keyword value rejects the program that holds it") {
  const auto m =
      fe::parse_module("import pypto.language as lang\n"
                       "@lang.program\n"
                       "class P:\n"
                       "    @lang.function(type=lang.FunctionType.Orchestraton)\n"
                       "    def chip(self, x):\n"
                       "        return x\n"
                       "    @lang.function(level=lang.Level.HOTS, role=lang.Role.Orchestrator)\n"
                       "    def host(self):\n"
                       "        pass\n"
                       "    @lang.inlien\n"
                       "    def k(self):\n"
                       "        pass\n"
                       "    @staticmethod\n"
                       "    def s():\n"
                       "        pass\n");
  REQUIRE(!m.error);
  CHECK(m.diagnostics.empty());
  REQUIRE(m.programs.size() == 1);
  CHECK(diagnostics_of(m.programs[0].diagnostics) ==
        "4:6 unknown-decorator unknown value 'lang.FunctionType.Orchestraton' of type= in "
        "'@lang.function': the DSL has no such type | did you mean "
        "'lang.FunctionType.Orchestration'?\n"
        "7:6 unknown-decorator unknown value 'lang.Level.HOTS' of level= in '@lang.function': "
        "the DSL has no such level | did you mean 'lang.Level.HOST'?\n"
        "10:6 unknown-decorator unknown decorator 'lang.inlien': the DSL has no such decorator "
        "| did you mean 'lang.inline'?\n");
}

TEST_CASE("a misspelled @pl.jit function joins its scope's group; far names get no help") {
  const auto m = fe::parse_module("import pypto.language as pl\n"
                                  "@pl.jit\n"
                                  "def chip(x):\n"
                                  "    return x\n"
                                  "@pl.jit.something_else()\n"
                                  "def main():\n"
                                  "    pass\n");
  REQUIRE(!m.error);
  CHECK(m.diagnostics.empty());
  REQUIRE(m.programs.size() == 1);
  CHECK(diagnostics_of(m.programs[0].diagnostics) ==
        "5:2 unknown-decorator unknown decorator 'pl.jit.something_else': the DSL has no such "
        "decorator | \n");
}

TEST_CASE("every DSL decorator and value is known; other modules' decorators are not ours") {
  const auto m =
      fe::parse_module("import pypto.language as pl\n"
                       "import numpy as pld\n"
                       "import pytest\n"
                       "@pytest.mark.x\n"
                       "@pld.vectorize\n"
                       "def t():\n"
                       "    pass\n"
                       "@pl.jit.host\n"
                       "def h():\n"
                       "    pass\n"
                       "@pl.jit.incore()\n"
                       "def a(): pass\n"
                       "@pl.jit.inline\n"
                       "def b(): pass\n"
                       "@pl.jit.opaque\n"
                       "def c(): pass\n"
                       "@pl.jit.extern\n"
                       "def d(): pass\n"
                       "@pl.jit()\n"
                       "def e(): pass\n"
                       "@pl.program\n"
                       "class P:\n"
                       "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CORE_GROUP)\n"
                       "    def f(self): pass\n"
                       "    @pl.function(type=pl.FunctionType.Graph, role=pl.Role.Orchestrator)\n"
                       "    def g(self): pass\n"
                       "    @pl.inline\n"
                       "    def i(self): pass\n"
                       "    @pl.function(level=LEVEL)\n"
                       "    def j(self): pass\n");
  REQUIRE(!m.error);
  CHECK(m.diagnostics.empty());
  for (const auto& u : m.programs)
    CHECK(diagnostics_of(u.diagnostics).empty());
}
