// commscope-opt: runs the pass on DSL model files and reports like a linter
// (docs/commscope-opt.md: formats, exit statuses, suppressions, configuration).
#include "bytes.hpp"
#include "codes.hpp"
#include "config.hpp"
#include "dot.hpp"
#include "finding.hpp"
#include "inputs.hpp"
#include "json_writer.hpp"
#include "options.hpp"
#include "sarif.hpp"
#include "suppressions.hpp"
#include "text_output.hpp"

#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/imports.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#include <unistd.h>
#define COMMSCOPE_OPT_POSIX 1
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

namespace ref = commscope::reference;
namespace fe = commscope::frontend;
using json = nlohmann::ordered_json; // members in the order docs/commscope-opt.md shows them

constexpr int exit_ok = 0;
constexpr int exit_rejected = 1;
constexpr int exit_usage = 2;
constexpr int exit_syntax = 3;

constexpr std::string_view usage_hint = "Run 'commscope-opt --help' for the options.\n";

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

using commscope::opt::color_mode;
using commscope::opt::emit_kind;
using commscope::opt::options;
using commscope::opt::output_format;
using commscope::opt::suppression;
using commscope::opt::usage_error;

/// Reads the input; nullopt when it cannot be read, with the message in `error`.
std::optional<std::string> read_input(const std::string& path, std::string& error) {
  if (path == "-") {
    // Read through stdio, whose error flag a closed or unreadable stream sets (an
    // istream at EBADF reads as an empty file).
    std::string text;
    char chunk[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof chunk, stdin)) > 0)
      text.append(chunk, n);
    if (std::ferror(stdin)) {
      error = std::string("cannot read standard input: ") + std::strerror(errno);
      return std::nullopt;
    }
    return text;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // A directory among the files: one whose listing failed (inputs.hpp).
    std::filesystem::directory_iterator listing(path, ec);
    error = ec ? "cannot list directory '" + path + "': " + ec.message()
               : "cannot read '" + path + "': is a directory";
    return std::nullopt;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
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
    error = "cannot read '" + path + "': " + std::strerror(errno);
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

