// commscope-opt: runs the pass on a program in the text form (../../../shared/spec/cli.md is
// the contract: flags, exit statuses, the JSON plan and the diagnostics format).
#include "dot.hpp"
#include "finding.hpp"
#include "inputs.hpp"
#include "json_writer.hpp"
#include "sarif.hpp"

#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/imports.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#define COMMSCOPE_OPT_POSIX 1
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

namespace ref = commscope::reference;
namespace fe = commscope::frontend;
using json = nlohmann::ordered_json; // members in the order cli.md shows them

constexpr int exit_ok = 0;
constexpr int exit_rejected = 1;
constexpr int exit_usage = 2;
constexpr int exit_syntax = 3;

constexpr std::string_view usage =
    "usage: commscope-opt [--emit=plan|ir|both|dot] [--format=json|sarif] [--verify] [--explain]\n"
    "                     [--no-synthesize-signals] [-D NAME=INT]... [-I DIR]... [-j N]\n"
    "                     [PATH... | -]\n";

#ifndef COMMSCOPE_VERSION
#define COMMSCOPE_VERSION "0.0.0"
#endif

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

enum class emit_kind { plan, ir, both, dot };
enum class output_format { json, sarif };

struct options {
  emit_kind emit = emit_kind::plan;
  output_format format = output_format::json;
  unsigned jobs = 0; ///< -j; 0 is the number of cores
  bool verify = false;
  bool explain = false;           ///< slots gain "evidence"
  bool synthesize_signals = true; ///< the companion pass runs first
  bool help = false;
  std::vector<std::pair<std::string, std::int64_t>> defines; ///< -D NAME=INT
  std::vector<std::string> include_dirs;                     ///< -I DIR
  std::vector<std::string> paths; ///< "-" is standard input; none is the built-in example
  /// The modules imported by the files of the run, each read once (cli.md, "Programs
  /// across modules"); shared by the files analysed concurrently.
  fe::module_loader* loader = nullptr;
};

struct usage_error {
  std::string message;
};

/// NAME=INT of `-D`, with NAME an identifier and INT a decimal integer (sign allowed).
std::pair<std::string, std::int64_t> parse_define(std::string_view d) {
  const auto eq = d.find('=');
  const std::string_view name = eq == std::string_view::npos ? d : d.substr(0, eq);
  if (eq == std::string_view::npos || !fe::is_plain_name(name))
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
      else if (v == "dot")
        o.emit = emit_kind::dot;
      else
        throw usage_error{"unknown --emit value '" + std::string(v) + "' (plan, ir, both or dot)"};
    } else if (!only_files && a.starts_with("--format=")) {
      const std::string_view v = a.substr(9);
      if (v == "json")
        o.format = output_format::json;
      else if (v == "sarif")
        o.format = output_format::sarif;
      else
        throw usage_error{"unknown --format value '" + std::string(v) + "' (json or sarif)"};
    } else if (!only_files && a.starts_with("-j")) {
      std::string_view n = a.substr(2);
      if (n.empty()) {
        if (i + 1 >= argc)
          throw usage_error{"-j needs a number of files"};
        n = argv[++i];
      }
      unsigned jobs = 0;
      const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), jobs);
      if (n.empty() || ec != std::errc{} || end != n.data() + n.size() || jobs == 0)
        throw usage_error{"malformed -j '" + std::string(n) + "': expected a positive integer"};
      o.jobs = jobs;
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
    } else if (!only_files && a.starts_with("-I")) {
      std::string_view d = a.substr(2);
      if (d.empty()) {
        if (i + 1 >= argc)
          throw usage_error{"-I needs a directory"};
        d = argv[++i];
      }
      o.include_dirs.emplace_back(d);
    } else if (!only_files && (a == "--help" || a == "-h")) {
      o.help = true;
    } else if (!only_files && a.size() > 1 && a[0] == '-') {
      throw usage_error{"unknown option '" + std::string(a) + "'"};
    } else {
      o.paths.emplace_back(a);
    }
  }
  if (o.format == output_format::sarif && o.emit != emit_kind::plan)
    throw usage_error{"--format=sarif replaces the output of --emit: use one of them"};
  return o;
}

