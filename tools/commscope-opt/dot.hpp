// `--emit=dot` (docs/commscope-opt.md, "Pictures"): a picture of the plan in Graphviz dot
// syntax. Per host orchestrator a cluster per domain, labelled with its name and devices,
// holds its allocations (name, size) and their views; each dispatch (callee, devices,
// line) has an edge to the allocations it covers, and each collective one along the
// inheritance of coverage (from the allocation passing it on, through the collective, to
// the one that receives it). Slots are in source order and show their bytes when the size
// folds; a dispatch covering every slot of a domain has one edge to its cluster. A
// rejected program is drawn as far as it was analyzed, its allocations in a neutral
// cluster, each diagnostic a red note pointing at the node drawn at its place.
#pragma once

#include "bytes.hpp"
#include "finding.hpp"

#include <commscope/device_set.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
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
  // World-relative progressions as the printed form writes them (docs/semantics.md,
  // "Symbolic device sets").
  for (const device_progression p : devices.progressions()) {
    if (out.size() > 1)
      out += ", ";
    frontend::append_progression(out, p, "world_size()");
  }
  return out + "]";
}

/// Each allocation's rank in source order (its statement's line and column; ties by
/// index), by which pictures and tables list slots.
template <class Traits> std::vector<std::uint32_t> source_ranks(const function_plan<Traits>& fp) {
  const auto n = static_cast<std::uint32_t>(fp.allocations.size());
  std::vector<std::uint32_t> by_place(n);
  for (std::uint32_t a = 0; a < n; ++a)
    by_place[a] = a;
  // Ties by index: std::stable_sort is deprecated to clang with libstdc++ 12.
  std::sort(by_place.begin(), by_place.end(), [&](std::uint32_t x, std::uint32_t y) {
    const auto& p = fp.allocations[x].where;
    const auto& q = fp.allocations[y].where;
    return std::tuple(p.line, p.column, x) < std::tuple(q.line, q.column, y);
  });
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t k = 0; k < n; ++k)
    rank[by_place[k]] = k;
  return rank;
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
    places_.clear();
    out_ += "  subgraph " + dot_string("cluster_" + program_) + " {\n";
    out_ += "    label=" +
            dot_string("program " + std::string(name) + " (line " + std::to_string(line) + ")") +
            ";\n    style=rounded;\n";
  }

  /// How a function is drawn: as planned, or as part of a rejected program, whose
  /// domains are no plan (its allocations share one neutral cluster) and whose nodes are
  /// kept by their places for rejected() to point at.
  enum class verdict : std::uint8_t { accepted, rejected };

  /// One host orchestrator's plan; `size_text(a)` prints allocation a's size and
  /// `bytes(a)` gives its size in bytes when that folds to an integer (an
  /// `std::optional<std::int64_t>`); `traits` locates the views.
  template <class Traits, class SizeText, class Bytes>
  void function(const function_plan<Traits>& fp, const Traits& traits, SizeText&& size_text,
                Bytes&& bytes, verdict v = verdict::accepted) {
    const bool rejected = v == verdict::rejected;
    const std::string f = program_ + "_f" + std::to_string(functions_++);
    out_ += "    subgraph " + dot_string("cluster_" + f) + " {\n";
    out_ += "      label=" + dot_string(std::string(fp.name)) + ";\n      style=solid;\n";
    const auto n = static_cast<std::uint32_t>(fp.allocations.size());
    const auto alloc_id = [&](std::uint32_t a) { return dot_string(f + "_a" + std::to_string(a)); };
    if (n == 0)
      out_ +=
          "      " + dot_string(f + "_none") + " [shape=plaintext, label=\"no allocations\"];\n";
    // Slots are drawn and edges ordered in source order, whatever order the analysis
    // found the allocations in.
    const std::vector<std::uint32_t> rank = source_ranks(fp);
    const auto in_source_order = [&](std::vector<std::uint32_t>& allocations) {
      std::sort(allocations.begin(), allocations.end(),
                [&](std::uint32_t x, std::uint32_t y) { return rank[x] < rank[y]; });
    };
    // An allocation's node and its views' beside it.
    const auto draw_allocation = [&](std::uint32_t a, std::string_view indent) {
      const auto& al = fp.allocations[a];
      const std::string size = size_with_bytes(size_text(a), bytes(a));
      out_ += std::string(indent) + alloc_id(a) +
              " [shape=box, style=filled, fillcolor=white, label=" +
              dot_string(std::string(al.name) + "\n" + size) + "];\n";
      if (rejected)
        place(al.where.line, al.where.column, alloc_id(a));
      for (const auto w : fp.views_of(a)) {
        const auto& view = fp.views[w];
        const auto* var = view.variable;
        const std::string id = dot_string(f + "_v" + std::to_string(w));
        out_ += std::string(indent) + id + " [shape=ellipse, label=" +
                dot_string(var ? std::string(var->name.view()) : std::string("view")) + "];\n";
        out_ += std::string(indent) + id + " -> " + alloc_id(a) +
                " [style=dotted, arrowhead=none, label=\"view\"];\n";
        if (rejected && view.statement != typename Traits::statement{}) {
          const auto at = traits.location_of(view.statement);
          place(at.line, at.column, id);
        }
      }
    };
    // The domain each allocation is drawn in (no_index: the neutral cluster), and each
    // domain's first slot in source order, which an edge to the whole cluster points at.
    std::vector<std::uint32_t> drawn_in(n, no_index);
    std::vector<std::uint32_t> first_slot(fp.domains.size(), no_index);
    std::vector<std::uint32_t> slots;
    if (!rejected)
      for (std::size_t d = 0; d < fp.domains.size(); ++d) {
        const auto& dom = fp.domains[d];
        const std::string name =
            dom.name.empty() ? "comm_d" + std::to_string(d) : std::string(dom.name);
        out_ += "      subgraph " + dot_string(domain_cluster(f, d)) + " {\n";
        out_ += "        label=" + dot_string(name + "\ndevices: " + devices_text(dom.devices)) +
                ";\n        style=filled;\n        fillcolor=\"#eef3fb\";\n";
        slots.clear();
        for (const auto a : dom.slots)
          if (a < n && drawn_in[a] == no_index) {
            drawn_in[a] = static_cast<std::uint32_t>(d);
            slots.push_back(a);
          }
        in_source_order(slots);
        if (!slots.empty())
          first_slot[d] = slots.front();
        for (const auto a : slots)
          draw_allocation(a, "        ");
        out_ += "      }\n";
      }
    // The allocations of no domain: all of a rejected program's, and in a plan none.
    slots.clear();
    for (std::uint32_t a = 0; a < n; ++a)
      if (drawn_in[a] == no_index)
        slots.push_back(a);
    if (!slots.empty()) {
      in_source_order(slots);
      out_ += "      subgraph " + dot_string("cluster_" + f + "_unplanned") + " {\n";
      out_ += "        label=" +
              dot_string(rejected ? "allocations\n(no domains: rejected)" : "no domain") +
              ";\n        style=dashed;\n        color=gray;\n";
      for (const auto a : slots)
        draw_allocation(a, "        ");
      out_ += "      }\n";
    }
    // One node per call (a call passing two views covers two allocations), in source
    // order; what each covers, and along which pairs a collective passes coverage on.
    using kind = typename contribution<Traits>::kind;
    struct call {
      const contribution<Traits>* first = nullptr;
      std::vector<std::uint32_t> covers;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> passes; ///< from, receiver
    };
    using key = std::tuple<std::uint32_t, std::uint32_t, kind, std::string_view>;
    std::map<key, call> calls;
    for (const auto& c : fp.evidence) {
      auto& k = calls[key{static_cast<std::uint32_t>(c.where.line),
                          static_cast<std::uint32_t>(c.where.column), c.what, c.callee}];
      if (!k.first)
        k.first = &c;
      if (c.receiver >= n)
        continue;
      if (c.what == kind::dispatch)
        k.covers.push_back(c.receiver);
      else if (c.from < n)
        k.passes.emplace_back(c.from, c.receiver);
    }
    // Per domain, how many of its slots the call at hand covers (reset after each call),
    // and per allocation the last call that drew an edge from or to it (index + 1).
    std::vector<std::uint32_t> covered(fp.domains.size(), 0);
    std::vector<std::uint32_t> touched;
    std::vector<std::size_t> edge_from(n, 0), edge_to(n, 0);
    std::size_t index = 0;
    for (auto& [k, c] : calls) {
      const auto line = std::get<0>(k);
      const bool dispatch = std::get<2>(k) == kind::dispatch;
      const std::string id = dot_string(f + (dispatch ? "_x" : "_c") + std::to_string(index++));
      const std::string label =
          dispatch ? std::string(c.first->callee) + "\ndevices: " + devices_text(c.first->devices) +
                         "\nline " + std::to_string(line)
                   : std::string(c.first->callee) + "\nline " + std::to_string(line);
      out_ += "      " + id +
              (dispatch ? " [shape=cds, style=filled, fillcolor=\"#fff4d6\", label="
                        : " [shape=hexagon, style=filled, fillcolor=\"#e6f5e6\", label=") +
              dot_string(label) + "];\n";
      if (rejected)
        place(line, std::get<1>(k), id);
      in_source_order(c.covers);
      c.covers.erase(std::unique(c.covers.begin(), c.covers.end()), c.covers.end());
      // A dispatch covering every slot of a domain of several draws one edge to the
      // domain's cluster: a fan of edges to each slot said nothing more.
      touched.clear();
      for (const auto a : c.covers)
        if (const auto d = drawn_in[a]; d != no_index && covered[d]++ == 0)
          touched.push_back(d);
      for (const auto a : c.covers) {
        const auto d = drawn_in[a];
        const bool whole = d != no_index && covered[d] == fp.domains[d].slots.size() &&
                           covered[d] >= 2 && first_slot[d] != no_index;
        if (!whole)
          out_ += "      " + id + " -> " + alloc_id(a) + ";\n";
        else if (a == first_slot[d]) // the cluster's edge, drawn once
          out_ += "      " + id + " -> " + alloc_id(a) +
                  " [lhead=" + dot_string(domain_cluster(f, d)) + "];\n";
      }
      for (const auto d : touched)
        covered[d] = 0;
      std::sort(c.passes.begin(), c.passes.end(), [&](const auto& x, const auto& y) {
        return std::tuple(rank[x.first], rank[x.second]) <
               std::tuple(rank[y.first], rank[y.second]);
      });
      for (const auto& [from, to] : c.passes) {
        if (std::exchange(edge_from[from], index) != index)
          out_ += "      " + alloc_id(from) + " -> " + id + " [style=dashed];\n";
        if (std::exchange(edge_to[to], index) != index)
          out_ += "      " + id + " -> " + alloc_id(to) + " [style=dashed, label=\"inherits\"];\n";
      }
    }
    out_ += "    }\n";
  }

  /// The program was rejected (after its functions, drawn as verdict::rejected): each
  /// diagnostic a red note with its message, with a red edge to the node drawn at its
  /// place (the same line and column, else the first on its line), else on its own.
  void rejected(const std::vector<finding>& findings) {
    out_ += "    color=red;\n    fontcolor=red;\n";
    std::sort(places_.begin(), places_.end(), [](const auto& x, const auto& y) {
      return std::tuple(x.line, x.column, x.drawn) < std::tuple(y.line, y.column, y.drawn);
    });
    const auto at_or_after = [&](std::uint32_t line, std::uint32_t column) {
      return std::lower_bound(
          places_.begin(), places_.end(), std::tuple(line, column),
          [](const auto& p, const auto& t) { return std::tuple(p.line, p.column) < t; });
    };
    for (std::size_t k = 0; k < findings.size(); ++k) {
      const auto& f = findings[k];
      std::string text = (f.file.empty() ? "" : f.file + ":") + location(f) + ": " + f.message +
                         " [" + f.code + "]\n";
      for (const auto& note : f.notes)
        text += "  " + std::to_string(note.line) + ":" + std::to_string(note.column) +
                ": note: " + note.message + "\n";
      const std::string id = dot_string(program_ + "_e" + std::to_string(k));
      // Left-justified lines, each ended by dot's `\l`.
      out_ += "    " + id + " [shape=note, color=red, fontcolor=red, label=\"" +
              left_justified(text) + "\"];\n";
      if (!f.file.empty()) // a place in another file: no node of this picture is there
        continue;
      auto p = at_or_after(f.line, f.column);
      if (p == places_.end() || p->line != f.line || p->column != f.column)
        p = at_or_after(f.line, 0);
      if (p != places_.end() && p->line == f.line)
        out_ += "    " + id + " -> " + p->id + " [color=red];\n";
    }
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
  /// A node of a rejected program drawn at a place a diagnostic may point at.
  struct placed {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::size_t drawn = 0; ///< its position among the program's: the first drawn wins a tie
    std::string id;        ///< already a dot string
  };
  template <class Line, class Column> void place(Line line, Column column, std::string id) {
    places_.push_back({static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column),
                       places_.size(), std::move(id)});
  }
  static std::string domain_cluster(const std::string& function, std::size_t d) {
    return "cluster_" + function + "_d" + std::to_string(d);
  }
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
  std::vector<placed> places_; ///< the program's, while it is rejected
};

} // namespace commscope::opt::dot