/// `message` on one line: a message quotes source (a callee or an operation as written),
/// which may span lines (a multi-line f-string), and each diagnostic is one line of
/// `FILE:LINE:COL: error: MESSAGE [CODE]`. Each run of blanks holding a line break
/// becomes one space.
std::string one_line(std::string message) {
  if (message.find_first_of("\r\n") == std::string::npos)
    return message;
  std::string out;
  out.reserve(message.size());
  for (std::size_t i = 0; i < message.size();) {
    const auto blank = [&](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    if (!blank(message[i])) {
      out += message[i++];
      continue;
    }
    std::size_t j = i;
    bool breaks = false;
    for (; j < message.size() && blank(message[j]); ++j)
      breaks = breaks || message[j] == '\n' || message[j] == '\r';
    if (breaks)
      out += ' ';
    else
      out.append(message, i, j - i);
    i = j;
  }
  return out;
}

/// A library diagnostic as a finding, with its notes. `message` is the library's
/// message, with the driver's context after it where it has some.
template <class Diagnostic> finding finding_of(const Diagnostic& d, std::string message) {
  finding f{std::string(commscope::code_name(d.code)),
            one_line(std::move(message)),
            d.where.line,
            d.where.column,
            0,
            {},
            {},
            {},
            {}};
  for (const auto& n : d.notes)
    f.notes.push_back({one_line(n.message()), n.where.line, n.where.column});
  return f;
}

/// A front end's finding (of a program or of the file) as a finding, with its notes.
finding finding_of_front_end(const fe::front_end_diagnostic& d) {
  finding f{d.code, one_line(d.message), d.where.line, d.where.column, 0, {}, d.file, d.help, {}};
  for (const auto& [message, at] : d.notes)
    f.notes.push_back({one_line(message), at.line, at.column});
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
  if (devices.has_progressions()) // docs/semantics.md, "Symbolic device sets": the JSON form
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

/// docs/commscope-opt.md, "Explaining the plan": the contributions that made one
/// allocation's descriptor.
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
      out.member("name", commscope::detail::domain_name(d).view());
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
  std::string plan_table;             ///< the text format's table, when asked for
  std::size_t host_orchestrators = 0; ///< of an accepted program
};

/// An allocation's size as the printer writes it.
std::string size_text(const function_plan_type& fp, std::uint32_t allocation) {
  std::string size;
  if (fp.allocations[allocation].size)
    fe::append_expression(size, *fp.allocations[allocation].size);
  return size;
}

/// The bytes of an allocation whose size folds. A body read back from its scopes locates
/// its allocations at their scopes: they are found by the variable they are bound to.
std::optional<std::int64_t> allocation_bytes(const fe::program_unit& unit,
                                             const function_plan_type& fp,
                                             std::uint32_t allocation) {
  const auto& a = fp.allocations[allocation];
  if (a.existing && a.base)
    return fe::allocation_bytes_of(unit, *a.base);
  return fe::allocation_bytes_at(unit, a.where);
}

/// The text format's plan of one host orchestrator: each domain with its devices, its
/// slots with their sizes (and bytes, when a size folds) and the domain's total.
void plan_table(std::string& out, const function_plan_type& fp, const fe::program_unit& unit) {
  out += "  host orchestrator '";
  out += fp.name;
  out += "': ";
  out += std::to_string(fp.domains.size());
  out += fp.domains.size() == 1 ? " comm domain\n" : " comm domains\n";
  const std::vector<std::uint32_t> rank = commscope::opt::dot::source_ranks(fp);
  for (std::size_t d = 0; d < fp.domains.size(); ++d) {
    const auto& dom = fp.domains[d];
    std::vector<std::uint32_t> slots(dom.slots.begin(), dom.slots.end());
    std::sort(slots.begin(), slots.end(),
              [&](std::uint32_t a, std::uint32_t b) { return rank[a] < rank[b]; });
    std::size_t width = 0;
    std::vector<std::string> sizes;
    std::int64_t total = 0;
    std::size_t symbolic = 0;
    bool overflow = false;
    for (const auto a : slots) {
      width = std::max(width, fp.allocations[a].name.size());
      const auto bytes = allocation_bytes(unit, fp, a);
      sizes.push_back(commscope::opt::size_with_bytes(size_text(fp, a), bytes));
      if (!bytes)
        ++symbolic;
      else if (__builtin_add_overflow(total, *bytes, &total))
        overflow = true;
    }
    out += "    ";
    out += dom.name.empty() ? commscope::detail::domain_name(d).view() : std::string_view(dom.name);
    out += "  devices ";
    out += commscope::opt::dot::devices_text(dom.devices);
    out += "  ";
    out += std::to_string(slots.size());
    out += slots.size() == 1 ? " slot" : " slots";
    if (symbolic < slots.size() && !overflow) {
      out += ", ";
      out += commscope::opt::bytes_text(total);
      if (symbolic)
        out += " + " + std::to_string(symbolic) + (symbolic == 1 ? " size" : " sizes") +
               " not constant";
    }
    out += '\n';
    for (std::size_t k = 0; k < slots.size(); ++k) {
      const auto& alloc = fp.allocations[slots[k]];
      out += "      ";
      out += alloc.name;
      out.append(width + 2 - alloc.name.size(), ' ');
      out += sizes[k];
      out += '\n';
    }
  }
}

/// docs/commscope-opt.md, "Constants of the file": an `unsupported-device` whose device=
/// depends on a name the file leaves open names it and suggests -D; `help` gets the
/// nearest name in scope, if one is near. The file's own causes say more than the
/// library's (which sees `OFFSET + 1` as an expression it does not evaluate): where there
/// are some, they follow the code's message instead of the library's cause.
template <class Diagnostic>
std::string with_open_names(const Diagnostic& d, const fe::program_unit& unit, std::string& help) {
  const ref::source_location at = d.where;
  for (const auto& s : unit.name_suggestions)
    if (s.call == at && help.empty())
      help = "did you mean '" + s.suggestion + "'?";
  std::string message = d.code_message();
  // Each cause is a clause of its own, after the code's message.
  const std::size_t bare = message.size();
  const auto clause = [&](const std::string& text) {
    message += message.size() == bare ? ": " : "; ";
    message += text;
  };
  std::vector<std::string_view> names;
  for (const auto& [where, name] : unit.open_names)
    if (where == at && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  for (const auto name : names)
    clause("'" + std::string(name) + "' is not bound to an integer constant in this file" +
           (unit.dynamic_globals ? ", which may rebind its names through globals(), exec or "
                                   "sys.modules"
                                 : "") +
           " (bind it with -D " + std::string(name) + "=INT)");
  // Each list the front end kept of names at this dispatch adds a clause per name; the
  // first list with one gives the help line.
  const auto noted = [&](const decltype(unit.device_calls)& list, std::string_view says,
                         std::string_view fix) {
    bool any = false;
    for (const auto& [where, name] : list)
      if (where == at) {
        clause("'" + name + std::string(says));
        any = true;
      }
    if (any && help.empty())
      help = fix;
  };
  noted(unit.device_calls, "(...)' is a call, which device= does not evaluate",
        "pass the loop variable or a constant itself: device= takes no calls");
  noted(unit.local_device_names,
        "' is bound by a comprehension or a lambda, which the analysis does not iterate",
        "dispatch in a for loop over pl.range(...) in the host body instead");
  noted(unit.late_device_names,
        "' is read when the lambda or generator expression runs, and the function binds it "
        "again below, which the analysis does not follow there",
        "call the lambda where it stands, or bind the name once");
  if (message.size() == bare) // none: the library's cause
    return d.message();
  if (help.empty()) // the code's, as its message is; the reason's fix may not be the one
    help = commscope::opt::pass_codes[static_cast<std::size_t>(d.code)].help;
  return message;
}

/// docs/commscope-opt.md, "No false all-clear": an `unconsumed-alloc` whose view is
/// passed to a chip orchestrator in a call without device= points at that call, which
/// dispatches nothing.
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
/// shows it as written: its text, or empty for the library's decimal.
std::string_view literal_device(const fe::program_unit& unit, ref::source_location at) {
  for (const auto& [where, text] : unit.huge_devices)
    if (where == at)
      return text;
  return {};
}

/// `picture`, when drawing (`--emit=dot`), gains the program's cluster.
/// `table`: the text format prints the program's plan.
program_outcome run_program(const fe::program_unit& unit, const options& opt,
                            std::string_view newline, json_writer& out,
                            commscope::opt::dot::graph_writer* picture, bool table) {
  if (picture)
    picture->begin_program(unit.name, unit.line);
  program_outcome result;
  out.begin_object();
  out.member("name", std::string_view(unit.name));
  out.member("line", unit.line);
  out.key("functions");
  out.begin_array();
  for (const auto& d : unit.diagnostics)
    result.findings.push_back(finding_of_front_end(d));
  ref::program_ptr prog = unit.program;
  const ref::program_ptr original = prog;
  const commscope::ir_traits<ref::program_ptr> traits;
  using verdict = commscope::opt::dot::graph_writer::verdict;
  const auto draw = [&](const auto& drawn, verdict v) {
    for (const auto& fp : drawn.functions)
      picture->function(
          fp, traits, [&](std::uint32_t a) { return size_text(fp, a); },
          [&](std::uint32_t a) { return allocation_bytes(unit, fp, a); }, v);
  };
  // The companion pass first (docs/semantics.md, "The companion pass: signal synthesis"):
  // a program it rejects goes no further.
  if (opt.synthesize_signals && result.findings.empty())
    for (const auto& d : commscope::synthesize_signals(prog, traits))
      result.findings.push_back(finding_of(d, d.message()));
  if (!result.findings.empty()) {
    in_source_order(result.findings);
    if (picture) {
      // Drawn as far as the analysis reads it; the findings reported stay those above.
      if (original)
        draw(commscope::analyze(original, traits, commscope::with_evidence), verdict::rejected);
      picture->rejected(result.findings);
      picture->end_program(false);
    }
    out.end_array();
    out.end_object();
    return result;
  }
  const ref::program_ptr analyzed = prog; // the plan's handles point into it
  // The picture draws the evidence's dispatches and collectives.
  const auto pl = opt.explain || picture
                      ? commscope::analyze(prog, traits, commscope::with_evidence)
                      : commscope::analyze(prog, traits);
  for (const auto& d : pl.diagnostics) {
    const bool device_code = d.code == commscope::error_code::device_out_of_range ||
                             d.code == commscope::error_code::negative_device;
    std::string message = device_code ? d.message(literal_device(unit, d.where)) : d.message();
    std::string help;
    // The driver's context follows the library's message: the names the file leaves open,
    // why a callee is unknown.
    if (d.code == commscope::error_code::unsupported_device)
      message = with_open_names(d, unit, help);
    // A view passed to a module's function: named as written (`pl.cast`), where the IR
    // keeps its last attribute; a library's function is external (no inlining it).
    const bool into_call =
        d.why == commscope::reason::view_into_call || d.why == commscope::reason::pointer_into_call;
    auto named = d;
    if (into_call)
      for (const auto& c : unit.dotted_calls)
        if (c.where == d.where && c.spelled.size() > d.object.size() &&
            c.spelled.ends_with(d.object) &&
            c.spelled[c.spelled.size() - d.object.size() - 1] == '.') {
          named.object = c.spelled;
          if (c.library)
            named.why = d.why == commscope::reason::view_into_call
                            ? commscope::reason::view_into_external_call
                            : commscope::reason::pointer_into_external_call;
          message = named.message();
          break;
        }
    const bool into_operation = d.why == commscope::reason::view_into_operation ||
                                d.why == commscope::reason::pointer_into_operation;
    // What escapes, named as the library's messages name it, for the rewordings below.
    const auto escaping = [&] {
      const bool view = d.why == commscope::reason::view_into_call ||
                        d.why == commscope::reason::view_into_operation;
      return std::string(view ? "a view" : "the window pointer") + " of allocation '" +
             std::string(d.subject) + "'";
    };
    // A yield of a host that another DSL function calls: its value reaches that caller.
    if (into_operation)
      for (const auto& [where, host] : unit.yields_to_callers)
        if (where == d.where) {
          named.why = d.why == commscope::reason::view_into_operation
                          ? commscope::reason::view_returned_to_callers
                          : commscope::reason::pointer_returned_to_callers;
          named.object = host;
          message = named.message();
          break;
        }
    // A method given a function of the program, which it may call with its object.
    if (into_operation)
      for (const auto& c : unit.callback_methods)
        if (c.where == d.where && c.method == d.object) {
          message = escaping() + " is, or is held by, the object of '" + c.method +
                    "', which is given " + c.function +
                    ": the method may call it with the object, a call the pass does not follow";
          help = "dispatch the views here, not from a function that a method calls (sort or "
                 "select the views first, then dispatch each)";
          break;
        }
    if (into_call && std::find(unit.unpacked_dispatches.begin(), unit.unpacked_dispatches.end(),
                               d.where) != unit.unpacked_dispatches.end()) {
      message = escaping() + " is passed to '" + std::string(named.object) +
                "' in a call with * or ** unpacking, which the analysis does not read as a "
                "dispatch: where its arguments land is not known before it runs";
      help = "pass the dispatch's arguments one by one, without * or **";
    }
    // Returned to a caller in another file: name it, since this file does not.
    if (named.why == commscope::reason::view_returned_to_callers ||
        named.why == commscope::reason::pointer_returned_to_callers)
      for (const auto& c : unit.called_from_other_files)
        if (c.host == named.object) {
          message += " ('" + c.host + "' is " +
                     (c.function.empty() ? "used as a value" : "called by '" + c.function + "'") +
                     " in " + c.file + ", line " + std::to_string(c.line) + ")";
          break;
        }
    if (d.code == commscope::error_code::malformed_op && d.why == commscope::reason::unknown_callee)
      for (const auto& [where, why] : unit.unresolved_callees)
        if (where == d.where) {
          message += ": " + why;
          break;
        }
    // Where the reason has a fix of its own (a window to assign, a view to pass
    // positionally), it is more use than the code's general one.
    if (help.empty() && named.why != commscope::reason::none)
      help = commscope::opt::reason_help(named.why);
    result.findings.push_back(finding_of(d, std::move(message)));
    result.findings.back().help = std::move(help);
    if (d.code == commscope::error_code::unconsumed_alloc)
      with_undispatched_calls(result.findings.back(), unit);
  }
  // Each domain is a `with` around the body: more than Python nests would make a file it
  // does not compile (its limit, not the library's: the adapter's is none).
  for (const auto& fp : pl.functions) {
    const auto span = std::find_if(unit.bodies.begin(), unit.bodies.end(),
                                   [&](const fe::body_span& b) { return b.fn == fp.function; });
    if (span == unit.bodies.end() || fp.domains.size() <= span->scope_room)
      continue;
    const auto& a = fp.allocations[fp.domains[span->scope_room].slots.front()];
    auto d =
        commscope::diagnostic<ref::source_location>::make(
            commscope::error_code::scope_nesting_limit, commscope::reason::none, a.name, a.where, 0)
            .with_depth(static_cast<std::int64_t>(span->scope_room) + 1)
            .with_limit(static_cast<std::int64_t>(span->scope_room));
    result.findings.push_back(finding_of(
        d, d.message() + ": Python compiles at most 20 nested blocks in a function (its loops, "
                         "`with` items, `try` and `except` clauses among them) and 99 "
                         "indentation levels in a file, and each scope is one more"));
  }
  // The rewritten scopes list their slots by the allocations' names, so two allocations of
  // one name in different domains (`buf = ...` in both branches of an if) could not be
  // told apart where the rewritten file is read: it cannot be printed. The plan is right
  // all the same, so only a run that prints the file says so. One domain's are the
  // library's duplicate-name already.
  const bool printed = opt.emit == emit_kind::ir || opt.emit == emit_kind::both;
  for (const auto& fp : pl.functions) {
    if (!printed || fp.status != std::remove_cvref_t<decltype(fp)>::state::analyzed)
      continue;
    std::unordered_map<std::string_view, std::size_t> first;
    for (std::size_t i = 0; i < fp.allocations.size(); ++i) {
      const auto& a = fp.allocations[i];
      const auto [at, added] = first.try_emplace(a.name, i);
      const auto& f = fp.allocations[at->second];
      if (added || f.domain == a.domain)
        continue;
      const auto domain_name = [&](std::uint32_t k) {
        return fp.domains[k].name.empty() ? "comm_d" + std::to_string(k)
                                          : std::string(fp.domains[k].name);
      };
      const auto d =
          commscope::diagnostic<ref::source_location>::make(
              commscope::error_code::duplicate_name, commscope::reason::none, a.name, a.where, 0)
              .with_note(commscope::note_kind::earlier_allocation, a.name, f.where);
      result.findings.push_back(finding_of(
          d,
          "allocation name '" + std::string(a.name) + "' is used in two comm domains, " +
              domain_name(f.domain) + " and " + domain_name(a.domain) +
              ": the rewritten file names a scope's slots by it, so they could not be told apart"));
    }
  }
  // The rewritten IR is seen only through --emit=ir/both and --verify; materialize
  // reports nothing, so a plan-only run skips it (a tenth of a large file's time).
  // A function materialized before, whose plan is read back from its scopes, is verified
  // without --verify: a scope edited by hand, or left behind by a later change (a
  // dispatch added since), may lack a device its dispatches use.
  const bool materialized_before =
      std::any_of(pl.functions.begin(), pl.functions.end(), [](const auto& fp) {
        return fp.status == std::remove_cvref_t<decltype(fp)>::state::already_materialized;
      });
  const bool rewritten_seen =
      opt.verify || materialized_before || opt.emit == emit_kind::ir || opt.emit == emit_kind::both;
  if (result.findings.empty() && rewritten_seen) {
    commscope::materialize(prog, pl, traits);
    if (opt.verify || materialized_before)
      for (const auto& d : commscope::verify(prog, traits)) {
        result.findings.push_back(finding_of(d, d.message()));
        // Scopes the file had before this run are the author's (or an earlier run's),
        // not this rewrite's.
        if (materialized_before)
          result.findings.back().help =
              "the file's scopes were written before this run, by hand or by an earlier one: "
              "correct them, or remove them and let the pass write them again";
      }
  }
  if (result.findings.empty()) {
    for (const auto& fp : pl.functions)
      function_value(out, fp, opt.explain);
    result.host_orchestrators = pl.functions.size();
    if (table)
      for (const auto& fp : pl.functions)
        plan_table(result.plan_table, fp, unit);
    if (opt.emit == emit_kind::ir || opt.emit == emit_kind::both)
      result.rewritten = fe::rewritten_bodies(unit, *original, *prog, newline);
  }
  in_source_order(result.findings);
  if (picture) {
    draw(pl, result.findings.empty() ? verdict::accepted : verdict::rejected);
    if (!result.findings.empty())
      picture->rejected(result.findings);
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
  bool stream = false;      ///< the JSON goes to standard output as it is made
  bool table = false;       ///< the text format prints the plans
  bool keep_source = false; ///< the text format shows source lines
};

/// Which diagnostics a file reports: the codes selected and ignored, and where each
/// choice was made (the command line or the configuration).
struct file_policy {
  std::optional<std::vector<std::string>> select;
  suppression select_origin = suppression::command_line;
  std::vector<std::pair<std::string, suppression>> ignore;
};

/// Everything a file's analysis gives, kept until it is printed in input order.
struct file_result {
  std::string display;                 ///< the path as given; <stdin>, <builtin>
  std::optional<json_writer> json;     ///< its JSON document, or its `files` entry
  std::string stderr_text;             ///< its one-line diagnostics (JSON and SARIF)
  std::string warnings;                ///< for standard error in every format
  std::vector<finding> findings;       ///< in source order
  std::optional<std::string> ir;       ///< --emit=ir/both, unless a syntax error
  std::optional<std::string> dot;      ///< --emit=dot
  std::optional<std::string> io_error; ///< the file could not be read
  std::string source;                  ///< the text format: the file, for its lines
  std::string plan_text;               ///< the text format: the accepted programs' plans
  /// Programs rejected by suppressed errors alone: one line each in the text format.
  std::vector<std::pair<std::uint32_t, std::string>> silent_rejections;
  int status = exit_ok;
  std::size_t programs = 0;
  std::size_t rejected = 0;
  std::size_t host_orchestrators = 0;
  bool syntax_error = false;
};

/// Why `f` is not reported, if it is not: a comment of its line or of the file's opening
/// lines, an ignored code, a code that is not selected. Syntax errors are always reported.
/// `lines` gives the file's line index, made on first use: most files have no finding.
template <class Lines>
suppression suppression_of(const finding& f, Lines&& lines,
                           const std::vector<commscope::opt::ignore_directive>& file_wide,
                           const file_policy& policy) {
  if (f.code == "syntax")
    return suppression::none;
  if (f.file.empty()) {
    // No comment may follow a backslash that continues a line: the directive of such a
    // line stands at the end of the statement's last line, as ruff reads `# noqa`. A
    // backslash that ends a comment continues nothing.
    std::uint32_t line = f.line;
    while (line < lines().count() && lines().line(line).ends_with('\\') &&
           lines().comment(line).empty())
      ++line;
    const auto comment = lines().comment(line);
    if (!comment.empty())
      if (const auto d = commscope::opt::directive_in(comment, "ignore"); d && d->covers(f.code))
        return suppression::inline_comment;
  }
  for (const auto& d : file_wide)
    if (d.covers(f.code))
      return suppression::inline_comment;
  for (const auto& [code, origin] : policy.ignore)
    if (code == f.code)
      return origin;
  if (policy.select &&
      std::find(policy.select->begin(), policy.select->end(), f.code) == policy.select->end())
    return policy.select_origin;
  return suppression::none;
}

/// The warnings for the suppression comments that suppress less than they say: a code of
/// `# commscope: ignore[...]` that is no code of the tool, an empty list, a '[' never
/// closed. The diagnostic such a comment was meant for would be printed with no word of
/// why.
std::string suppression_warnings(std::string_view display, std::string_view text) {
  static const auto names = [] {
    std::array<std::string_view, commscope::opt::code_count> n;
    for (std::size_t k = 0; k < n.size(); ++k)
      n[k] = commscope::opt::code_at(k).name;
    return n;
  }();
  using flaw = commscope::opt::ignore_directive::flaw;
  std::string out;
  for (const auto& c : commscope::opt::listed_codes(text)) {
    if (c.problem == flaw::none && commscope::opt::code_index(c.code))
      continue;
    out += display;
    out += ':' + std::to_string(c.line) + ':' + std::to_string(c.column) + ": warning: ";
    if (c.problem == flaw::no_codes) {
      out += "a suppression comment with no code in its brackets suppresses nothing: list "
             "the codes, or write '# commscope: ignore' for every code\n";
      continue;
    }
    if (c.problem == flaw::unclosed) {
      out += "a suppression comment whose '[' is not closed suppresses nothing: close its "
             "list with ']'\n";
      continue;
    }
    out += "unknown code '" + c.code + "' in a suppression comment: it suppresses nothing";
    if (const auto near = fe::nearest_spelling(c.code, names); !near.empty())
      out += "; did you mean '" + std::string(near) + "'?";
    out += '\n';
  }
  return out;
}

/// One file's analysis, as if it were the only input (`path` is empty for standard input
/// and the built-in example). It shares with the analysis of another file only the module
/// loader, which is made for that: files may be analyzed concurrently.
file_result analyze_file(std::string_view display, std::string_view path, std::string_view stem,
                         std::string_view text, const options& opt, const file_layout& layout,
                         const file_policy& policy) {
  file_result r;
  r.display = std::string(display);
  fe::module_options mo;
  mo.stem = stem;
  mo.defines = opt.defines;
  mo.imports = opt.loader;
  mo.path = path;
  const auto module = fe::parse_module(text, mo);
  std::optional<commscope::opt::source_lines> line_index;
  const auto lines = [&]() -> const commscope::opt::source_lines& {
    if (!line_index)
      line_index.emplace(text);
    return *line_index;
  };
  const auto file_wide = commscope::opt::file_directives(text);
  r.warnings = suppression_warnings(display, text);

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
    findings.push_back({"syntax", e.message, e.line, e.column, 0, {}, {}, {}, {}});
    r.status = exit_syntax;
    r.syntax_error = true;
    if (picture)
      picture->syntax_error(findings.back());
  } else {
    for (const auto& unit : module.programs) {
      auto outcome =
          run_program(unit, opt, module.newline, out, picture ? &*picture : nullptr, layout.table);
      ++r.programs;
      r.host_orchestrators += outcome.host_orchestrators;
      for (auto& f : outcome.findings)
        f.suppressed = suppression_of(f, lines, file_wide, policy);
      if (!outcome.findings.empty()) {
        ++r.rejected;
        // The pass is all or nothing: errors that are all suppressed still reject it.
        const bool silent =
            std::all_of(outcome.findings.begin(), outcome.findings.end(),
                        [](const finding& f) { return f.suppressed != suppression::none; });
        if (silent)
          r.silent_rejections.emplace_back(
              unit.line, "program '" + unit.name + "' is not transformed: its " +
                             std::to_string(outcome.findings.size()) +
                             (outcome.findings.size() == 1 ? " error is" : " errors are") +
                             " suppressed, and a program with errors is rejected");
      } else if (!outcome.plan_table.empty()) {
        r.plan_text += display;
        r.plan_text += ": program '" + unit.name + "' (line " + std::to_string(unit.line) + ")\n";
        r.plan_text += outcome.plan_table;
      }
      for (auto& f : outcome.findings)
        findings.push_back(std::move(f));
      for (auto& e : outcome.rewritten)
        edits.push_back(std::move(e));
    }
    // Findings of no program (an unknown decorator outside any): the file is rejected.
    for (const auto& d : module.diagnostics) {
      findings.push_back(finding_of_front_end(d));
      findings.back().suppressed = suppression_of(findings.back(), lines, file_wide, policy);
    }
    in_source_order(findings);
  }
  out.end_array();

  for (const auto& f : findings)
    if (f.suppressed == suppression::none)
      r.status = std::max(r.status, exit_rejected);

  std::string& err = r.stderr_text;
  out.key("diagnostics");
  out.begin_array();
  for (const auto& f : findings) {
    if (f.suppressed == suppression::none) {
      err += f.file.empty() ? std::string_view(display) : std::string_view(f.file);
      err += ':' + std::to_string(f.line) + ':' + std::to_string(f.column) + ": error: ";
      err += f.message + " [" + f.code + "]\n";
      for (const auto& n : f.notes) {
        err += display;
        err += ':' + std::to_string(n.line) + ':' + std::to_string(n.column) + ": note: ";
        err += n.message + '\n';
      }
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
    if (f.suppressed != suppression::none)
      out.member("suppressed", commscope::opt::suppression_name(f.suppressed));
    out.end_object();
  }
  out.end_array();

  if (r.status != exit_syntax && (opt.emit == emit_kind::ir || opt.emit == emit_kind::both))
    r.ir = fe::splice_bodies(text, std::move(edits), module.newline);
  if (picture)
    r.dot = std::move(*picture).finish();
  if (layout.keep_source && !findings.empty()) // the text format shows their lines
    r.source = std::string(text);

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
/// The JSON of a file that could not be read: its entry of the `files` array (`display`
/// given), or the whole document of a single input.
void unreadable_json(json_writer& out, const std::string* display, std::string_view error,
                     const options& opt) {
  out.begin_object();
  if (display)
    out.member("file", std::string_view(*display));
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
  out.member("error", error);
  out.end_object();
}

file_result unreadable_file(std::string display, std::string error, const options& opt) {
  file_result r;
  r.display = std::move(display);
  r.status = exit_usage;
  r.stderr_text = "commscope-opt: error: " + error + '\n';
  r.json.emplace(false, 2, 512);
  unreadable_json(*r.json, &r.display, error, opt);
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
  if (path.empty())
    return {"<builtin>", "builtin", {}};
  return {path, std::filesystem::path(path).stem().string(), path};
}

/// What the run knows besides the options: the configuration read, if any.
struct run_setup {
  std::optional<commscope::opt::config> config;
  /// --exclude: globs relative to the current directory (the root of this `config`),
  /// matched as the configuration's own.
  commscope::opt::config command_line;
};

/// The choice of diagnostics for one file: the command line's and the configuration's,
/// with its per-file ignores.
file_policy policy_for(const std::string& path, const options& opt, const run_setup& setup) {
  file_policy p;
  if (opt.select) {
    p.select = opt.select;
  } else if (setup.config && setup.config->select) {
    p.select = setup.config->select;
    p.select_origin = suppression::config;
  }
  for (const auto& c : opt.ignore)
    p.ignore.emplace_back(c, suppression::command_line);
  if (setup.config) {
    for (const auto& c : setup.config->ignore)
      p.ignore.emplace_back(c, suppression::config);
    if (!path.empty() && path != "-")
      for (auto& c : setup.config->ignored_codes_for(path))
        p.ignore.emplace_back(std::move(c), suppression::config);
  }
  return p;
}

/// Whether a file is excluded by the configuration or by --exclude.
bool is_excluded(const std::string& path, const run_setup& setup) {
  return (setup.config && setup.config->excluded(path)) || setup.command_line.excluded(path);
}

/// Whether `f` is a terminal (color's `auto`).
bool is_terminal(std::FILE* f) {
#ifdef COMMSCOPE_OPT_POSIX
  return isatty(fileno(f)) != 0;
#else
  (void)f;
  return false;
#endif
}

/// One input (`path`; empty: the built-in example) as the JSON plan, streamed as it is
/// made (docs/commscope-opt.md, "The JSON plan").
int run_json_one(const options& opt, const run_setup& setup, const std::string& path) {
  const input_name name = name_of_input(path);
  std::string text;
  if (!path.empty()) {
    std::string error;
    auto t = read_input(path, error);
    if (!t) {
      // Still the document of this file: no programs, and why.
      json_writer out(false, 0, 512);
      unreadable_json(out, nullptr, error, opt);
      out.newline();
      out.flush();
      std::fflush(stdout);
      std::cerr << "commscope-opt: error: " << error << '\n';
      return exit_usage;
    }
    text = std::move(*t);
  } else {
    text = std::string(builtin_program);
  }
  auto r =
      analyze_file(name.display, name.file, name.stem, text, opt,
                   {false, !same_output_streams(), false, false}, policy_for(path, opt, setup));
  std::cerr << r.warnings;
  if (!opt.quiet)
    std::cerr << r.stderr_text;
  std::cerr.flush();
  r.json->flush();
  return r.status;
}

/// Where `-o DIR` puts the picture of `path`: the path as given, under DIR, with `.dot`
/// for its extension (absolute paths and `..` lose what would leave DIR).
std::filesystem::path picture_path(const std::string& dir, const std::string& path) {
  std::filesystem::path rel;
  for (const auto& part : std::filesystem::path(path).lexically_normal().relative_path())
    if (part != ".." && part != ".")
      rel /= part;
  if (rel.empty() || path == "-") // standard input: `stdin.dot`, not `-.dot`
    rel = path.empty() ? "builtin" : "stdin";
  rel.replace_extension(".dot");
  return std::filesystem::path(dir) / rel;
}

/// Every other run: the files in input order, each analyzed on its own (up to -j at once),
/// printed in the format asked for, and the last line of the text format.
int run_files(const options& opt, const run_setup& setup, const std::vector<std::string>& files,
              bool several) {
  using commscope::opt::source_lines;
  const bool text = opt.format == output_format::text;
  const bool github = opt.format == output_format::github;
  const bool sarif = opt.format == output_format::sarif;
  // With -o DIR the pictures are written there instead of the `files` document.
  const bool json_doc = opt.format == output_format::json && several &&
                        !(opt.emit == emit_kind::dot && opt.output_dir);
  if (opt.emit == emit_kind::ir && several) {
    std::cerr << "commscope-opt: error: --emit=ir takes one input file (several given)\n"
              << usage_hint;
    return exit_usage;
  }
  // With -o DIR, where each input's picture goes. Two inputs whose paths differ only
  // where picture_path drops a part (`m.py` and `../m.py`) would write one picture: the
  // second would silently replace the first.
  std::vector<std::filesystem::path> pictures;
  if (opt.emit == emit_kind::dot && opt.output_dir) {
    std::map<std::filesystem::path, std::size_t> drawn;
    for (std::size_t i = 0; i < files.size(); ++i) {
      pictures.push_back(picture_path(*opt.output_dir, files[i]));
      const auto [at, fresh] = drawn.emplace(pictures.back(), i);
      std::error_code a, b;
      if (!fresh && std::filesystem::weakly_canonical(files[at->second], a) !=
                        std::filesystem::weakly_canonical(files[i], b)) {
        std::cerr << "commscope-opt: error: '" << files[at->second] << "' and '" << files[i]
                  << "' would both be drawn to '" << at->first.string()
                  << "': check them in separate runs, or from a directory above both\n";
        return exit_usage;
      }
    }
  }
  // The text format writes to standard output, unless that is the IR or the pictures.
  const bool stdout_taken =
      (opt.emit == emit_kind::ir || (opt.emit == emit_kind::dot && !opt.output_dir)) && !json_doc;
  std::FILE* const report = stdout_taken ? stderr : stdout;
  const bool color = opt.color == color_mode::always ||
                     (opt.color == color_mode::automatic && is_terminal(report) && [] {
                       const char* no_color = std::getenv("NO_COLOR");
                       return no_color == nullptr || *no_color == '\0';
                     }());
  const commscope::opt::text_writer writer(color ? commscope::opt::text_style::colored()
                                                 : commscope::opt::text_style::plain());
  // Standard output is held back when it is also standard error's file, as the
  // diagnostics are written file by file while the JSON document grows.
  const bool hold = json_doc && same_output_streams();
  std::string held;
  const auto emit = [&](std::string_view t) {
    if (hold)
      held += t;
    else
      write_out(t);
  };
  const auto to_report = [&](std::string_view t) { std::fwrite(t.data(), 1, t.size(), report); };

  std::vector<commscope::opt::sarif_file> sarif_files;
  std::size_t programs = 0, rejected = 0, syntax_errors = 0, hosts = 0;
  std::size_t errors = 0, files_with_errors = 0, suppressed = 0;
  int status = exit_ok;
  // A diagnostic printed once per run (a syntax error in a module several inputs import).
  std::set<std::tuple<std::string, std::uint32_t, std::uint32_t, std::string, std::string>> seen;
  if (json_doc)
    emit("{\n  \"files\": [");
  const file_layout layout{json_doc, false, text && !opt.quiet && (!several || opt.show_plan),
                           text};
  commscope::opt::run_in_order(
      files.size(), several ? (opt.jobs ? opt.jobs : commscope::opt::default_jobs()) : 1,
      [&](std::size_t i) {
        const input_name name = name_of_input(files[i]);
        std::string error;
        std::optional<std::string> source;
        if (files[i].empty())
          source = std::string(builtin_program);
        else
          source = read_input(files[i], error);
        if (!source)
          return unreadable_file(name.display, std::move(error), opt);
        return analyze_file(name.display, name.file, name.stem, *source, opt, layout,
                            policy_for(files[i], opt, setup));
      },
      [&](std::size_t i, file_result& r) {
        status = std::max(status, r.status);
        programs += r.programs;
        rejected += r.rejected;
        hosts += r.host_orchestrators;
        syntax_errors += r.syntax_error ? 1 : 0;
        std::size_t file_errors = r.io_error ? 1 : 0;
        if (!r.warnings.empty()) { // before the file's diagnostics, wherever those go
          std::fflush(stdout);
          std::cerr << r.warnings;
        }
        if (r.io_error || (!text && !github && !opt.quiet))
          std::cerr << r.stderr_text;
        if (r.io_error && github) // an annotation too, or the workflow shows no cause
          to_report(commscope::opt::github::file_error(r.display, *r.io_error));
        if ((text || github) && (!r.findings.empty() || !r.plan_text.empty())) {
          std::string out;
          const source_lines lines(r.source);
          std::optional<std::string> other_text;
          std::optional<source_lines> other_lines;
          std::string other_file;
          // The notes of programs rejected by suppressed errors alone stand in source
          // order among the diagnostics.
          std::size_t next_silent = 0;
          const auto silent_before = [&](std::uint32_t line) {
            for (; text && next_silent < r.silent_rejections.size() &&
                   r.silent_rejections[next_silent].first <= line;
                 ++next_silent) {
              writer.header(out, r.display, r.silent_rejections[next_silent].first, 1, "note",
                            writer.style().note);
              out += r.silent_rejections[next_silent].second + '\n';
            }
          };
          for (const auto& f : r.findings) {
            if (f.file.empty())
              silent_before(f.line);
            if (f.suppressed != suppression::none)
              continue;
            const std::string& file = f.file.empty() ? r.display : f.file;
            if (!seen.emplace(std::filesystem::path(file).lexically_normal().generic_string(),
                              f.line, f.column, f.code, f.message)
                     .second)
              continue;
            ++file_errors;
            if (github) {
              commscope::opt::github::command(out, file, f, r.display);
              continue;
            }
            // A diagnostic in an imported module shows that module's line.
            const source_lines* at = &lines;
            if (!f.file.empty()) {
              if (other_file != f.file) {
                std::string ignored;
                other_file = f.file;
                other_text = read_input(f.file, ignored);
                other_lines.reset();
                if (other_text)
                  other_lines.emplace(*other_text);
              }
              at = other_lines ? &*other_lines : nullptr;
            }
            writer.diagnostic(out, file, f, at, r.display, &lines);
          }
          silent_before(UINT32_MAX);
          if (text && !opt.quiet)
            out += r.plan_text;
          to_report(out);
        }
        suppressed += static_cast<std::size_t>(
            std::count_if(r.findings.begin(), r.findings.end(),
                          [](const finding& f) { return f.suppressed != suppression::none; }));
        errors += file_errors;
        files_with_errors += file_errors ? 1 : 0;
        if (sarif) {
          sarif_files.push_back(sarif_of(r));
        } else if (json_doc) {
          emit(i ? ",\n    " : "\n    ");
          if (hold)
            r.json->flush_to(held);
          else
            r.json->flush();
        } else if (opt.emit == emit_kind::ir) {
          if (r.ir)
            write_out(*r.ir);
        } else if (opt.emit == emit_kind::dot && r.dot) {
          if (!opt.output_dir) {
            write_out(*r.dot);
          } else {
            const auto& target = pictures[i];
            std::error_code ec;
            std::filesystem::create_directories(target.parent_path(), ec);
            std::ofstream f(target, std::ios::binary);
            f << *r.dot;
            f.close();
            if (!f) {
              std::cerr << "commscope-opt: error: cannot write '" << target.string()
                        << "': " << std::strerror(errno) << '\n';
              status = std::max(status, exit_usage);
            }
          }
        }
      });
  std::cerr.flush();
  if (sarif) {
    emit(commscope::opt::sarif_log(sarif_files, COMMSCOPE_VERSION,
                                   std::filesystem::current_path().string()));
  } else if (json_doc) {
    emit(files.empty() ? "]" : "\n  ]");
    emit(",\n  \"summary\": {\n    \"files\": " + std::to_string(files.size()) +
         ",\n    \"programs\": " + std::to_string(programs) +
         ",\n    \"rejected\": " + std::to_string(rejected) +
         ",\n    \"syntax_errors\": " + std::to_string(syntax_errors) + "\n  }\n}\n");
  }
  if (hold)
    write_out(held);
  if (text && !opt.quiet) {
    const auto count = [](std::size_t n, std::string_view one, std::string_view many) {
      return std::to_string(n) + ' ' + std::string(n == 1 ? one : many);
    };
    std::string last;
    if (errors == 0) {
      last = "All checks passed: " + count(files.size(), "file", "files") + ", " +
             count(programs, "program", "programs") + ", " +
             count(hosts, "host orchestrator", "host orchestrators");
      if (suppressed)
        last += ", " + std::to_string(suppressed) + " suppressed";
      last += ".\n";
    } else {
      last = "Found " + count(errors, "error", "errors") + " in " +
             count(files_with_errors, "file", "files") + " (" +
             count(files.size(), "file", "files") + " checked";
      if (suppressed)
        last += ", " + std::to_string(suppressed) + " suppressed";
      last += ").\n";
    }
    std::fflush(stdout);
    std::fwrite(last.data(), 1, last.size(), report);
  }
  return status;
}

/// Reads the configuration the run names or finds, and puts what it sets under what the
/// command line set.
run_setup configure(options& opt) {
  run_setup setup;
  namespace cfg = commscope::opt;
  std::optional<std::filesystem::path> file;
  if (opt.config_file) {
    file = *opt.config_file;
  } else if (!opt.no_config) {
    const std::string first =
        opt.paths.empty() || opt.paths.front() == "-" ? std::string(".") : opt.paths.front();
    file = cfg::find_pyproject(first);
  }
  if (file) {
    try {
      setup.config = cfg::load_config(*file);
    } catch (const cfg::config_error& e) {
      throw usage_error{e.message};
    }
    auto& c = *setup.config;
    const std::string where = " in [tool.commscope] of " + c.file.string();
    // `select = []` would report nothing: a run that checks nothing must not pass.
    if (c.select)
      c.select = cfg::checked_list(*c.select, "'select'" + where);
    c.ignore = cfg::checked_codes(c.ignore, "'ignore'" + where);
    for (auto& [glob, codes] : c.per_file_ignores)
      codes = cfg::checked_codes(codes, "'per-file-ignores'" + where);
    const auto drops_syntax = [](const std::vector<std::string>& codes) {
      return std::find(codes.begin(), codes.end(), "syntax") != codes.end();
    };
    bool syntax = drops_syntax(c.ignore);
    for (const auto& [glob, codes] : c.per_file_ignores)
      syntax = syntax || drops_syntax(codes);
    if (syntax)
      throw usage_error{"'syntax' cannot be ignored (" + c.file.string() +
                        "): a file Python rejects is never checked"};
    // The command line's -I come first, its -D win, its -j wins.
    for (const auto& d : c.include_dirs)
      opt.include_dirs.push_back(d);
    for (const auto& d : c.defines)
      opt.defines.push_back(d);
    if (opt.jobs == 0 && c.jobs)
      opt.jobs = *c.jobs;
  }
  setup.command_line.exclude = opt.exclude;
  return setup;
}

int run(int argc, char** argv) {
  commscope::opt::parsed_command_line command;
  run_setup setup;
  try {
    command = commscope::opt::parse_command_line(argc, argv);
    if (command.help) {
      std::cout << commscope::opt::help_text();
      return exit_ok;
    }
    if (command.version) {
      std::cout << "commscope-opt " << COMMSCOPE_VERSION << '\n';
      return exit_ok;
    }
    setup = configure(command.opt);
  } catch (const usage_error& e) {
    std::cerr << "commscope-opt: error: " << e.message << '\n' << usage_hint;
    return exit_usage;
  }
  options& opt = command.opt;
  // The modules the files import are looked for in each file's own directory, then -I,
  // then PYTHONPATH (docs/commscope-opt.md, "Programs across modules"); each is read once
  // per run.
  const char* python_path = std::getenv("PYTHONPATH");
  fe::module_loader loader(opt.include_dirs,
                           fe::module_loader::split_path_list(python_path ? python_path : ""));
  opt.loader = &loader;
  const auto inputs =
      commscope::opt::expand_inputs(opt.paths, [&](const std::string& path, bool named) {
        return (!named || opt.force_exclude) && is_excluded(path, setup);
      });
  loader.set_run_files(inputs.files);
  // A run that checks nothing because the exclusions left nothing says so: its last line
  // alone would read as an all-clear.
  const auto excluded = [](std::size_t files, std::size_t directories) {
    std::string left_out;
    const auto count = [&](std::size_t n, std::string_view one, std::string_view many) {
      if (n)
        left_out += (left_out.empty() ? " (" : " and ") + std::to_string(n) + ' ' +
                    std::string(n == 1 ? one : many);
    };
    count(files, "file", "files");
    count(directories, "directory", "directories");
    return left_out.empty() ? left_out : left_out + " excluded)";
  };
  for (const auto& dir : inputs.empty_directories)
    std::cerr << "commscope-opt: warning: no Python files under " << dir.path
              << excluded(dir.excluded_files, dir.excluded_directories) << '\n';
  if (inputs.files.empty() && inputs.excluded_files)
    std::cerr << "commscope-opt: warning: no Python files to check"
              << excluded(inputs.excluded_files, 0) << '\n';
  int status = exit_ok;
  if (opt.format == output_format::json && !inputs.several &&
      (opt.emit == emit_kind::plan || opt.emit == emit_kind::both) &&
      (opt.paths.empty() || inputs.files.size() == 1)) {
    status = run_json_one(opt, setup, opt.paths.empty() ? std::string() : inputs.files.front());
  } else {
    std::vector<std::string> files = inputs.files;
    if (opt.paths.empty())
      files.emplace_back(); // the built-in example
    // Every input excluded: the JSON is still a document, of no files.
    status = run_files(opt, setup, files, inputs.several || (!opt.paths.empty() && files.empty()));
  }
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
  } catch (const usage_error& e) {
    std::cerr << "commscope-opt: error: " << e.message << '\n';
  } catch (...) {
    std::cerr << "commscope-opt: internal error\n";
  }
  return exit_usage;
}