/// Reads the input; nullopt when it cannot be read, with the message in `error`.
std::optional<std::string> read_input(const std::string& path, std::string& error) {
  if (path == "-") {
    std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    if (std::cin.bad()) {
      error = "cannot read standard input";
      return std::nullopt;
    }
    return text;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "cannot read '" + path + "': is a directory";
    return std::nullopt;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "cannot open '" + path + "'";
    return std::nullopt;
  }
  // One read of the whole file (its size as a hint: a growing file is read to its end).
  std::string text;
  const auto size = std::filesystem::file_size(path, ec);
  text.resize(ec ? std::size_t{1} << 16 : static_cast<std::size_t>(size) + 1);
  std::size_t used = 0;
  bool failed = false;
  while (true) {
    used += std::fread(text.data() + used, 1, text.size() - used, f);
    if (used < text.size()) {
      failed = std::ferror(f) != 0;
      break;
    }
    text.resize(text.size() * 2);
  }
  std::fclose(f);
  if (failed) {
    error = "cannot read '" + path + "'";
    return std::nullopt;
  }
  text.resize(used);
  return text;
}

using commscope::opt::json_writer;

/// Whether standard output and standard error are one file (a terminal, `2>&1`): then
/// the JSON is held back until the diagnostics are written, as they always come first.
bool same_output_streams() {
#ifdef COMMSCOPE_OPT_POSIX
  struct stat out {
  }, err{};
  if (fstat(1, &out) != 0 || fstat(2, &err) != 0)
    return true;
  return out.st_dev == err.st_dev && out.st_ino == err.st_ino;
#else
  return true;
#endif
}

using commscope::opt::finding;
using commscope::opt::note_line;

/// A library diagnostic as a finding, with its notes.
template <class Diagnostic> finding finding_of(const Diagnostic& d, std::string message) {
  finding f{std::string(commscope::code_name(d.code)),
            std::move(message),
            d.where.line,
            d.where.column,
            0,
            {},
            {},
            {}};
  for (const auto& n : d.notes)
    f.notes.push_back({n.message(), n.where.line, n.where.column});
  return f;
}

/// Sorts findings by location; ties keep the order they were found in.
void in_source_order(std::vector<finding>& findings) {
  for (std::size_t i = 0; i < findings.size(); ++i)
    findings[i].order = i;
  // A finding located in another file stands where its first note is in the input.
  const auto at = [](const finding& f) {
    if (!f.file.empty() && !f.notes.empty())
      return std::pair(f.notes.front().line, f.notes.front().column);
    return std::pair(f.line, f.column);
  };
  std::sort(findings.begin(), findings.end(), [&](const finding& a, const finding& b) {
    const auto x = at(a), y = at(b);
    return x != y ? x < y : a.order < b.order;
  });
}

using plan_type = commscope::plan<commscope::ir_traits<ref::program_ptr>>;
using function_plan_type = commscope::function_plan<commscope::ir_traits<ref::program_ptr>>;

void location_members(json_writer& out, ref::source_location at) {
  out.member("line", at.line);
  out.member("column", at.column);
}

void devices_value(json_writer& out, const commscope::device_set& devices) {
  if (devices.is_all())
    return out.value(std::string_view("all"));
  out.begin_array();
  devices.for_each([&](commscope::device_id id) { out.value(std::int64_t{id}); });
  if (devices.has_progressions()) // pass.md, "Symbolic device sets": the JSON form
    for (const commscope::device_progression p : devices.progressions()) {
      out.begin_object();
      out.member("start", std::int64_t{p.start});
      out.member("step", std::int64_t{p.step});
      out.member("stop", p.stop_offset == 0 ? std::string("world_size")
                                            : "world_size - " + std::to_string(p.stop_offset));
      out.end_object();
    }
  out.end_array();
}

