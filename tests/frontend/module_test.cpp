// Whole modules (docs/commscope-opt.md, "What is analyzed", "Constants of the file"):
// where the DSL is found, what a program is named, how open names resolve, what a host
// body may hold.
#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>

namespace ref = commscope::reference;
namespace fe = commscope::frontend;

namespace {

fe::module_result read(std::string_view src, fe::module_options o = {}) {
  auto m = fe::parse_module(src, o);
  if (m.error)
    FAIL_CHECK(m.error->line << ":" << m.error->column << ": " << m.error->message);
  return m;
}

/// The plan of program `k` as "name: devices [slots sizes]" lines.
std::string plan_of(const fe::program_unit& u) {
  ref::program_ptr p = u.program;
  const auto pl = commscope::analyze(p);
  std::string out;
  for (const auto& d : pl.diagnostics)
    out += std::string(commscope::code_name(d.code)) + "@" + std::to_string(d.where.line) + ":" +
           std::to_string(d.where.column) + " ";
  for (const auto& f : pl.functions) {
    out += std::string(f.name) + ":";
    for (const auto& dom : f.domains) {
      out += " {";
      out += dom.devices.is_all() ? "all" : "";
      dom.devices.for_each([&](commscope::device_id id) { out += std::to_string(id) + ","; });
      for (const auto a : dom.slots)
        out += " " + std::string(f.allocations[a].name) + "=" +
               fe::print_expression(*f.allocations[a].size);
      out += "}";
    }
    out += ";";
  }
  return out;
}

constexpr std::string_view header = "import pypto.language as pl\n"
                                    "import pypto.language.distributed as pld\n";

} // namespace

TEST_CASE("programs at any depth, both forms, named and lined as docs/commscope-opt.md says") {
  const std::string src = std::string(header) + R"(
SIZE = 64

def helper(x):
    return [y for y in x if y]

@pl.jit
def per_rank(x, data):
    return data

@pl.jit.host
def ring(x):
    buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        data = pld.window(buf, [1, SIZE], dtype=pl.FP32)
        per_rank(x[r], data, device=r)

class TestThings:
    def test_one(self, fixture):
        @pl.program
        class Inner:
            @pl.function(type=pl.FunctionType.Orchestration)
            def chip(self, x):
                return x

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host(self):
                b = pld.alloc_window_buffer(SIZE * 2)
                v = pld.window(b, [SIZE], dtype=pl.INT16)
                self.chip(v, device=3)

        assert Inner is not None, (
            "message"
        )

def build(nr):
    @pl.jit.incore(level=1)
    def kernel(x):
        return x

    @pl.jit()
    def chip(x):
        kernel(x)

    @pl.jit.host
    def host():
        b = pld.alloc_window_buffer(8)
        v = pld.window(b, [2], dtype=pl.FP32)
        for r in pl.range(nr):
            chip(v, device=r)
    return host
)";
  fe::module_options o;
  o.stem = "ring_example";
  o.defines = {{"nr", 2}};
  const auto m = read(src, o);
  REQUIRE(m.programs.size() == 3);
  CHECK(m.programs[0].name == "ring_example");
  CHECK(m.programs[0].line == 9);
  CHECK(m.programs[1].name == "Inner");
  CHECK(m.programs[1].line == 22);
  CHECK(m.programs[2].name == "build");
  CHECK(plan_of(m.programs[0]) == "ring: {all buf=1 * 64 * 4};");
  CHECK(plan_of(m.programs[1]) == "host: {3, b=64 * 2};");
  CHECK(plan_of(m.programs[2]) == "host: {0,1, b=8};");
  CHECK(m.programs[0].program->style == ref::program::form::jit_group);
}

