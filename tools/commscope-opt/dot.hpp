// `--emit=dot` (cli.md): a picture of the plan in Graphviz dot syntax. Per host
// orchestrator a cluster per domain, labelled with its name and devices, holds its
// allocations (name, size) and their views; each dispatch (callee, devices, line) has an
// edge to the allocations it covers, and each collective one along the inheritance of
// coverage (from the allocation passing it on, through the collective, to the one that
// receives it). A rejected program is a cluster with its diagnostics.
#pragma once

#include "finding.hpp"

#include <commscope/device_set.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/plan.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace commscope::opt::dot {

/// `s` as the text of a double-quoted dot string: quotes and backslashes escaped (a
/// backslash starts dot's own escapes such as `\n`), control bytes and bytes that are not
/// valid UTF-8 replaced by '?' (a line break becomes dot's `\n`), so that any name or message
/// renders as it reads.
inline void append_escaped(std::string& out, std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '"' || c == '\\')
        out += '\\';
      if (c == '\n') {
        out += "\\n"; // a line break of the label
        ++i;
        continue;
      }
      out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    // The length a lead byte announces, and whether the continuation bytes are there.
    const std::size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    bool valid = n != 0 && i + n <= s.size() && c < 0xf5;
    for (std::size_t k = 1; valid && k < n; ++k)
      valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (valid) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += '?';
      ++i;
    }
  }
}

inline std::string dot_string(std::string_view s) {
  std::string out = "\"";
  append_escaped(out, s);
  out += '"';
  return out;
}

/// A device set as a label shows it: `all`, or the ids, abbreviated past a dozen.
inline std::string devices_text(const device_set& devices) {
  if (devices.is_all())
    return "all";
  std::vector<std::int64_t> ids;
  std::uint64_t count = 0;
  devices.for_each([&](device_id id) {
    if (ids.size() < 12)
      ids.push_back(std::int64_t{id});
    ++count;
  });
  std::string out = "[";
  for (std::size_t k = 0; k < ids.size(); ++k)
    out += (k ? ", " : "") + std::to_string(ids[k]);
  if (count > ids.size())
    out += ", ... (" + std::to_string(count) + " devices)";
  // World-relative progressions as the printed form writes them (pass.md, "Symbolic
  // device sets").
  for (const device_progression p : devices.progressions()) {
    if (out.size() > 1)
      out += ", ";
    frontend::append_progression(out, p, "world_size()");
  }
  return out + "]";
}

/// Writes one dot graph, program by program.
class graph_writer {
public:
  /// `title` labels the whole picture (the file as given).
  explicit graph_writer(std::string_view title) {
    out_ = "digraph commscope {\n";
    out_ += "  graph [label=" + dot_string(title) +
            ", labelloc=t, fontname=\"Helvetica\", rankdir=LR, compound=true];\n";
    out_ += "  node [fontname=\"Helvetica\", fontsize=10];\n";
    out_ += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  }

  /// A syntax error: the file has no programs, only this.
  void syntax_error(const finding& f) {
    out_ += "  \"syntax\" [shape=note, color=red, fontcolor=red, label=" +
            dot_string("syntax error\n" + location(f) + ": " + f.message) + "];\n";
  }

  /// A program's cluster; its functions follow, then end_program().
  void begin_program(std::string_view name, std::uint32_t line) {
    program_ = "p" + std::to_string(programs_++);
    functions_ = 0;
    out_ += "  subgraph " + dot_string("cluster_" + program_) + " {\n";
    out_ += "    label=" +
            dot_string("program " + std::string(name) + " (line " + std::to_string(line) + ")") +
            ";\n    style=rounded;\n";
  }

  /// The program was rejected: its diagnostics instead of its functions.
  void rejected(const std::vector<finding>& findings) {
    std::string text = "rejected\n";
    for (const auto& f : findings) {
      text += location(f) + ": " + f.message + " [" + f.code + "]\n";
      for (const auto& n : f.notes)
        text += "  " + std::to_string(n.line) + ":" + std::to_string(n.column) +
                ": note: " + n.message + "\n";
    }
    // Left-justified lines, each ended by dot's `\l`.
    out_ += "    \"" + program_ + "_rejected\" [shape=note, color=red, fontcolor=red, label=\"" +
            left_justified(text) + "\"];\n";
  }

