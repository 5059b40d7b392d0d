// Programs across modules (docs/commscope-opt.md): how an imported callee or constant is
// found, and that each module of a run is read once.
#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/imports.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
namespace fe = commscope::frontend;

namespace {

/// A scratch directory of module files, removed at the end of the test.
struct library {
  fs::path root;
  library() {
    static int counter = 0;
    root = fs::temp_directory_path() /
           ("commscope-imports-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~library() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  library(const library&) = delete;
  library& operator=(const library&) = delete;
  void write(const std::string& rel, std::string_view text) const {
    const fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  [[nodiscard]] std::string path(const std::string& rel) const { return (root / rel).string(); }
};

constexpr std::string_view chip = "import pypto.language as pl\n@pl.jit\ndef f(x, data):\n"
                                  "    return data\n";

/// A host program whose one allocation's view goes to `call(v, device=DEVICE)`, after
/// `imports`.
std::string host(std::string_view imports, std::string_view call, std::string_view device = "0") {
  return "import pypto.language as pl\nimport pypto.language.distributed as pld\n" +
         std::string(imports) +
         "\n@pl.jit.host\ndef host():\n    b = pld.alloc_window_buffer(64)\n"
         "    v = pld.window(b, [16], dtype=pl.FP32)\n    " +
         std::string(call) + "(v, v, device=" + std::string(device) + ")\n";
}

/// What became of the program: its plan's first domain ("{0}", "all") or its
/// diagnostics' codes.
std::string outcome(const std::string& src, const std::string& path, fe::module_loader& loader,
                    std::vector<std::pair<std::string, std::int64_t>> defines = {}) {
  fe::module_options o;
  o.stem = "host";
  o.path = path;
  o.imports = &loader;
  o.defines = std::move(defines);
  const auto m = fe::parse_module(src, o);
  if (m.error)
    return "syntax error: " + m.error->message;
  if (m.programs.size() != 1)
    return "programs: " + std::to_string(m.programs.size());
  std::string out;
  for (const auto& d : m.programs[0].diagnostics)
    out += d.code + (d.file.empty() ? "" : "@" + fs::path(d.file).filename().string()) + " ";
  if (!out.empty())
    return out;
  commscope::reference::program_ptr p = m.programs[0].program;
  const auto pl = commscope::analyze(p);
  for (const auto& d : pl.diagnostics)
    out += std::string(commscope::code_name(d.code)) + " ";
  if (!out.empty())
    return out;
  for (const auto& f : pl.functions)
    for (const auto& dom : f.domains) {
      out += "{";
      out += dom.devices.is_all() ? "all" : "";
      dom.devices.for_each([&](commscope::device_id id) { out += std::to_string(id); });
      out += "}";
    }
  return out;
}

} // namespace

TEST_CASE("an imported chip orchestrator is a dispatch target") {
  library lib;
  lib.write("layer.py", chip);
  fe::module_loader loader({}, {});
  CHECK(outcome(host("from layer import f", "f"), lib.path("host.py"), loader) == "{0}");
  CHECK(outcome(host("from layer import f as g", "g"), lib.path("host.py"), loader) == "{0}");
  CHECK(outcome(host("import layer", "layer.f"), lib.path("host.py"), loader) == "{0}");
  CHECK(outcome(host("import layer as L", "L.f"), lib.path("host.py"), loader) == "{0}");
  CHECK(loader.files_read() == 1); // once per run, however many files import it
}

TEST_CASE("decorators of imported functions give their kinds") {
  library lib;
  lib.write("k.py", "import pypto.language as pl\n"
                    "@pl.jit.inline\ndef i(x, y): ...\n@pl.jit.opaque\ndef o(x, y): ...\n"
                    "@pl.jit.extern\ndef e(x, y): ...\n@pl.jit.incore(core_num=2)\n"
                    "def c(x, y): ...\n@pl.jit.host\ndef h(x, y): ...\n");
  fe::module_loader loader({}, {});
  // Called, but no dispatch: the pass does not follow the view into them.
  for (const char* name : {"i", "o", "e", "c", "h"})
    CHECK(outcome(host(std::string("from k import ") + name, name), lib.path("host.py"), loader) ==
          "view-escapes ");
}

TEST_CASE("search order: own directory, then -I, then PYTHONPATH") {
  library lib;
  lib.write("own/layer.py", chip);
  lib.write("inc/layer.py", "import pypto.language as pl\n@pl.jit.host\ndef f(x, y): ...\n");
  lib.write("inc/only_inc.py", chip);
  lib.write("py/only_inc.py", "import pypto.language as pl\n@pl.jit.host\ndef f(x, y): ...\n");
  lib.write("py/only_py.py", chip);
  fe::module_loader loader({lib.path("inc")}, {lib.path("py")});
  const auto at = lib.path("own/host.py");
  CHECK(outcome(host("from layer import f", "f"), at, loader) == "{0}");
  CHECK(outcome(host("from only_inc import f", "f"), at, loader) == "{0}");
  CHECK(outcome(host("from only_py import f", "f"), at, loader) == "{0}");
  fe::module_loader bare({}, {});
  CHECK(outcome(host("from only_py import f", "f"), at, bare) == "malformed-op ");
}

TEST_CASE("relative imports and packages") {
  library lib;
  lib.write("pkg/__init__.py", "from .sub.deep import f\n");
  lib.write("pkg/sub/__init__.py", "");
  lib.write("pkg/sub/deep.py", chip);
  lib.write("pkg/sibling.py", chip);
  fe::module_loader loader({}, {});
  const auto in_sub = lib.path("pkg/sub/host.py");
  CHECK(outcome(host("from .deep import f", "f"), in_sub, loader) == "{0}");
  CHECK(outcome(host("from ..sibling import f", "f"), in_sub, loader) == "{0}");
  CHECK(outcome(host("from .. import f", "f"), in_sub, loader) == "{0}"); // the re-export
  CHECK(outcome(host("from pkg.sub.deep import f", "f"), lib.path("host.py"), loader) == "{0}");
  CHECK(outcome(host("import pkg.sub.deep as d", "d.f"), lib.path("host.py"), loader) == "{0}");
  CHECK(outcome(host("from pkg import f", "f"), lib.path("host.py"), loader) == "{0}");
  CHECK(outcome(host("from pkg import sibling", "sibling.f"), lib.path("host.py"), loader) ==
        "{0}");
}

TEST_CASE("an import cycle or a chain beyond 16 modules ends the search") {
  library lib;
  lib.write("a.py", "from b import f, g\n");
  lib.write("b.py", "from a import f\nfrom c import g\n");
  lib.write("c.py", std::string(chip.substr(0, chip.find("def f"))) + "def g(x, y): ...\n");
  fe::module_loader loader({}, {});
  const auto at = lib.path("host.py");
  CHECK(outcome(host("from a import f", "f"), at, loader) == "malformed-op ");
  CHECK(outcome(host("from a import g", "g"), at, loader) == "{0}"); // past the cycle
  // m0 re-exports from m1 ... which defines f: 16 modules resolve, 17 do not.
  for (int k = 0; k < 17; ++k)
    lib.write("m" + std::to_string(k) + ".py",
              k == 16 ? std::string(chip) : "from m" + std::to_string(k + 1) + " import f\n");
  CHECK(outcome(host("from m0 import f", "f"), at, loader) == "malformed-op ");
  CHECK(outcome(host("from m1 import f", "f"), at, loader) == "{0}");
}

TEST_CASE("imported integer constants") {
  library lib;
  lib.write("config.py", "N = 3\nM = N + 1\nTWICE = 1\nTWICE = 2\nF = 1.5\n");
  lib.write("again.py", "from config import M\n");
  lib.write("layer.py", chip);
  fe::module_loader loader({}, {});
  const auto at = lib.path("host.py");
  CHECK(outcome(host("from layer import f\nfrom config import N", "f", "N"), at, loader) == "{3}");
  CHECK(outcome(host("from layer import f\nimport config as C", "f", "C.M"), at, loader) == "{4}");
  CHECK(outcome(host("from layer import f\nfrom again import M", "f", "M"), at, loader) == "{4}");
  CHECK(outcome(host("from layer import f\nfrom config import TWICE", "f", "TWICE"), at, loader) ==
        "unsupported-device ");
  CHECK(outcome(host("from layer import f\nfrom config import F", "f", "F"), at, loader) ==
        "unsupported-device ");
  // -D first, then the file's own constants, then imported ones.
  CHECK(outcome(host("from layer import f\nfrom config import N", "f", "N"), at, loader,
                {{"N", 2}}) == "{2}");
}

TEST_CASE("a syntax error in an imported module rejects only what needs it") {
  library lib;
  lib.write("bad.py", "import pypto.language as pl\n@pl.jit\ndef f(x:\n    return x\n");
  lib.write("good.py", chip);
  fe::module_loader loader({}, {});
  CHECK(outcome(host("from bad import f", "f"), lib.path("host.py"), loader) == "syntax@bad.py ");
  CHECK(outcome(host("from bad import f\nfrom good import f as g", "g"), lib.path("host.py"),
                loader) == "{0}");
}

TEST_CASE("an unresolved callee's reason names the module and the directories") {
  library lib;
  fe::module_loader loader({lib.path("inc")}, {});
  fe::module_options o;
  const std::string file = lib.path("host.py"); // the options hold a view of it
  o.path = file;
  o.imports = &loader;
  const auto m = fe::parse_module(host("from nowhere import f", "f"), o);
  REQUIRE(m.programs.size() == 1);
  REQUIRE(m.programs[0].unresolved_callees.size() == 1);
  const auto& why = m.programs[0].unresolved_callees[0].second;
  CHECK(why.find("'nowhere'") != std::string::npos);
  CHECK(why.find(lib.path("inc")) != std::string::npos);
  CHECK(why.find("-I") != std::string::npos);
}

TEST_CASE("a library of many modules: each read once for all the files of a run") {
  library lib;
  constexpr int n = 200;
  lib.write("config.py", "SHARD = 128\n");
  for (int k = 0; k < n; ++k) {
    std::string text = "import pypto.language as pl\n";
    for (int j : {k - 1, k - 2}) // re-exports of the layers before
      if (j >= 0)
        text += "from layer" + std::to_string(j) + " import chip" + std::to_string(j) + "\n";
    text += "@pl.jit.inline\ndef helper(x): ...\n@pl.jit\ndef chip" + std::to_string(k) +
            "(x, y): ...\n";
    lib.write("layer" + std::to_string(k) + ".py", text);
  }
  fe::module_loader loader({}, {});
  for (int k = 0; k < n; ++k) {
    const std::string a = std::to_string(k), b = std::to_string(k);
    const std::string via = std::to_string(std::min(k + 1, n - 1));
    const std::string imports = "import config as C\nfrom layer" + via + " import chip" + b +
                                " as again\nimport layer" + a + " as L\n";
    CHECK(outcome(host(imports, "L.chip" + a, "C.SHARD"), lib.path("host.py"), loader) == "{128}");
    CHECK(outcome(host(imports, "again", "C.SHARD"), lib.path("host.py"), loader) == "{128}");
  }
  CHECK(loader.files_read() == n + 1);
}

TEST_CASE("@pl.jit.inline, opaque and extern functions of the file are functions of kind other") {
  fe::module_loader loader({}, {});
  for (const char* kind : {"inline", "opaque", "extern", "incore"}) {
    const std::string def = std::string("@pl.jit.") + kind + "\ndef k(x, y): ...\n";
    CHECK(outcome(host(def, "k"), "", loader) == "view-escapes "); // a call, no dispatch
  }
  // A decorator the DSL does not define: Python fails on it, and so does the program.
  CHECK(outcome(host("@pl.jit.unknown\ndef k(x, y): ...\n", "k"), "", loader) ==
        "unknown-decorator ");
}

TEST_CASE("one loader shared by files read on several threads") {
  library lib;
  constexpr int n = 64;
  for (int k = 0; k < n; ++k)
    lib.write(
        "layer" + std::to_string(k) + ".py",
        (k > 0
             ? "from layer" + std::to_string(k - 1) + " import chip" + std::to_string(k - 1) + "\n"
             : std::string()) +
            "import pypto.language as pl\n@pl.jit\ndef chip" + std::to_string(k) + "(x, y): ...\n");
  fe::module_loader loader({}, {});
  std::vector<std::string> results(4 * n);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < n; ++k) { // every thread asks for every module, re-exports too
        const int j = (k + 17 * t) % n;
        const std::string via = std::to_string(std::min(j + 1, n - 1));
        results[static_cast<std::size_t>(t * n + k)] =
            outcome(host("from layer" + via + " import chip" + std::to_string(j) + " as c", "c"),
                    lib.path("host.py"), loader);
      }
    });
  for (auto& th : threads)
    th.join();
  for (const auto& r : results)
    CHECK(r == "{0}");
  CHECK(loader.files_read() == n);
}