TEST_CASE("constants resolve outward: -D first, enclosing functions, then the module") {
  const std::string src = std::string(header) + R"(
N = 4
TWICE = N * 2 + (7 // 2) % 2 - -1
REBOUND = 1
REBOUND = 2
LOCAL = 3

def builder(n, m=5):
    LOCAL = 9

    @pl.program
    class P:
        LOCAL = 100  # a class body is no enclosing scope

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x):
            return x

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            a = pld.alloc_window_buffer(TWICE)
            va = pld.window(a, [1], dtype=pl.FP32)
            self.chip(va, device=LOCAL)
            b = pld.alloc_window_buffer(N)
            vb = pld.window(b, [1], dtype=pl.FP32)
            for r in pl.range(n):
                self.chip(vb, device=r)
            c = pld.alloc_window_buffer(8)
            vc = pld.window(c, [1], dtype=pl.FP32)
            self.chip(vc, device=REBOUND)
)";
  auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  // TWICE = 4 * 2 + 1 - -1 = 10; LOCAL is the builder's 9; `n` and REBOUND are open.
  {
    ref::program_ptr p = m.programs[0].program;
    const auto pl = commscope::analyze(p);
    REQUIRE(pl.diagnostics.size() == 2);
    CHECK(pl.diagnostics[0].code == commscope::error_code::unsupported_device);
    CHECK(pl.diagnostics[1].code == commscope::error_code::unsupported_device);
  }
  const auto& open = m.programs[0].open_names;
  REQUIRE(open.size() == 2);
  CHECK(open[0].second == "n");
  CHECK(open[1].second == "REBOUND");

  fe::module_options o;
  o.defines = {{"n", 2}, {"REBOUND", 5}, {"N", 16}};
  m = read(src, o);
  CHECK(plan_of(m.programs[0]) == "host: {9, a=34} {0,1, b=16} {5, c=8};");
}

TEST_CASE("module aliases come from the imports") {
  const std::string src = R"(
from pypto import language as lang
import pypto.language.distributed as dist

@lang.jit
def chip(x):
    return x

@lang.jit.host
def host():
    b = dist.tensor.alloc_window_buffer(dist.system.world_size() * lang.INT32.get_byte())
    v = dist.window(b, [1], dtype=lang.INT32)
    for r in lang.range(dist.world_size()):
        chip(v, device=r)
)";
  const auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  CHECK(plan_of(m.programs[0]) == "host: {all b=dist.system.world_size() * 4};");
}

TEST_CASE("the distributed module through a path: pl.distributed, pypto.language.distributed") {
  const auto body = [](std::string_view imports, std::string_view lang, std::string_view dist) {
    std::string src(imports);
    src += "\n\n@" + std::string(lang) + ".jit\ndef chip(x):\n    return x\n\n@" +
           std::string(lang) + ".jit.host\ndef host():\n    b = " + std::string(dist) +
           ".alloc_window_buffer(64)\n    v = " + std::string(dist) +
           ".window(b, [16], dtype=" + std::string(lang) + ".FP32)\n    chip(v, device=2)\n";
    return src;
  };
  struct form {
    std::string_view imports, lang, dist, spelled;
    bool adds_import;
  };
  for (const form& f : {
           form{"import pypto.language as pl", "pl", "pl.distributed", "pl.distributed", false},
           form{"import pypto.language as lang", "lang", "lang.distributed", "lang.distributed",
                false},
           form{"import pypto", "pypto.language", "pypto.language.distributed",
                "pypto.language.distributed", false},
           form{"import pypto.language as pl\nimport pypto.language.distributed as dist", "pl",
                "dist", "dist", false},
           form{"from pypto.language import jit, FP32\n"
                "from pypto.language.distributed import alloc_window_buffer, window",
                "", "", "pld", true},
       }) {
    CAPTURE(f.imports);
    const std::string src =
        !f.dist.empty() ? body(f.imports, f.lang, f.dist)
                        : std::string(f.imports) +
                              "\n\n@jit\ndef chip(x):\n    return x\n\n@jit.host\ndef host():\n"
                              "    b = alloc_window_buffer(64)\n"
                              "    v = window(b, [16], dtype=FP32)\n    chip(v, device=2)\n";
    const auto m = read(src);
    REQUIRE(m.programs.size() == 1);
    const auto& u = m.programs[0];
    CHECK(plan_of(u) == "host: {2, b=64};");
    CHECK(u.distributed_module == f.spelled);
    CHECK(u.distributed_import.has_value() == f.adds_import);
    if (u.distributed_import) // at the end of the first import, before its line end
      CHECK(src.substr(u.distributed_import->begin, 1) == "\n");
  }
}