  /// One host orchestrator's plan; `size_text(a)` prints allocation a's size.
  template <class Traits, class SizeText>
  void function(const function_plan<Traits>& fp, SizeText&& size_text) {
    const std::string f = program_ + "_f" + std::to_string(functions_++);
    out_ += "    subgraph " + dot_string("cluster_" + f) + " {\n";
    out_ += "      label=" + dot_string(std::string(fp.name)) + ";\n      style=solid;\n";
    const auto alloc_id = [&](std::uint32_t a) { return dot_string(f + "_a" + std::to_string(a)); };
    if (fp.allocations.empty())
      out_ +=
          "      " + dot_string(f + "_none") + " [shape=plaintext, label=\"no allocations\"];\n";
    for (std::size_t d = 0; d < fp.domains.size(); ++d) {
      const auto& dom = fp.domains[d];
      const std::string name =
          dom.name.empty() ? "comm_d" + std::to_string(d) : std::string(dom.name);
      out_ += "      subgraph " + dot_string("cluster_" + f + "_d" + std::to_string(d)) + " {\n";
      out_ += "        label=" + dot_string(name + "\ndevices: " + devices_text(dom.devices)) +
              ";\n        style=filled;\n        fillcolor=\"#eef3fb\";\n";
      for (const auto a : dom.slots) {
        const auto& al = fp.allocations[a];
        out_ += "        " + alloc_id(a) + " [shape=box, style=filled, fillcolor=white, label=" +
                dot_string(std::string(al.name) + "\n" + size_text(a)) + "];\n";
        for (const auto v : fp.views_of(a)) {
          const auto* var = fp.views[v].variable;
          const std::string id = dot_string(f + "_v" + std::to_string(v));
          out_ += "        " + id + " [shape=ellipse, label=" +
                  dot_string(var ? std::string(var->name.view()) : std::string("view")) + "];\n";
          out_ += "        " + id + " -> " + alloc_id(a) +
                  " [style=dotted, arrowhead=none, label=\"view\"];\n";
        }
      }
      out_ += "      }\n";
    }
    // One node per call (a call passing two views covers two allocations).
    using kind = typename contribution<Traits>::kind;
    struct call {
      kind what;
      std::string_view callee;
      std::uint32_t line, column;
      std::string id;
    };
    std::vector<call> calls;
    std::vector<std::pair<std::string, std::string>> edges; // drawn once each
    const auto edge = [&](const std::string& from, const std::string& to, std::string_view style) {
      for (const auto& e : edges)
        if (e.first == from && e.second == to)
          return;
      edges.emplace_back(from, to);
      out_ += "      " + from + " -> " + to + std::string(style) + ";\n";
    };
    for (const auto& c : fp.evidence) {
      const auto line = static_cast<std::uint32_t>(c.where.line);
      const auto column = static_cast<std::uint32_t>(c.where.column);
      const call* found = nullptr;
      for (const auto& k : calls)
        if (k.what == c.what && k.callee == c.callee && k.line == line && k.column == column)
          found = &k;
      if (!found) {
        const bool dispatch = c.what == kind::dispatch;
        calls.push_back({c.what, c.callee, line, column,
                         dot_string(f + (dispatch ? "_x" : "_c") + std::to_string(calls.size()))});
        found = &calls.back();
        const std::string label =
            dispatch ? std::string(c.callee) + "\ndevices: " + devices_text(c.devices) + "\nline " +
                           std::to_string(line)
                     : std::string(c.callee) + "\nline " + std::to_string(line);
        out_ += "      " + found->id +
                (dispatch ? " [shape=cds, style=filled, fillcolor=\"#fff4d6\", label="
                          : " [shape=hexagon, style=filled, fillcolor=\"#e6f5e6\", label=") +
                dot_string(label) + "];\n";
      }
      if (c.receiver >= fp.allocations.size())
        continue;
      if (c.what == kind::dispatch) {
        edge(found->id, alloc_id(c.receiver), "");
      } else if (c.from < fp.allocations.size()) {
        edge(alloc_id(c.from), found->id, " [style=dashed]");
        edge(found->id, alloc_id(c.receiver), " [style=dashed, label=\"inherits\"]");
      }
    }
    out_ += "    }\n";
  }

  /// A program without host orchestrators still shows as a cluster.
  void end_program(bool empty) {
    if (empty)
      out_ += "    \"" + program_ + "_empty\" [shape=plaintext, label=\"no host orchestrator\"];\n";
    out_ += "  }\n";
  }

  [[nodiscard]] std::string finish() && {
    out_ += "}\n";
    return std::move(out_);
  }

private:
  static std::string location(const finding& f) {
    return std::to_string(f.line) + ":" + std::to_string(f.column);
  }
  /// `text`'s lines, escaped, each ended by dot's left-justifying `\l`.
  static std::string left_justified(std::string_view text) {
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
      auto end = text.find('\n', start);
      if (end == std::string_view::npos)
        end = text.size();
      append_escaped(out, text.substr(start, end - start));
      out += "\\l";
      start = end + 1;
    }
    return out;
  }

  std::string out_;
  std::string program_;
  std::size_t programs_ = 0;
  std::size_t functions_ = 0;
};

} // namespace commscope::opt::dot
