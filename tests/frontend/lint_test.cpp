// What the front end gives the driver's lint diagnostics (docs/commscope-opt.md, "No
// false all-clear", "Constants of the file", "Sizes"): unknown decorators, invalid UTF-8,
// calls that dispatch nothing, suggestions for open names, folded allocation sizes.
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

TEST_CASE("a misspelled @pl.jit function joins its scope's group, and far names get no help") {
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

TEST_CASE("every DSL decorator and value is known, and other modules' decorators are not ours") {
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
                       "    @pl.function(level=pl.Level.HOST, **{'role': pl.Role.Worker})\n"
                       "    def j(self): pass\n");
  REQUIRE(!m.error);
  CHECK(m.diagnostics.empty());
  for (const auto& u : m.programs)
    CHECK(diagnostics_of(u.diagnostics).empty());
}

TEST_CASE("a @pl.function whose kind cannot be read is refused") {
  // A value that may be any member, or a dict that may pass any keyword, could make the
  // function a host orchestrator that would otherwise go unchecked.
  const auto m = fe::parse_module("import pypto.language as pl\n"
                                  "KW = {'role': pl.Role.Orchestrator}\n"
                                  "KW.update(level=pl.Level.CHIP)\n"
                                  "@pl.program\n"
                                  "class P:\n"
                                  "    @pl.function(level=LEVEL)\n"
                                  "    def j(self): pass\n"
                                  "    @pl.function(level=pl.Level.HOST, **KW)\n"
                                  "    def k(self): pass\n");
  REQUIRE(!m.error);
  REQUIRE(m.programs.size() == 1);
  const std::string help = " | write level=, type= and role= in the decorator itself, as "
                           "members of pl.Level, pl.FunctionType and pl.Role\n";
  CHECK(diagnostics_of(m.programs[0].diagnostics) ==
        "6:6 unknown-decorator the kind of 'j' cannot be read from '@pl.function(...)': "
        "level=LEVEL is no member of pl.Level the front end can read" +
            help +
            "8:6 unknown-decorator the kind of 'k' cannot be read from '@pl.function(...)': it "
            "unpacks '**KW', which may pass any of level=, type= and role=" +
            help);
}

TEST_CASE("a file that is not valid UTF-8 is a syntax error at the first bad byte") {
  const auto error = [](std::string_view src) {
    const auto m = fe::parse_module(src);
    return m.error ? std::to_string(m.error->line) + ":" + std::to_string(m.error->column) + " " +
                         m.error->message
                   : std::string("ok");
  };
  const std::string prefix = "(unicode error) 'utf-8' codec can't decode byte 0x";
  CHECK(error("x = 1\n# caf\xc3\xa9 \xff\n") ==
        "2:8 " + prefix + "ff in position 14: invalid start byte");
  CHECK(error("x = '\xc0\xaf'\n") == "1:6 " + prefix + "c0 in position 5: invalid start byte");
  CHECK(error("x = '\xe0\x80\x80'\n") ==
        "1:6 " + prefix + "e0 in position 5: invalid continuation byte");
  CHECK(error("x = '\xed\xa0\x80'\n") ==
        "1:6 " + prefix + "ed in position 5: invalid continuation byte");
  CHECK(error("x = '\xf4\x90\x80\x80'\n") ==
        "1:6 " + prefix + "f4 in position 5: invalid continuation byte");
  CHECK(error("x = '\xe2\x82") == "1:6 " + prefix + "e2 in position 5: unexpected end of data");
  // Valid: a BOM, every length of sequence, the largest code point.
  CHECK(error("\xef\xbb\xbfx = '\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf'\n") == "ok");
  // A null byte before the bad byte is the error; after it, the bad byte.
  CHECK(error(std::string_view("x = 1\0\xff", 7)) == "1:6 source code cannot contain null bytes");
  CHECK(error(std::string_view("x = '\xff'\0", 8)) ==
        "1:6 " + prefix + "ff in position 5: invalid start byte");
  // Another encoding declared in the first two lines: its bytes are not judged as UTF-8.
  CHECK(error("#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nx = '\xff'\n") == "ok");
  CHECK(error("# vim: set fileencoding=utf-8 :\nx = '\xff'\n") ==
        "2:6 " + prefix + "ff in position 37: invalid start byte");
  CHECK(error("x = 1\n# coding: latin-1\ny = '\xff'\n") ==
        "3:6 " + prefix + "ff in position 29: invalid start byte");
}