/// cli.md, `--explain`: the contributions that made one allocation's descriptor.
void evidence_value(json_writer& out, const function_plan_type& fp, std::uint32_t allocation) {
  using kind = commscope::contribution<commscope::ir_traits<ref::program_ptr>>::kind;
  out.begin_array();
  for (const auto& c : fp.evidence_of(allocation)) {
    out.begin_object();
    if (c.what == kind::dispatch) {
      out.member("kind", std::string_view("dispatch"));
      out.member("callee", std::string_view(c.callee));
      location_members(out, c.where);
      out.key("devices");
      devices_value(out, c.devices);
      const auto* v = c.passed_view < fp.views.size() ? fp.views[c.passed_view].variable : nullptr;
      out.member("view", v ? v->name.view() : std::string_view());
      if (c.from_loop) {
        out.key("loop");
        out.begin_object();
        location_members(out, c.loop);
        out.end_object();
      }
    } else {
      out.member("kind", std::string_view("inherited"));
      out.member("from", c.from < fp.allocations.size()
                             ? std::string_view(fp.allocations[c.from].name)
                             : std::string_view());
      out.member("collective", std::string_view(c.callee));
      location_members(out, c.where);
    }
    out.end_object();
  }
  out.end_array();
}

void function_value(json_writer& out, const function_plan_type& fp, bool explain) {
  // Each allocation's name and printed size, made first in allocation order (the order
  // the plan and the IR lie in memory), then written domain by domain.
  std::string texts;
  std::vector<std::uint32_t> text_at;
  text_at.reserve(2 * fp.allocations.size() + 1);
  for (const auto& alloc : fp.allocations) {
    text_at.push_back(static_cast<std::uint32_t>(texts.size()));
    texts += alloc.name;
    text_at.push_back(static_cast<std::uint32_t>(texts.size()));
    if (alloc.size)
      fe::append_expression(texts, *alloc.size);
  }
  text_at.push_back(static_cast<std::uint32_t>(texts.size()));
  const auto text_of = [&](std::size_t k) {
    return std::string_view(texts).substr(text_at[k], text_at[k + 1] - text_at[k]);
  };

  out.begin_object();
  out.member("name", std::string_view(fp.name));
  out.key("scopes");
  out.begin_array();
  for (std::size_t d = 0; d < fp.domains.size(); ++d) {
    const auto& dom = fp.domains[d];
    out.begin_object();
    if (dom.name.empty())
      out.member("name", commscope::detail::scope_name(d).view());
    else
      out.member("name", std::string_view(dom.name));
    out.key("devices");
    devices_value(out, dom.devices);
    out.key("slots");
    out.begin_array();
    for (const auto a : dom.slots) {
      out.begin_object();
      out.member("name", text_of(2 * std::size_t{a}));
      out.member("size", text_of(2 * std::size_t{a} + 1));
      if (explain) {
        out.key("evidence");
        evidence_value(out, fp, a);
      }
      out.end_object();
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();
  out.key("views");
  out.begin_array();
  for (const auto& v : fp.views) {
    out.begin_object();
    out.member("name", v.variable ? v.variable->name.view() : std::string_view());
    out.member("window_buffer", v.allocation < fp.allocations.size()
                                    ? text_of(2 * std::size_t{v.allocation})
                                    : std::string_view());
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

/// What a program of the file became: its findings and its rewritten host bodies (byte
/// range in the source -> printed text); its JSON entry is written as it is made.
struct program_outcome {
  std::vector<finding> findings;
  std::vector<fe::body_edit> rewritten;
};

/// cli.md: an `unsupported-device` whose device= depends on a name the file leaves
/// open names it and suggests -D; `help` gets the nearest name in scope, if one is near.
std::string with_open_names(std::string message, const fe::program_unit& unit,
                            ref::source_location at, std::string& help) {
  for (const auto& s : unit.name_suggestions)
    if (s.call == at && help.empty())
      help = "did you mean '" + s.suggestion + "'?";
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

/// cli.md: an `unconsumed-alloc` whose view is passed to a chip orchestrator in a call
/// without device= points at that call, which dispatches nothing.
void with_undispatched_calls(finding& f, const fe::program_unit& unit) {
  const std::size_t views = f.notes.size();
  for (std::size_t i = 0; i < views; ++i)
    for (const auto& u : unit.undispatched_views) {
      if (u.view.line != f.notes[i].line || u.view.column != f.notes[i].column)
        continue;
      const std::string message =
          "'" + u.callee + "' is called here without device=: the call is no dispatch";
      bool seen = false;
      for (const auto& n : f.notes)
        seen = seen || (n.line == u.call.line && n.column == u.call.column && n.message == message);
      if (seen)
        continue;
      f.notes.push_back({message, u.call.line, u.call.column});
      if (f.help.empty())
        f.help = "pass device=... to the call of '" + u.callee + "' to dispatch the view";
    }
}

/// A `device=` literal beyond 64 bits is judged as the nearest 64-bit value; the message
/// shows it as written.
std::string with_literal_device(std::string message, const fe::program_unit& unit,
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

/// `picture`, when drawing (`--emit=dot`), gains the program's cluster.
program_outcome run_program(const fe::program_unit& unit, const options& opt,
                            std::string_view newline, json_writer& out,
                            commscope::opt::dot::graph_writer* picture) {
  if (picture)
    picture->begin_program(unit.name, unit.line);
  program_outcome result;
  out.begin_object();
  out.member("name", std::string_view(unit.name));
  out.member("line", unit.line);
  out.key("functions");
  out.begin_array();
  for (const auto& d : unit.diagnostics) {
    result.findings.push_back(
        {d.code, d.message, d.where.line, d.where.column, 0, {}, d.file, d.help});
    for (const auto& [message, at] : d.notes)
      result.findings.back().notes.push_back({message, at.line, at.column});
  }
  ref::program_ptr prog = unit.program;
  const ref::program_ptr original = prog;
  const commscope::ir_traits<ref::program_ptr> traits;
  // The companion pass first (pass.md): a program it rejects goes no further.
  if (opt.synthesize_signals && result.findings.empty())
    for (const auto& d : commscope::synthesize_signals(prog, traits))
      result.findings.push_back(finding_of(d, d.message()));
  if (!result.findings.empty()) {
    in_source_order(result.findings);
    if (picture) {
      picture->rejected(result.findings);
      picture->end_program(false);
    }
    out.end_array();
    out.end_object();
    return result;
  }
  const ref::program_ptr analysed = prog; // the plan's handles point into it
  // The picture draws the evidence's dispatches and collectives.
  const auto pl = opt.explain || picture
                      ? commscope::analyze(prog, traits, commscope::with_evidence)
                      : commscope::analyze(prog, traits);
  for (const auto& d : pl.diagnostics) {
    std::string message = d.message();
    std::string help;
    if (d.code == commscope::error_code::unsupported_device)
      message = with_open_names(std::move(message), unit, d.where, help);
    if (d.code == commscope::error_code::malformed_op && d.why == commscope::reason::unknown_callee)
      for (const auto& [where, why] : unit.unresolved_callees)
        if (where == d.where) {
          message += ": " + why;
          break;
        }
    if (d.code == commscope::error_code::device_out_of_range ||
        d.code == commscope::error_code::negative_device)
      message = with_literal_device(std::move(message), unit, d.where, d.number);
    result.findings.push_back(finding_of(d, std::move(message)));
    result.findings.back().help = std::move(help);
    if (d.code == commscope::error_code::unconsumed_alloc)
      with_undispatched_calls(result.findings.back(), unit);
  }
  // The rewritten IR is seen only through --emit=ir/both and --verify; materialize
  // reports nothing, so a plan-only run skips it (a tenth of a large file's time).
  const bool rewritten_seen =
      opt.verify || opt.emit == emit_kind::ir || opt.emit == emit_kind::both;
  if (result.findings.empty() && rewritten_seen) {
    commscope::materialize(prog, pl, traits);
    if (opt.verify)
      for (const auto& d : commscope::verify(prog, traits))
        result.findings.push_back(finding_of(d, d.message()));
  }
  if (result.findings.empty()) {
    for (const auto& fp : pl.functions)
      function_value(out, fp, opt.explain);
    if (opt.emit == emit_kind::ir || opt.emit == emit_kind::both)
      result.rewritten = fe::rewritten_bodies(unit, *original, *prog, newline);
  }
  in_source_order(result.findings);
  if (picture) {
    if (!result.findings.empty()) {
      picture->rejected(result.findings);
    } else {
      for (const auto& fp : pl.functions)
        picture->function(fp, [&](std::uint32_t a) {
          std::string size;
          if (fp.allocations[a].size)
            fe::append_expression(size, *fp.allocations[a].size);
          return size;
        });
    }
    picture->end_program(result.findings.empty() && pl.functions.empty());
  }
  out.end_array();
  out.end_object();
  return result;
}

/// How a file's JSON is laid out: the whole document (one input), or its entry of the
/// `files` array (several).
struct file_layout {
  bool files_form = false;
  bool stream = false; ///< the JSON goes to standard output as it is made
};

/// Everything a file's analysis gives, kept until it is printed in input order.
struct file_result {
  std::string display;                 ///< the path as given; <stdin>, <builtin>
  std::optional<json_writer> json;     ///< its JSON document, or its `files` entry
  std::string stderr_text;             ///< its diagnostics lines, or its I/O error
  std::vector<finding> findings;       ///< in source order
  std::optional<std::string> ir;       ///< --emit=ir/both, unless a syntax error
  std::optional<std::string> dot;      ///< --emit=dot
  std::optional<std::string> io_error; ///< the file could not be read
  int status = exit_ok;
  std::size_t programs = 0;
  std::size_t rejected = 0;
  bool syntax_error = false;
};

/// One file's analysis, as if it were the only input (`path` is empty for standard input
/// and the built-in example). It shares with the analysis of another file only the module
/// loader, which is made for that: files may be analysed concurrently.
file_result analyse_file(std::string_view display, std::string_view path, std::string_view stem,
                         std::string_view text, const options& opt, const file_layout& layout) {
  file_result r;
  r.display = std::string(display);
  fe::module_options mo;
  mo.stem = stem;
  mo.defines = opt.defines;
  mo.imports = opt.loader;
  mo.path = path;
  const auto module = fe::parse_module(text, mo);

  // The plan is written as it is made, unless diagnostics and plan share one file.
  r.json.emplace(layout.stream, layout.files_form ? 2 : 0,
                 layout.files_form ? std::size_t{1} << 14 : std::size_t{1} << 21);
  json_writer& out = *r.json;
  std::optional<commscope::opt::dot::graph_writer> picture;
  if (opt.emit == emit_kind::dot)
    picture.emplace(display);
  auto& findings = r.findings;
  std::vector<fe::body_edit> edits;
  out.begin_object();
  if (layout.files_form)
    out.member("file", display);
  out.key("programs");
  out.begin_array();
  if (module.error) {
    const auto& e = *module.error;
    findings.push_back({"syntax", e.message, e.line, e.column, 0, {}, {}, {}});
    r.status = exit_syntax;
    r.syntax_error = true;
    if (picture)
      picture->syntax_error(findings.back());
  } else {
    for (const auto& unit : module.programs) {
      auto outcome = run_program(unit, opt, module.newline, out, picture ? &*picture : nullptr);
      ++r.programs;
      if (!outcome.findings.empty()) {
        r.status = exit_rejected;
        ++r.rejected;
      }
      for (auto& f : outcome.findings)
        findings.push_back(std::move(f));
      for (auto& e : outcome.rewritten)
        edits.push_back(std::move(e));
    }
    // Findings of no program (an unknown decorator outside any): the file is rejected.
    for (const auto& d : module.diagnostics) {
      findings.push_back({d.code, d.message, d.where.line, d.where.column, 0, {}, d.file, d.help});
      for (const auto& [message, at] : d.notes)
        findings.back().notes.push_back({message, at.line, at.column});
      r.status = exit_rejected;
    }
    in_source_order(findings);
  }
  out.end_array();

  std::string& err = r.stderr_text;
  out.key("diagnostics");
  out.begin_array();
  for (const auto& f : findings) {
    err += f.file.empty() ? std::string_view(display) : std::string_view(f.file);
    err += ':' + std::to_string(f.line) + ':' + std::to_string(f.column) + ": error: ";
    err += f.message + " [" + f.code + "]\n";
    for (const auto& n : f.notes) {
      err += display;
      err += ':' + std::to_string(n.line) + ':' + std::to_string(n.column) + ": note: ";
      err += n.message + '\n';
    }
    out.begin_object();
    out.member("code", std::string_view(f.code));
    out.member("message", std::string_view(f.message));
    out.member("line", f.line);
    out.member("column", f.column);
    if (!f.file.empty())
      out.member("file", std::string_view(f.file));
    out.key("notes");
    out.begin_array();
    for (const auto& n : f.notes) {
      out.begin_object();
      out.member("message", std::string_view(n.message));
      location_members(out, {n.line, n.column});
      out.end_object();
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();

  if (r.status != exit_syntax && (opt.emit == emit_kind::ir || opt.emit == emit_kind::both))
    r.ir = fe::splice_bodies(text, std::move(edits), module.newline);
  if (picture)
    r.dot = std::move(*picture).finish();

  switch (opt.emit) {
  case emit_kind::plan:
  case emit_kind::ir:
    break;
  case emit_kind::both:
    out.key("ir");
    if (r.ir)
      out.value(std::string_view(*r.ir));
    else
      out.null();
    break;
  case emit_kind::dot:
    if (layout.files_form) {
      out.key("dot");
      out.value(std::string_view(*r.dot));
    }
    break;
  }
  out.end_object();
  if (!layout.files_form)
    out.newline();
  return r;
}

/// The `files` entry of a file that could not be read: no programs, its message.
file_result unreadable_file(std::string display, std::string error, const options& opt) {
  file_result r;
  r.display = std::move(display);
  r.status = exit_usage;
  r.stderr_text = "commscope-opt: error: " + error + '\n';
  r.json.emplace(false, 2, 512);
  json_writer& out = *r.json;
  out.begin_object();
  out.member("file", std::string_view(r.display));
  out.key("programs");
  out.begin_array();
  out.end_array();
  out.key("diagnostics");
  out.begin_array();
  out.end_array();
  if (opt.emit == emit_kind::both) {
    out.key("ir");
    out.null();
  } else if (opt.emit == emit_kind::dot) {
    out.key("dot");
    out.null();
  }
  out.member("error", std::string_view(error));
  out.end_object();
  r.io_error = std::move(error);
  return r;
}

/// Writes `text` to standard output.
void write_out(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

/// The SARIF view of a file's result.
commscope::opt::sarif_file sarif_of(file_result& r) {
  return {r.display, std::move(r.findings), r.io_error};
}

/// How an input is named: in diagnostics, as a module (its stem), and on disk (empty for
/// standard input).
struct input_name {
  std::string display;
  std::string stem;
  std::string file;
};

input_name name_of_input(const std::string& path) {
  if (path == "-")
    return {"<stdin>", "stdin", {}};
  return {path, std::filesystem::path(path).stem().string(), path};
}

/// One input (or the built-in example): the output of cli.md's "The JSON plan".
int run_one(const options& opt) {
  input_name name{"<builtin>", "builtin", {}};
  std::string text;
  if (!opt.paths.empty()) {
    const std::string& path = opt.paths.front();
    name = name_of_input(path);
    std::string error;
    auto t = read_input(path, error);
    if (!t) {
      std::cerr << "commscope-opt: error: " << error << '\n';
      // A code-scanning upload still gets a log: the failure as a notification.
      if (opt.format == output_format::sarif)
        write_out(commscope::opt::sarif_log({{name.display, {}, error}}, COMMSCOPE_VERSION));
      return exit_usage;
    }
    text = std::move(*t);
  } else {
    text = std::string(builtin_program);
  }

  const bool json_out = opt.format == output_format::json &&
                        (opt.emit == emit_kind::plan || opt.emit == emit_kind::both);
  auto r = analyse_file(name.display, name.file, name.stem, text, opt,
                        {false, json_out && !same_output_streams()});
  std::cerr << r.stderr_text;
  std::cerr.flush();
  if (opt.format == output_format::sarif) {
    write_out(commscope::opt::sarif_log({sarif_of(r)}, COMMSCOPE_VERSION));
  } else if (json_out) {
    r.json->flush();
  } else if (opt.emit == emit_kind::ir) {
    if (r.ir)
      write_out(*r.ir);
  } else if (r.dot) {
    write_out(*r.dot);
  }
  return r.status;
}

/// Several inputs (cli.md, "Several inputs"): each file analysed on its own, up to -j at
/// once, the results printed in input order.
int run_several(const options& opt, const std::vector<std::string>& files) {
  if (opt.emit == emit_kind::ir) {
    std::cerr << "commscope-opt: error: --emit=ir takes one input file (several given)\n" << usage;
    return exit_usage;
  }
  const bool sarif = opt.format == output_format::sarif;
  // Standard output is held back when it is also standard error's file, as the
  // diagnostics are written file by file while the document grows.
  const bool hold = same_output_streams();
  std::string held;
  const auto emit = [&](std::string_view text) {
    if (hold)
      held += text;
    else
      write_out(text);
  };
  std::vector<commscope::opt::sarif_file> sarif_files;
  std::size_t programs = 0, rejected = 0, syntax_errors = 0;
  int status = exit_ok;
  if (!sarif)
    emit("{\n  \"files\": [");
  commscope::opt::run_in_order(
      files.size(), opt.jobs ? opt.jobs : commscope::opt::default_jobs(),
      [&](std::size_t i) {
        const input_name name = name_of_input(files[i]);
        std::string error;
        auto text = read_input(files[i], error);
        if (!text)
          return unreadable_file(name.display, std::move(error), opt);
        return analyse_file(name.display, name.file, name.stem, *text, opt, {true, false});
      },
      [&](std::size_t i, file_result& r) {
        std::cerr << r.stderr_text;
        status = std::max(status, r.status);
        programs += r.programs;
        rejected += r.rejected;
        syntax_errors += r.syntax_error ? 1 : 0;
        if (sarif) {
          sarif_files.push_back(sarif_of(r));
          return;
        }
        emit(i ? ",\n    " : "\n    ");
        if (hold) {
          r.json->flush_to(held);
        } else {
          r.json->flush();
        }
      });
  std::cerr.flush();
  if (sarif) {
    emit(commscope::opt::sarif_log(sarif_files, COMMSCOPE_VERSION));
  } else {
    emit(files.empty() ? "]" : "\n  ]");
    emit(",\n  \"summary\": {\n    \"files\": " + std::to_string(files.size()) +
         ",\n    \"programs\": " + std::to_string(programs) +
         ",\n    \"rejected\": " + std::to_string(rejected) +
         ",\n    \"syntax_errors\": " + std::to_string(syntax_errors) + "\n  }\n}\n");
  }
  if (hold)
    write_out(held);
  return status;
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
  // The modules the files import are looked for in each file's own directory, then -I,
  // then PYTHONPATH (cli.md, "Programs across modules"); each is read once per run.
  const char* python_path = std::getenv("PYTHONPATH");
  fe::module_loader loader(opt.include_dirs,
                           fe::module_loader::split_path_list(python_path ? python_path : ""));
  opt.loader = &loader;
  const auto inputs = commscope::opt::expand_inputs(opt.paths);
  const int status = inputs.several ? run_several(opt, inputs.files) : run_one(opt);
  std::fflush(stdout);
  if (std::ferror(stdout)) {
    std::cerr << "commscope-opt: error: cannot write standard output\n";
    return exit_usage;
  }
  return status;
}

} // namespace

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // The run is a few phases whose big arrays die while the next phase grows its own:
  // memory a phase frees is kept in the heap for the next one, not given back to the
  // system and faulted in fresh (zeroed page by page) again.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "commscope-opt: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "commscope-opt: internal error\n";
  }
  return exit_usage;
}
