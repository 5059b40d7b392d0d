// Unknown decorators of the DSL (docs/commscope-opt.md, "No false all-clear"): a `@pl.`
// decorator the DSL does not define makes Python fail when the module is imported, so a
// file that holds one must not pass as clean.
#include "edit_distance.hpp"
#include "module_scan.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

namespace {

constexpr std::array<std::string_view, 9> dsl_decorators = {
    "pl.program",    "pl.function",   "pl.inline",     "pl.jit",       "pl.jit.host",
    "pl.jit.incore", "pl.jit.inline", "pl.jit.opaque", "pl.jit.extern"};

// The values of `@pl.function`'s keywords. Beyond those the front end reads (HOST, CHIP,
// Orchestration, Graph, Orchestrator), the other members of the DSL's enumerations, so
// that a valid value is never reported.
constexpr std::array<std::string_view, 15> levels = {
    "AIV", "AIC",   "CORE",  "CORE_GROUP", "CHIP_DIE",  "CHIP",      "HOST",  "CLUSTER",
    "POD", "CLOS1", "CLOS2", "CLUSTER_0",  "CLUSTER_1", "CLUSTER_2", "GLOBAL"};
constexpr std::array<std::string_view, 7> function_types = {
    "Opaque", "Orchestration", "InCore", "AIC", "AIV", "Group", "Graph"};
constexpr std::array<std::string_view, 2> roles = {"Orchestrator", "Worker"};

struct keyword_values {
  std::string_view keyword;
  std::string_view prefix; ///< canonical, with the final '.'
  std::span<const std::string_view> values;
};

/// The nearest of `candidates` within two edits of `name` (the first on a tie), or empty.
std::string_view nearest(std::string_view name, std::span<const std::string_view> candidates,
                         std::string_view prefix = {}) {
  std::string_view best;
  std::size_t best_distance = 3;
  std::string full;
  for (const auto c : candidates) {
    full.assign(prefix);
    full += c;
    const std::size_t d = edit_distance(name, full, 2);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

class checker {
public:
  checker(const token_stream& ts, const module_scan& scan) : ts_(ts), scan_(scan) {}

  std::vector<decorator_finding> run() {
    for (const auto& d : scan_.definitions)
      for (const auto& [b, e] : d.decorators)
        decorator(d, b, e);
    return std::move(out_);
  }

private:
  /// `suggestion`, a canonical spelling (`pl.jit.host`), as the file would write it: through
  /// the alias by which `spelled` is `canonical` (`lang.jit.hots` is `pl.jit.hots`, so
  /// `lang.jit.host`; `from pypto.language import Level as L`: `L.HOST`).
  static std::string respelled(std::string_view spelled, std::string_view canonical,
                               std::string_view suggestion) {
    std::size_t n = 0; // their common end
    while (n < spelled.size() && n < canonical.size() &&
           spelled[spelled.size() - 1 - n] == canonical[canonical.size() - 1 - n])
      ++n;
    const std::string_view dsl = canonical.substr(0, canonical.size() - n);
    if (!suggestion.starts_with(dsl))
      return std::string(suggestion);
    return std::string(spelled.substr(0, spelled.size() - n)) +
           std::string(suggestion.substr(dsl.size()));
  }

  void decorator(const definition& d, std::uint32_t b, std::uint32_t e) {
    std::uint32_t end = e;
    for (std::uint32_t i = b; i < e; ++i)
      if (ts_.tokens[i].is_op("(")) {
        end = i;
        break;
      }
    const std::string spelled = dotted_name(ts_, b, end);
    if (spelled.empty())
      return;
    const std::string canonical = scan_.names.canonical(spelled);
    if (!canonical.starts_with("pl.") || scan_.names.foreign(root(spelled)))
      return; // not the DSL's module
    bool known = false;
    for (const auto k : dsl_decorators)
      known = known || canonical == k;
    if (!known) {
      front_end_diagnostic fd;
      fd.code = "unknown-decorator";
      fd.message = "unknown decorator '" + spelled + "': the DSL has no such decorator";
      if (const auto s = nearest(canonical, dsl_decorators); !s.empty())
        fd.help = "did you mean '" + respelled(spelled, canonical, s) + "'?";
      add(d, b, std::move(fd));
      return;
    }
    if (canonical == "pl.function" && end < e)
      keywords(d, b, end, e, spelled);
  }

  /// `@pl.function(level=pl.Level.X, ...)`: the values of level=, type= and role= that
  /// are spelled as members of the DSL's enumerations.
  void keywords(const definition& d, std::uint32_t name, std::uint32_t open, std::uint32_t e,
                const std::string& spelled) {
    static constexpr std::array<keyword_values, 3> table = {
        keyword_values{"level", "pl.Level.", levels},
        keyword_values{"type", "pl.FunctionType.", function_types},
        keyword_values{"role", "pl.Role.", roles}};
    int depth = 0;
    for (std::uint32_t i = open; i < e; ++i) {
      const token& t = ts_.tokens[i];
      depth += t.kind() == tok::op ? bracket_nesting(t.flags()) : 0;
      if (depth != 1 || t.kind() != tok::name || i + 2 >= e || !ts_.tokens[i + 1].is_op("=") ||
          !(ts_.tokens[i - 1].is_op("(") || ts_.tokens[i - 1].is_op(",")))
        continue;
      // The value: a dotted name up to the next ',' or ')' at this depth.
      std::uint32_t v = i + 2, ve = v;
      while (ve < e && !ts_.tokens[ve].is_op(",") && !ts_.tokens[ve].is_op(")"))
        ++ve;
      const std::string value = dotted_name(ts_, v, ve);
      if (value.empty())
        continue;
      const std::string canonical = scan_.names.canonical(value);
      if (scan_.names.foreign(root(value)))
        continue;
      for (const auto& kv : table) {
        if (ts_.text(t) != kv.keyword || !canonical.starts_with(kv.prefix))
          continue;
        const std::string_view member = std::string_view(canonical).substr(kv.prefix.size());
        bool known = member.find('.') != std::string_view::npos; // not a member: left alone
        for (const auto k : kv.values)
          known = known || member == k;
        if (known)
          break;
        front_end_diagnostic fd;
        fd.code = "unknown-decorator";
        fd.message = "unknown value '" + value + "' of " + std::string(kv.keyword) + "= in '@" +
                     spelled + "': the DSL has no such " + std::string(kv.keyword);
        if (const auto s = nearest(member, kv.values); !s.empty())
          fd.help = "did you mean '" +
                    respelled(value, canonical, std::string(kv.prefix) + std::string(s)) + "'?";
        add(d, name, std::move(fd));
        break;
      }
      i = ve - 1;
    }
  }

  static std::string_view root(std::string_view dotted) {
    return dotted.substr(0, dotted.find('.'));
  }

  /// The finding, at the decorator's name, for the program the definition belongs to:
  /// its own, else the program class it is a method of, else its scope's `@pl.jit` group.
  void add(const definition& d, std::uint32_t name, front_end_diagnostic fd) {
    fd.where = ts_.where(ts_.tokens[name]);
    std::int32_t program = d.program;
    if (program < 0)
      for (const auto& c : scan_.definitions)
        if (c.is_class && c.role == definition::dsl::program_class && c.own_scope == d.scope)
          program = c.program;
    if (program < 0)
      for (std::size_t p = 0; p < scan_.programs.size(); ++p)
        if (!scan_.programs[p].is_class && scan_.programs[p].scope == d.scope)
          program = static_cast<std::int32_t>(p);
    out_.push_back({program, std::move(fd)});
  }

  const token_stream& ts_;
  const module_scan& scan_;
  std::vector<decorator_finding> out_;
};

} // namespace

std::vector<decorator_finding> unknown_decorators(const token_stream& ts, const module_scan& scan) {
  return checker(ts, scan).run();
}

} // namespace commscope::frontend::detail