namespace {

/// A module of one host orchestrator `make` that returns `returned` (a view: `v`).
std::string maker(std::string_view returned = "v") {
  return "import pypto.language as pl\nimport pypto.language.distributed as pld\n"
         "@pl.jit\ndef f(x):\n    return x\n"
         "@pl.jit.host\ndef make():\n    b = pld.alloc_window_buffer(64)\n"
         "    v = pld.window(b, [16], dtype=pl.FP32)\n    f(v, device=0)\n    return " +
         std::string(returned) + "\n";
}

/// A module whose host orchestrator calls `call` after `imports`.
std::string caller(std::string_view imports, std::string_view call) {
  return "import pypto.language as pl\n" + std::string(imports) +
         "\n@pl.jit.host\ndef use():\n    got = " + std::string(call) + "()\n";
}

/// Which other file of the run calls the host of `maker.py` (a view-escapes at its
/// return), "" when none does, reading `files` (relative to `lib`) as the run's files.
std::string outside_caller(const library& lib, const std::vector<std::string>& files,
                           const std::string& maker_file = "maker.py") {
  fe::module_loader loader({}, {});
  std::vector<std::string> run;
  for (const auto& f : files)
    run.push_back(lib.path(f));
  loader.set_run_files(run);
  std::ifstream in(lib.path(maker_file), std::ios::binary);
  const std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fe::module_options o;
  o.stem = "maker";
  const std::string path = lib.path(maker_file);
  o.path = path;
  o.imports = &loader;
  const auto m = fe::parse_module(src, o);
  REQUIRE(m.programs.size() == 1);
  const auto& unit = m.programs[0];
  commscope::reference::program_ptr p = unit.program;
  bool escapes = false;
  for (const auto& d : commscope::analyze(p).diagnostics)
    escapes = escapes || d.why == commscope::reason::view_returned_to_callers;
  if (unit.called_from_other_files.empty()) {
    CHECK(!escapes);
    return "";
  }
  CHECK(escapes);
  const auto& c = unit.called_from_other_files.front();
  return c.host + " by " + c.function + " in " + fs::path(c.file).filename().string() + ":" +
         std::to_string(c.line);
}

} // namespace

