// commscope-opt: runs the pass on a program in the text form (../../shared/spec/cli.md is
// the contract: flags, exit statuses, the JSON plan and the diagnostics format).
#include <commscope/commscope.hpp>
#include <commscope/reference/parser.hpp>
#include <commscope/reference/printer.hpp>
#include <commscope/reference/source_rewrite.hpp>
#include <commscope/reference/traits.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define COMMSCOPE_OPT_HUGE_PAGES 1
#endif

namespace {

namespace ref = commscope::reference;
using json = nlohmann::ordered_json; // members in the order cli.md shows them

constexpr int exit_ok = 0;
constexpr int exit_rejected = 1;
constexpr int exit_usage = 2;
constexpr int exit_syntax = 3;

constexpr std::string_view usage =
    "usage: commscope-opt [--emit=plan|ir|both] [--verify] [--explain] [--no-synthesize-signals]\n"
    "                     [-D NAME=INT]... [FILE | -]\n";

// The main job on an embedded default: two comm domains, a collective and a loop.
constexpr std::string_view builtin_program = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Example:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: pld.DistributedTensor[[256], pl.FP32]):
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(self, data: pld.DistributedTensor[[256], pl.FP32]):
        out = self.scale(data)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
        signal = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
        stage = pld.alloc_window_buffer(64 * pl.FP16.get_byte(), name="staging")
        data = pld.window(buf, [256], dtype=pl.FP32)
        sig = pld.window(signal, [pld.world_size()], dtype=pl.INT32)
        part = pld.window(stage, [64], dtype=pl.FP16)
        for r in pl.range(pld.world_size()):
            self.chip_orch(data, device=r)
        data = pld.tensor.allreduce(data, sig, op="sum")
        for d in pl.range(0, 2):
            self.chip_orch(part, device=d)
        return 0
)";

enum class emit_kind { plan, ir, both };

struct options {
  emit_kind emit = emit_kind::plan;
  bool verify = false;
  bool explain = false;           ///< slots gain "evidence"
  bool synthesize_signals = true; ///< the companion pass runs first
  bool help = false;
  std::vector<std::pair<std::string, std::int64_t>> defines; ///< -D NAME=INT
  std::optional<std::string> file; ///< "-" is standard input; none is the built-in example
};

struct usage_error {
  std::string message;
};

/// NAME=INT of `-D`, with NAME an identifier and INT a decimal integer (sign allowed).
std::pair<std::string, std::int64_t> parse_define(std::string_view d) {
  const auto eq = d.find('=');
  const std::string_view name = eq == std::string_view::npos ? d : d.substr(0, eq);
  if (eq == std::string_view::npos || !ref::is_plain_name(name))
    throw usage_error{"malformed -D '" + std::string(d) + "': expected NAME=INT"};
  std::string_view v = d.substr(eq + 1);
  const bool negative = v.starts_with('-');
  if (negative || v.starts_with('+'))
    v.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (v.empty() || ec != std::errc{} || end != v.data() + v.size())
    throw usage_error{"malformed -D '" + std::string(d) +
                      "': expected NAME=INT (a 64-bit integer)"};
  return {std::string(name), negative ? -value : value};
}

options parse_arguments(int argc, char** argv) {
  options o;
  bool only_files = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (!only_files && a == "--") {
      only_files = true;
    } else if (!only_files && a.starts_with("--emit=")) {
      const std::string_view v = a.substr(7);
      if (v == "plan")
        o.emit = emit_kind::plan;
      else if (v == "ir")
        o.emit = emit_kind::ir;
      else if (v == "both")
        o.emit = emit_kind::both;
      else
        throw usage_error{"unknown --emit value '" + std::string(v) + "' (plan, ir or both)"};
    } else if (!only_files && a == "--verify") {
      o.verify = true;
    } else if (!only_files && a == "--no-synthesize-signals") {
      o.synthesize_signals = false;
    } else if (!only_files && a == "--explain") {
      o.explain = true;
    } else if (!only_files && a.starts_with("-D")) {
      std::string_view d = a.substr(2);
      if (d.empty()) {
        if (i + 1 >= argc)
          throw usage_error{"-D needs NAME=INT"};
        d = argv[++i];
      }
      o.defines.push_back(parse_define(d));
    } else if (!only_files && (a == "--help" || a == "-h")) {
      o.help = true;
    } else if (!only_files && a.size() > 1 && a[0] == '-') {
      throw usage_error{"unknown option '" + std::string(a) + "'"};
    } else {
      if (o.file)
        throw usage_error{"more than one input file"};
      o.file = std::string(a);
    }
  }
  return o;
}