TEST_CASE("an open name in device= gets the nearest name in scope at the call") {
  const auto m = fe::parse_module("import pypto.language as pl\n"
                                  "import pypto.language.distributed as pld\n"
                                  "NRANKS = 4\n"
                                  "@pl.jit\n"
                                  "def chip(x):\n"
                                  "    return x\n"
                                  "@pl.jit.host\n"
                                  "def main(rank_id):\n"
                                  "    a = pld.alloc_window_buffer(64)\n"
                                  "    v = pld.window(a, [8], dtype=pl.FP32)\n"
                                  "    for rr in pl.range(4):\n"
                                  "        chip(v, device=r)\n"
                                  "    chip(v, device=rank_if)\n"
                                  "    chip(v, device=NRANK)\n"
                                  "    chip(v, device=faraway)\n"
                                  "    ra = 1\n");
  REQUIRE(!m.error);
  REQUIRE(m.programs.size() == 1);
  std::string got;
  for (const auto& s : m.programs[0].name_suggestions)
    got += std::to_string(s.call.line) + ":" + s.name + "->" + s.suggestion + " ";
  // `ra` is bound after the calls: not in scope there.
  CHECK(got == "12:r->rr 13:rank_if->rank_id 14:NRANK->NRANKS ");
}

TEST_CASE("views passed to a chip orchestrator without device= are matched by variable") {
  const auto m =
      fe::parse_module("import pypto.language as pl\n"
                       "import pypto.language.distributed as pld\n"
                       "@pl.program\n"
                       "class P:\n"
                       "    @pl.function(type=pl.FunctionType.Orchestration)\n"
                       "    def chip(self, x):\n"
                       "        return x\n"
                       "    @pl.function(type=pl.FunctionType.InCore)\n"
                       "    def kernel(self, x):\n"
                       "        return x\n"
                       "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
                       "    def host(self):\n"
                       "        a = pld.alloc_window_buffer(64)\n"
                       "        v = pld.window(a, [8], dtype=pl.FP32)\n"
                       "        self.chip(v)\n"
                       "        self.kernel(v)\n"
                       "        self.chip(v, device=1)\n"
                       "        v = 3\n"
                       "        self.chip(v)\n");
  REQUIRE(!m.error);
  REQUIRE(m.programs.size() == 1);
  const auto& u = m.programs[0].undispatched_views;
  REQUIRE(u.size() == 1);
  CHECK(u[0].view.line == 14);
  CHECK(u[0].view.column == 9);
  CHECK(u[0].call.line == 15);
  CHECK(u[0].call.column == 9);
  CHECK(u[0].callee == "chip");
}

TEST_CASE("allocation sizes fold where they are integer constant expressions") {
  fe::module_options o;
  o.defines = {{"D", 3}};
  const auto m =
      fe::parse_module("import pypto.language as pl\n"
                       "import pypto.language.distributed as pld\n"
                       "CP_SIZE = 1024\n"
                       "@pl.jit.host\n"
                       "def main(n):\n"
                       "    a = pld.alloc_window_buffer(256 * 4)\n"
                       "    b = pld.alloc_window_buffer(CP_SIZE * 1 * 4)\n"
                       "    c = pld.alloc_window_buffer(-(-7 // 2) + 2 ** 10 % 1000 - D)\n"
                       "    d = pld.alloc_window_buffer(n * 4)\n"
                       "    e = pld.alloc_window_buffer(2 ** 63)\n"
                       "    f = pld.alloc_window_buffer(4 / 2)\n"
                       "    g = pld.alloc_window_buffer(2 ** -1)\n"
                       "    h = pld.alloc_window_buffer([16, 2], dtype=pl.FP32)\n"
                       "    i = pld.alloc_window_buffer(1 << 4)\n"
                       "    j = pld.alloc_window_buffer(" +
                           std::string(150, '(') + "1" + std::string(150, ')') + ")\n",
                       o);
  REQUIRE(!m.error);
  REQUIRE(m.programs.size() == 1);
  const auto& u = m.programs[0];
  std::string got;
  for (const auto& [at, variable, bytes] : u.allocation_bytes)
    got += std::to_string(at.line) + ":" + std::to_string(at.column) + "=" + std::to_string(bytes) +
           " ";
  CHECK(got.starts_with("6:5=1024 7:5=4096 8:5=25 13:5=128 "));
  CHECK(fe::allocation_bytes_at(u, {7, 5}) == 4096);
  CHECK(!fe::allocation_bytes_at(u, {9, 5}));
  CHECK(!fe::allocation_bytes_at(u, {10, 5}));
  // The locations are the plan's.
  commscope::reference::program_ptr p = u.program;
  const auto plan = commscope::analyze(p);
  REQUIRE(plan.functions.size() == 1);
  CHECK(fe::allocation_bytes_at(u, plan.functions[0].allocations[0].where) == 1024);
  CHECK(fe::allocation_bytes_of(u, *plan.functions[0].allocations[0].base) == 1024);
}