TEST_CASE("a host body may hold any Python statement and expression") {
  const std::string src = std::string(header) + R"(
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, *args, **kwargs):
        return args

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 8], pl.FP32], /, *, n: int = 3) -> pl.Tensor[[4], pl.FP32]:
        """The host orchestrator."""
        buf: pld.Ptr = pld.alloc_window_buffer(
            4 * 8 * pl.FP32.get_byte(),
        )
        data = pld.window(buf, [4, 8], dtype=pl.FP32)
        total = 0
        total += sum(v ** 2 for v in range(3))
        table = {"a": 1, **extra, "b": [i for i in range(4) if i % 2]}
        key = lambda item, k=1: item[k]
        first, *rest = x[1:3, ::2]
        assert total >= 0, f"bad {total!r:>{n}}"
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage") as ctx:
            for i, (acc,) in pl.range(0, 8, 2, init_values=(x,)):
                acc = pl.yield_(acc)
        try:
            pass
        except (ValueError, KeyError) as err:
            raise RuntimeError("x") from err
        finally:
            del table
        while (w := n - 1) > 0:
            break
        else:
            pass
        for name in ["a", "b"]:
            continue
        if n is not None and n not in (1, 2):
            pass
        elif ~n & 1 | 2 ^ 3 << 1 >> 1:
            pass
        y = x @ x if n else -x
        for r in pl.range(pld.world_size()):
            self.chip(data, device=r)
        return data
)";
  auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  CHECK(plan_of(m.programs[0]) == "host: {all buf=4 * 8 * 4};");
  // The rewritten body keeps every statement as written.
  ref::program_ptr p = m.programs[0].program;
  const auto pl = commscope::analyze(p);
  commscope::materialize(p, pl);
  std::string body;
  fe::print_statements(body, *p, p->functions[1]->body, "        ", "\n");
  CHECK(body.find("            buf: pld.Ptr = pld.alloc_window_buffer(\n"
                  "                4 * 8 * pl.FP32.get_byte(),\n"
                  "            )\n") != std::string::npos);
  CHECK(
      body.find("            table = {\"a\": 1, **extra, \"b\": [i for i in range(4) if i % 2]}") !=
      std::string::npos);
  CHECK(body.find("                for i, (acc,) in pl.range(0, 8, 2, init_values=(x,)):") !=
        std::string::npos);
  CHECK(
      body.find("            data = pld.window(buf, [4, 8], dtype=pl.FP32) # window_buffer=buf") !=
      std::string::npos);
  CHECK(commscope::verify(p).empty());
  // ...and reads back as the same plan.
  auto again = fe::parse_module(fe::print(p));
  REQUIRE_FALSE(again.error);
  CHECK(plan_of(again.programs.at(0)) == "host: {all buf=4 * 8 * 4};");
}

TEST_CASE("text that only looks like the DSL is not the DSL") {
  const std::string src = std::string(header) + R"(
DOC = """
@pl.program
class Fake:
    pass
"""
# @pl.program
# class AlsoFake:
x = f"@pl.program {DOC!r}"

@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
def loose(self):  # a DSL method outside a program class: not analyzed
    b = pld.alloc_window_buffer(4)
)";
  CHECK(read(src).programs.empty());
}

TEST_CASE("front-end findings: an unknown dtype, a malformed comm_domain") {
  const std::string src = std::string(header) + R"(
@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        b = pld.alloc_window_buffer([4, 4], dtype=pl.FP7)
        with pld.comm_domain(1, devices="all"):
            pass
)";
  const auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  const auto& d = m.programs[0].diagnostics;
  REQUIRE(d.size() == 2);
  CHECK(d[0].code == "malformed-op");
  CHECK(d[0].where == ref::source_location{8, 13});
  CHECK(d[1].where == ref::source_location{9, 9});
}

TEST_CASE("the source span of each host body, for --emit=ir") {
  const std::string src = std::string(header) + "@pl.jit.host\n"
                                                "def host():\n"
                                                "\tb = pld.alloc_window_buffer(4)  # trailing\n"
                                                "\treturn b\n"
                                                "\n"
                                                "x = 1\n";
  const auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  REQUIRE(m.programs[0].bodies.size() == 1);
  const auto& span = m.programs[0].bodies[0];
  CHECK(span.indent == "\t");
  CHECK(std::string_view(src).substr(span.begin, span.end - span.begin) ==
        "\tb = pld.alloc_window_buffer(4)  # trailing\n\treturn b");
}