TEST_CASE("a host that another file of the run imports and calls returns to that caller") {
  library lib;
  lib.write("maker.py", maker());
  lib.write("plain.py", caller("from maker import make", "make"));
  lib.write("alias.py", caller("from maker import make as build", "build"));
  lib.write("attribute.py", caller("import maker as m", "m.make"));
  lib.write("star.py", caller("from maker import *", "make"));
  lib.write("relay.py", "from maker import make\n");
  lib.write("via_relay.py", caller("from relay import make", "make"));
  lib.write("pkg/__init__.py", "from .inner import make\n");
  lib.write("pkg/inner.py", maker());
  lib.write("pkg/sibling.py", caller("from . import make", "make"));
  lib.write("mentions.py", "# make() from maker is called elsewhere\nmake = None\n");
  lib.write("runtime.py", "from maker import make\nif __name__ == '__main__':\n    make()\n");
  const std::vector<std::string> quiet{"maker.py", "relay.py", "mentions.py", "runtime.py"};
  CHECK(outside_caller(lib, quiet) == "");
  for (const auto& [file, expected] : std::vector<std::pair<std::string, std::string>>{
           {"plain.py", "make by use in plain.py:5"},
           {"alias.py", "make by use in alias.py:5"},
           {"attribute.py", "make by use in attribute.py:5"},
           {"star.py", "make by use in star.py:5"},
           {"via_relay.py", "make by use in via_relay.py:5"}}) {
    CAPTURE(file);
    auto files = quiet;
    files.push_back(file);
    CHECK(outside_caller(lib, files) == expected);
  }
  // Inside a package, `from . import make` reaches the package's re-export.
  CHECK(outside_caller(lib, {"pkg/__init__.py", "pkg/inner.py"}, "pkg/inner.py") == "");
  CHECK(outside_caller(lib, {"pkg/__init__.py", "pkg/inner.py", "pkg/sibling.py"},
                       "pkg/inner.py") == "make by use in sibling.py:5");
  // An absolute import of the library's own module from a directory below it, which
  // Python finds from the directory it runs in.
  lib.write("app/deep.py", caller("from maker import make", "make"));
  CHECK(outside_caller(lib, {"maker.py", "app/deep.py"}) == "make by use in deep.py:5");
  // A file that is not among the run's files is not searched.
  CHECK(outside_caller(lib, {"maker.py"}) == "");
}

TEST_CASE("a host that returns literals alone is not looked up") {
  library lib;
  lib.write("maker.py", maker("0"));
  lib.write("plain.py", caller("from maker import make", "make"));
  CHECK(outside_caller(lib, {"maker.py", "plain.py"}) == "");
  lib.write("maker.py", maker("v, 0"));
  CHECK(outside_caller(lib, {"maker.py", "plain.py"}) == "make by use in plain.py:5");
}