/// Reads the input; nullopt (after a message) when it cannot be read.
std::optional<std::string> read_input(const std::string& path) {
  if (path == "-") {
    std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    if (std::cin.bad()) {
      std::cerr << "commscope-opt: error: cannot read standard input\n";
      return std::nullopt;
    }
    return text;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::cerr << "commscope-opt: error: cannot read '" << path << "': is a directory\n";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "commscope-opt: error: cannot open '" << path << "'\n";
    return std::nullopt;
  }
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) {
    std::cerr << "commscope-opt: error: cannot read '" << path << "'\n";
    return std::nullopt;
  }
  return std::move(s).str();
}

#ifdef COMMSCOPE_OPT_HUGE_PAGES
/// A large program is a few hundred MB of small IR nodes, and first-touch page faults,
/// not the parse or the pass, dominate the run time (3x on a virtual machine). Reserve
/// the heap's top in one step and ask for transparent huge pages on it (a hint; a
/// kernel without them ignores it). Only the pages actually used are ever backed.
void prefer_huge_pages() {
#if defined(__SANITIZE_ADDRESS__)
  return; // the sanitizer's allocator owns the heap
#endif
  constexpr int pad = 512 << 20;
  if (mallopt(M_TOP_PAD, pad) == 0 || mallopt(M_TRIM_THRESHOLD, 2 * pad) == 0 ||
      mallopt(M_MMAP_THRESHOLD, 32 << 20) == 0)
    return;
  auto* const before = static_cast<char*>(sbrk(0));
  // Past the current top, so brk grows by the pad (volatile: the pair must not be elided).
  void* volatile grow = std::malloc(1 << 20);
  auto* const after = static_cast<char*>(sbrk(0));
  std::free(grow);
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  const auto first = (reinterpret_cast<std::uintptr_t>(before) + huge - 1) & ~(huge - 1);
  const auto last = reinterpret_cast<std::uintptr_t>(after) & ~(huge - 1);
  if (before != reinterpret_cast<char*>(-1) && last > first)
    (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}
#else
void prefer_huge_pages() {}
#endif

struct note_line {
  std::string message;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct finding {
  std::string code;
  std::string message;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::size_t order = 0;
  std::vector<note_line> notes;
};

/// A library diagnostic as a finding, with its notes.
template <class Diagnostic> finding finding_of(const Diagnostic& d, std::string message) {
  finding f{std::string(commscope::code_name(d.code)),
            std::move(message),
            d.where.line,
            d.where.column,
            0,
            {}};
  for (const auto& n : d.notes)
    f.notes.push_back({n.message(), n.where.line, n.where.column});
  return f;
}

/// Sorts findings by location; ties keep the order they were found in.
void in_source_order(std::vector<finding>& findings) {
  for (std::size_t i = 0; i < findings.size(); ++i)
    findings[i].order = i;
  std::sort(findings.begin(), findings.end(), [](const finding& a, const finding& b) {
    if (a.line != b.line)
      return a.line < b.line;
    return a.column != b.column ? a.column < b.column : a.order < b.order;
  });
}

using plan_type = commscope::plan<commscope::ir_traits<ref::program_ptr>>;
using function_plan_type = commscope::function_plan<commscope::ir_traits<ref::program_ptr>>;

json location_json(json j, ref::source_location at) {
  j["line"] = at.line;
  j["column"] = at.column;
  return j;
}

json devices_json(const commscope::device_set<commscope::boost_storage>& devices) {
  if (devices.is_all())
    return "all";
  json devs = json::array();
  devices.for_each([&](commscope::device_id id) { devs.push_back(id); });
  return devs;
}

/// cli.md, `--explain`: the contributions that made one allocation's descriptor.
json evidence_json(const function_plan_type& fp, std::uint32_t allocation) {
  using kind = commscope::contribution<commscope::ir_traits<ref::program_ptr>>::kind;
  json out = json::array();
  for (const auto& c : fp.evidence_of(allocation)) {
    json e = json::object();
    if (c.what == kind::dispatch) {
      e["kind"] = "dispatch";
      e["callee"] = std::string(c.callee);
      e = location_json(std::move(e), c.where);
      e["devices"] = devices_json(c.devices);
      const auto* v = c.passed_view < fp.views.size() ? fp.views[c.passed_view].variable : nullptr;
      e["view"] = v ? std::string(v->name.view()) : std::string();
      if (c.from_loop)
        e["loop"] = location_json(json::object(), c.loop);
    } else {
      e["kind"] = "inherited";
      e["from"] =
          c.from < fp.allocations.size() ? std::string(fp.allocations[c.from].name) : std::string();
      e["collective"] = std::string(c.callee);
      e = location_json(std::move(e), c.where);
    }
    out.push_back(std::move(e));
  }
  return out;
}

json function_json(const function_plan_type& fp, bool explain) {
  json f = json::object();
  f["name"] = std::string(fp.name);
  json scopes = json::array();
  for (std::size_t d = 0; d < fp.domains.size(); ++d) {
    const auto& dom = fp.domains[d];
    json s = json::object();
    s["name"] = dom.name.empty() ? std::string(commscope::detail::scope_name(d).view())
                                 : std::string(dom.name);
    s["devices"] = devices_json(dom.devices);
    json slots = json::array();
    for (const auto a : dom.slots) {
      const auto& alloc = fp.allocations[a];
      json slot = json::object();
      slot["name"] = std::string(alloc.name);
      slot["size"] = alloc.size ? ref::print_expression(*alloc.size) : std::string();
      if (explain)
        slot["evidence"] = evidence_json(fp, a);
      slots.push_back(std::move(slot));
    }
    s["slots"] = std::move(slots);
    scopes.push_back(std::move(s));
  }
  f["scopes"] = std::move(scopes);
  json views = json::array();
  for (const auto& v : fp.views) {
    json j = json::object();
    j["name"] = v.variable ? std::string(v.variable->name.view()) : std::string();
    j["window_buffer"] = v.allocation < fp.allocations.size()
                             ? std::string(fp.allocations[v.allocation].name)
                             : std::string();
    views.push_back(std::move(j));
  }
  f["views"] = std::move(views);
  return f;
}

/// What a program of the file became: its JSON entry, its findings, its rewritten
/// host bodies (byte range in the source -> printed text).
struct program_outcome {
  json entry;
  std::vector<finding> findings;
  std::vector<ref::body_edit> rewritten;
};

/// cli.md: an `unsupported-device` whose device= depends on a name the file leaves
/// open names it and suggests -D.
std::string with_open_names(std::string message, const ref::program_unit& unit,
                            ref::source_location at) {
  std::vector<std::string_view> names;
  for (const auto& [where, name] : unit.open_names)
    if (where == at && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  for (std::size_t i = 0; i < names.size(); ++i) {
    message += i ? "; " : ": ";
    message += "'" + std::string(names[i]) +
               "' is not bound to an integer constant in this file (bind it with -D " +
               std::string(names[i]) + "=INT)";
  }
  return message;
}

/// A `device=` literal beyond 64 bits is judged as the nearest 64-bit value; the message
/// shows it as written.
std::string with_literal_device(std::string message, const ref::program_unit& unit,
                                ref::source_location at, std::int64_t number) {
  for (const auto& [where, text] : unit.huge_devices) {
    if (where != at)
      continue;
    const std::string shown = std::to_string(number);
    if (auto p = message.find(shown); p != std::string::npos)
      message.replace(p, shown.size(), text);
    break;
  }
  return message;
}

program_outcome run_program(const ref::program_unit& unit, const options& opt,
                            std::string_view newline) {
  program_outcome out;
  out.entry = json::object();
  out.entry["name"] = unit.name;
  out.entry["line"] = unit.line;
  for (const auto& d : unit.diagnostics)
    out.findings.push_back({d.code, d.message, d.where.line, d.where.column, 0, {}});
  ref::program_ptr prog = unit.program;
  const ref::program_ptr original = prog;
  const commscope::ir_traits<ref::program_ptr> traits;
  // The companion pass first (pass.md): a program it rejects goes no further.
  if (opt.synthesize_signals && out.findings.empty())
    for (const auto& d : commscope::synthesize_signals(prog, traits))
      out.findings.push_back(finding_of(d, d.message()));
  json functions = json::array();
  if (!out.findings.empty()) {
    in_source_order(out.findings);
    out.entry["functions"] = std::move(functions);
    return out;
  }
  const ref::program_ptr analysed = prog; // the plan's handles point into it
  const auto pl = opt.explain ? commscope::analyze(prog, traits, commscope::with_evidence)
                              : commscope::analyze(prog, traits);
  for (const auto& d : pl.diagnostics) {
    std::string message = d.message();
    if (d.code == commscope::error_code::unsupported_device)
      message = with_open_names(std::move(message), unit, d.where);
    if (d.code == commscope::error_code::device_out_of_range ||
        d.code == commscope::error_code::negative_device)
      message = with_literal_device(std::move(message), unit, d.where, d.number);
    out.findings.push_back(finding_of(d, std::move(message)));
  }
  if (out.findings.empty()) {
    commscope::materialize(prog, pl, traits);
    if (opt.verify)
      for (const auto& d : commscope::verify(prog, traits))
        out.findings.push_back(finding_of(d, d.message()));
  }
  if (out.findings.empty()) {
    for (const auto& fp : pl.functions)
      functions.push_back(function_json(fp, opt.explain));
    out.rewritten = ref::rewritten_bodies(unit, *original, *prog, newline);
  }
  in_source_order(out.findings);
  out.entry["functions"] = std::move(functions);
  return out;
}

int run(int argc, char** argv) {
  options opt;
  try {
    opt = parse_arguments(argc, argv);
  } catch (const usage_error& e) {
    std::cerr << "commscope-opt: error: " << e.message << '\n' << usage;
    return exit_usage;
  }
  if (opt.help) {
    std::cout << usage;
    return exit_ok;
  }

  prefer_huge_pages();
  std::string display = "<builtin>";
  std::string stem = "builtin";
  std::string text;
  if (opt.file) {
    display = *opt.file == "-" ? "<stdin>" : *opt.file;
    stem = *opt.file == "-" ? "stdin" : std::filesystem::path(*opt.file).stem().string();
    auto t = read_input(*opt.file);
    if (!t)
      return exit_usage;
    text = std::move(*t);
  } else {
    text = std::string(builtin_program);
  }

  ref::module_options mo;
  mo.stem = stem;
  mo.defines = opt.defines;
  const auto module = ref::parse_module(text, mo);

  std::vector<finding> findings;
  json programs = json::array();
  std::vector<ref::body_edit> edits;
  int status = exit_ok;
  if (module.error) {
    const auto& e = *module.error;
    findings.push_back({"syntax", e.message, e.line, e.column, 0, {}});
    status = exit_syntax;
  } else {
    for (const auto& unit : module.programs) {
      auto outcome = run_program(unit, opt, module.newline);
      if (!outcome.findings.empty())
        status = exit_rejected;
      for (auto& f : outcome.findings)
        findings.push_back(std::move(f));
      for (auto& e : outcome.rewritten)
        edits.push_back(std::move(e));
      programs.push_back(std::move(outcome.entry));
    }
    in_source_order(findings);
  }

  json result = json::object();
  result["programs"] = std::move(programs);
  json diagnostics = json::array();
  for (const auto& f : findings) {
    std::cerr << display << ':' << f.line << ':' << f.column << ": error: " << f.message << " ["
              << f.code << "]\n";
    json notes = json::array();
    for (const auto& n : f.notes) {
      std::cerr << display << ':' << n.line << ':' << n.column << ": note: " << n.message << '\n';
      json j = json::object();
      j["message"] = n.message;
      notes.push_back(location_json(std::move(j), {n.line, n.column}));
    }
    json d = json::object();
    d["code"] = f.code;
    d["message"] = f.message;
    d["line"] = f.line;
    d["column"] = f.column;
    d["notes"] = std::move(notes);
    diagnostics.push_back(std::move(d));
  }
  result["diagnostics"] = std::move(diagnostics);

  std::optional<std::string> ir;
  if (status != exit_syntax)
    ir = ref::splice_bodies(text, std::move(edits), module.newline);

  // Names and strings come from arbitrary input bytes: replace invalid UTF-8, never throw.
  const auto dump = [](const json& j) {
    return j.dump(2, ' ', false, json::error_handler_t::replace);
  };
  switch (opt.emit) {
  case emit_kind::plan:
    std::cout << dump(result) << '\n';
    break;
  case emit_kind::ir:
    if (ir)
      std::cout << *ir;
    break;
  case emit_kind::both:
    result["ir"] = ir ? json(*ir) : json(nullptr);
    std::cout << dump(result) << '\n';
    break;
  }
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "commscope-opt: error: cannot write standard output\n";
    return exit_usage;
  }
  return status;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "commscope-opt: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "commscope-opt: internal error\n";
  }
  return exit_usage;
}