TEST_CASE("a rewritten body keeps the author's comments and blank lines") {
  const std::string src = std::string(header) + R"(
@pl.jit
def chip(x):
    return x

@pl.jit.host
def host():
    # the window
    buf = pld.alloc_window_buffer(64)  # 64 bytes

    view = pld.window(buf, [16], dtype=pl.FP32)  # one view
    for r in pl.range(4):  # four ranks
        # dispatch
        chip(view, device=r)
)";
  auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  ref::program_ptr p = m.programs[0].program;
  const auto pl = commscope::analyze(p);
  REQUIRE(pl.ok());
  commscope::materialize(p, pl);
  std::string body;
  fe::print_statements(body, *p, p->functions[1]->body, "    ", "\n");
  CHECK(body ==
        "    with pld.comm_domain(\"comm_d0\", devices=[0, 1, 2, 3], slots=[buf]):\n"
        "        # the window\n"
        "        buf = pld.alloc_window_buffer(64)  # 64 bytes\n"
        "\n"
        "        view = pld.window(buf, [16], dtype=pl.FP32) # window_buffer=buf  # one view\n"
        "        for r in pl.range(4):  # four ranks\n"
        "            # dispatch\n"
        "            chip(view, device=r)");
  // Read back, the window-buffer comment is the printer's and is not kept twice.
  auto again = read("@pl.jit.host\ndef host():\n" + body + "\n");
  REQUIRE(again.programs.size() == 1);
  std::string twice;
  fe::print_statements(twice, *again.programs[0].program,
                       again.programs[0].program->functions[0]->body, "    ", "\n");
  CHECK(twice.find("# window_buffer=buf  # one view") != std::string::npos);
  CHECK(twice.find("# window_buffer=buf  # window_buffer") == std::string::npos);
}

TEST_CASE("a call of another method is no dispatch (its view escapes), with device= it is "
          "malformed-op") {
  const std::string src = std::string(header) + R"(
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    def helper(self, x):  # a plain method of the class
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        b = pld.alloc_window_buffer(4)
        v = pld.window(b, [1], dtype=pl.FP32)
        self.helper(v)
        self.chip(v, device=0)
        self.helper(v, device=1)
)";
  const auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  CHECK(plan_of(m.programs[0]).starts_with("view-escapes@17:9 malformed-op@19:9 "));
  CHECK(plan_of(m.programs[0]).find("malformed-op@17") == std::string::npos);
}

TEST_CASE("a docstring spanning lines stays above the scopes, as written") {
  // A bare carriage return ends a line inside the docstring (fuzz finding): the body the
  // scopes replace begins on the line after the docstring ends, with the indentation of
  // the statement that follows it.
  const std::string src = std::string(header) + "@pl.jit\n"
                                                "def chip(x):\n"
                                                "    return x\n"
                                                "\n"
                                                "@pl.jit.host\n"
                                                "def host():\n"
                                                "    \"\"\"Host: one window\r\x19 per rank.\"\"\"\n"
                                                "    buf = pld.alloc_window_buffer(64)\n"
                                                "    view = pld.window(buf, [16], dtype=pl.FP32)\n"
                                                "    chip(view, device=0)\n"
                                                "\n"
                                                "def main():\n"
                                                "    return 0\n";
  auto m = read(src);
  REQUIRE(m.programs.size() == 1);
  const auto& unit = m.programs[0];
  ref::program_ptr p = unit.program;
  const ref::program_ptr parsed = p;
  REQUIRE(commscope::run(p).empty());
  const std::string out =
      fe::splice_bodies(src, fe::rewritten_bodies(unit, *parsed, *p, m.newline), m.newline);
  // The docstring stays first, as written: the scopes begin below it.
  CHECK(out.find("def host():\n    \"\"\"Host: one window\r\x19 per rank.\"\"\"\n"
                 "    with pld.comm_domain(\"comm_d0\", devices=[0], slots=[buf]):\n"
                 "        buf = pld.alloc_window_buffer(64)\n") != std::string::npos);
  CHECK(out.ends_with("\n\ndef main():\n    return 0\n"));
  const auto again = read(out);
  REQUIRE(again.programs.size() == 1);
  CHECK(plan_of(again.programs[0]) == plan_of(unit));
}

TEST_CASE("a decorator that ends its block is a syntax error, not a decorator of an outer def") {
  // Fuzz finding: a class nested in a host body ended at a decorator, and the scan took
  // the next `def` of the outer class for its decorated statement; the program printed
  // from it (ending at the decorator) did not read back.
  const std::string src = std::string(header) + "class A:\n"
                                                "    class B:\n"
                                                "        @staticmethod\n"
                                                "\n"
                                                "# a comment between\n"
                                                "    def f(self):\n"
                                                "        return 0\n";
  const auto m = fe::parse_module(src);
  REQUIRE(m.error);
  CHECK(m.error->message == "invalid syntax: a decorator must be followed by 'def' or 'class'");
  const auto header_lines = static_cast<unsigned>(std::count(header.begin(), header.end(), '\n'));
  CHECK(m.error->line == header_lines + 6);
  // Still accepted: decorators, blank lines and comments, then the def in the same block.
  const auto ok = fe::parse_module(std::string(header) + "class A:\n"
                                                         "    @staticmethod\n"
                                                         "\n"
                                                         "    # a comment between\n"
                                                         "    def f():\n"
                                                         "        return 0\n");
  CHECK(!ok.error);
}

TEST_CASE("an import names dotted modules, each aliased by one name that is no keyword") {
  // Fuzz finding: `import m as import pypto.language as pl` bound `import` to m, and the
  // rewrite spelled its scopes `import.comm_domain(...)`, which does not read back.
  for (const char* line :
       {"import pypto.language.distributed as import pypto.language as pl\n",
        "import pypto.language.distributed as dist pl\n",
        "from pypto.language import distributed as for\n",
        "from pypto.language import (distributed as dist x)\n",
        "import pypto.language.distributed as\n", "import pypto.language.distributed pld\n",
        "from pypto.language import distributed dist\n",
        "import pypto.language.distributed as pld, import\n", "import pypto.language.\n"}) {
    const auto m = fe::parse_module(std::string(line) + "x = 1\n");
    REQUIRE_MESSAGE(m.error, line);
    CHECK(m.error->message.starts_with("invalid syntax: expected "));
    CHECK(m.error->line == 1);
  }
  for (const char* line :
       {"import pypto.language.distributed as dist, os as o\n",
        "from pypto.language import (distributed as dist, jit as j)\n",
        "from pypto.language import distributed as dist; y = 2\n", "from . import match as case\n",
        "import os.path, sys\n", "from pypto.language import (distributed,)\n",
        "from .. import a\n", "from ...m import (a as b,\n    c,\n)\n", "from os import *\n",
        "from os import (a,  # why\n    b)\n"}) {
    const auto m = fe::parse_module(std::string(line) + "x = 1\n");
    CHECK_MESSAGE(!m.error, line);
  }
}

TEST_CASE("an import Python does not read is a syntax error where Python points") {
  // Each with the column Python 3.11 gives (ast.parse): the first token it cannot take,
  // or the statement's end.
  struct bad {
    const char* line;
    std::uint32_t column;
    std::string_view message;
  };
  for (const bad& b : {
           bad{"import pypto.language.distributed,", 35, "invalid syntax: expected "},
           bad{"import os, , sys", 12, "invalid syntax: expected "},
           bad{"import", 7, "invalid syntax: expected "},
           bad{"from pypto.language import distributed,", 40,
               "trailing comma not allowed without surrounding parentheses"},
           bad{"from os import a as b,", 23,
               "trailing comma not allowed without surrounding parentheses"},
           bad{"from import os", 6, "invalid syntax: expected "},
           bad{"from . import", 14, "invalid syntax: expected "},
           bad{"from os import ()", 17, "invalid syntax: expected "},
           bad{"from os import *, a", 17, "invalid syntax: expected "},
           bad{"from os import (a) b", 20, "invalid syntax: expected "},
           bad{"import os as", 13, "invalid syntax: expected "},
       }) {
    const auto m = fe::parse_module(std::string(b.line) + "\nx = 1\n");
    REQUIRE_MESSAGE(m.error, b.line);
    CHECK_MESSAGE(m.error->message.starts_with(b.message), b.line);
    CHECK(m.error->line == 1);
    CHECK_MESSAGE(m.error->column == b.column, b.line);
  }
  // In a function's body too.
  const auto m = fe::parse_module("def f():\n    import os,\n    return 0\n");
  REQUIRE(m.error);
  CHECK(m.error->line == 2);
  CHECK(m.error->column == 15);
}

TEST_CASE("a call on a comprehension's target keeps its arguments where the target grows the "
          "parser's stacks (fuzz finding)") {
  // Making `p.window` reads the comprehension's target `p`, which parses the clauses again
  // on the stack the call's arguments lie on: the arguments must be read after it (the
  // sanitizer build reports the read of a moved stack).
  const auto m = fe::parse_module(
      "import pypto.language as pl\n"
      "\n"
      "\n"
      "@pl.program\n"
      "class P:\n"
      "    @pl.function(type=p.window(b, [16], dtype=pl.FP32) for i, v in enumerate([va, x]) "
      "for p in zip([vb]))\n"
      "    def host(self, x):\n"
      "        return 0\n");
  // Unparenthesized, the generator is a syntax error, found after the call was made.
  REQUIRE(m.error);
  CHECK(m.error->line == 6);
  CHECK(m.error->column == 56);
}
