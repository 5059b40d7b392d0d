// Unknown decorators of the DSL (docs/commscope-opt.md, "No false all-clear"): a `@pl.`
// decorator the DSL does not define makes Python fail when the module is imported, so a
// file that holds one must not pass as clean.
#include "edit_distance.hpp"
#include "module_scan.hpp"

#include <commscope/frontend/frontend.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
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

class checker {
public:
  checker(const token_stream& ts, const module_scan& scan)
      : ts_(ts), scan_(scan), roots_(scan.names.roots()) {
    for (const auto r : roots_) {
      root_first_[static_cast<unsigned char>(r.front())] = true;
      root_lengths_ |= std::uint64_t{1} << std::min<std::size_t>(r.size(), 63);
    }
  }

  std::vector<decorator_finding> run() {
    find_suspects();
    for (const auto& d : scan_.definitions)
      for (const auto& [b, e] : d.decorators)
        decorator(d, b, e);
    for (const auto& u : scan_.unread_wrappings)
      wrapping(u);
    if (!suspects_.empty())
      suspect_calls();
    stray_references();
    // Source order, as the definitions' findings were before wrappings joined them
    // (no two share a place: a sort by it is stable).
    std::sort(out_.begin(), out_.end(), [](const auto& a, const auto& b) {
      const auto& x = a.diagnostic.where;
      const auto& y = b.diagnostic.where;
      return std::tie(x.line, x.column, a.diagnostic.message) <
             std::tie(y.line, y.column, b.diagnostic.message);
    });
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
    if (spelled.empty()) {
      // `@(pl).jit.host`, `@pl.jit.host if X else pl.jit`: an expression of the DSL's
      // decorators that is no dotted name, whose value the front end does not compute.
      if (d.role == definition::dsl::none && mentions_decorators(b, e))
        unread(d, b, e, "it is no dotted name");
      return;
    }
    const std::string canonical = scan_.names.canonical(spelled);
    if (!canonical.starts_with("pl.") || scan_.names.foreign(root(spelled))) {
      if (d.role != definition::dsl::none || !suspects_.contains(root(spelled)))
        return; // not the DSL's module
      if (const auto* r = bound_to_decorators(d.scope, root(spelled)))
        unread(d, b, e, bound_on(*r));
      return;
    }
    // An alias the module binds again to the DSL's decorators (`H = pl.jit` then
    // `H = H.host`) is read as its first binding alone.
    if (const auto* r = rebound_alias(root(spelled))) {
      unread(d, b, e, bound_on(*r));
      return;
    }
    bool known = false;
    for (const auto k : dsl_decorators)
      known = known || canonical == k;
    if (!known) {
      front_end_diagnostic fd;
      fd.code = "unknown-decorator";
      fd.message = "unknown decorator '" + spelled + "': the DSL has no such decorator";
      if (const auto s = nearest_spelling(canonical, dsl_decorators); !s.empty())
        fd.help = "did you mean '" + respelled(spelled, canonical, s) + "'?";
      add(d, b, std::move(fd));
      return;
    }
    if (canonical == "pl.function" && end < e)
      keywords(d, b, end, e, spelled);
  }

  /// `@pl.function(level=pl.Level.X, ...)`: the values of level=, type= and role= that
  /// are spelled as members of the DSL's enumerations; any other value of theirs, or an
  /// unpacking that may pass them, leaves the function's kind unread.
  void keywords(const definition& d, std::uint32_t name, std::uint32_t open, std::uint32_t e,
                const std::string& spelled) {
    static constexpr std::array<keyword_values, 3> table = {
        keyword_values{"level", "pl.Level.", levels},
        keyword_values{"type", "pl.FunctionType.", function_types},
        keyword_values{"role", "pl.Role.", roles}};
    const decorator_keywords read = read_decorator_keywords(ts_, scan_, open, e);
    if (read.unreadable != 0) {
      const std::uint32_t u = read.unreadable, ue = read.unreadable_end;
      unreadable(d, name, spelled,
                 "it unpacks '" +
                     std::string(ts_.source.substr(
                         ts_.tokens[u].begin, ts_.end(ts_.tokens[ue - 1]) - ts_.tokens[u].begin)) +
                     "', which may pass any of level=, type= and role=");
      return;
    }
    for (const auto& k : read.keywords) {
      const keyword_values* kv = nullptr;
      for (const auto& x : table)
        kv = k.name == x.keyword ? &x : kv;
      if (!kv)
        continue;
      const std::string value = dotted_name(ts_, k.value_begin, k.value_end);
      const std::string canonical = scan_.names.canonical(value);
      if (value.empty() || !canonical.starts_with(kv->prefix) || scan_.names.foreign(root(value))) {
        const std::uint32_t vb = ts_.tokens[k.value_begin].begin;
        unreadable(
            d, name, spelled,
            std::string(k.name) + "=" +
                std::string(ts_.source.substr(vb, ts_.end(ts_.tokens[k.value_end - 1]) - vb)) +
                " is no member of " + std::string(kv->prefix.substr(0, kv->prefix.size() - 1)) +
                " the front end can read");
        return;
      }
      const std::string_view member = std::string_view(canonical).substr(kv->prefix.size());
      bool known = member.find('.') != std::string_view::npos; // not a member: left alone
      for (const auto m : kv->values)
        known = known || member == m;
      if (known)
        continue;
      front_end_diagnostic fd;
      fd.code = "unknown-decorator";
      fd.message = "unknown value '" + value + "' of " + std::string(kv->keyword) + "= in '@" +
                   spelled + "': the DSL has no such " + std::string(kv->keyword);
      if (const auto s = nearest_spelling(member, kv->values); !s.empty())
        fd.help = "did you mean '" +
                  respelled(value, canonical, std::string(kv->prefix) + std::string(s)) + "'?";
      add(d, name, std::move(fd));
    }
  }

  /// A function whose kind the front end cannot read would drop out of the check
  /// unseen: the decorator is refused, and says why.
  void unreadable(const definition& d, std::uint32_t name, const std::string& spelled,
                  const std::string& why) {
    front_end_diagnostic fd;
    fd.code = "unknown-decorator";
    fd.message = "the kind of '" + std::string(ts_.text(ts_.tokens[d.name])) +
                 "' cannot be read from '@" + spelled + "(...)': " + why;
    fd.help = "write level=, type= and role= in the decorator itself, as members of "
              "pl.Level, pl.FunctionType and pl.Role";
    add(d, name, std::move(fd));
  }

  /// Whether the tokens [b, e) name the DSL's module or one of its decorators (`pl`,
  /// `pl.jit.host`, through the file's aliases): not its types or operations.
  bool mentions_decorators(std::uint32_t b, std::uint32_t e) const {
    for (std::uint32_t i = b; i < e; ++i) {
      if (i > b && ts_.tokens[i - 1].is_op("."))
        continue;
      const auto n = dsl_name_at(i, e);
      if (!n)
        continue;
      if (n->canonical == "pl" || names_dsl_decorator(n->canonical))
        return true;
    }
    return false;
  }

  /// A dotted name through the DSL's spellings: as written, canonical, and its end.
  struct dsl_name {
    std::string spelled;
    std::string canonical;
    std::uint32_t end = 0;
  };
  /// The dotted name that starts at token i and ends before e, when its first name is
  /// one the aliases map and no import of another module binds; else nothing. With
  /// `last` given, a name of more than one part must end in one of them.
  std::optional<dsl_name> dsl_name_at(std::uint32_t i, std::uint32_t e,
                                      std::span<const std::string_view> last = {}) const {
    const auto& t = ts_.tokens;
    // Most names spell nothing of the DSL: no string is made for them (this runs over
    // every binding of the file, and for stray_references over every token).
    if (t[i].kind() != tok::name || !is_root(ts_.text(t[i])))
      return std::nullopt;
    std::uint32_t k = i + 1;
    while (k + 1 < e && t[k].is_op(".") && t[k + 1].kind() == tok::name)
      k += 2;
    if (!last.empty() && k > i + 1 &&
        std::find(last.begin(), last.end(), ts_.text(t[k - 1])) == last.end())
      return std::nullopt;
    std::string spelled = dotted_name(ts_, i, k);
    if (spelled.empty() || scan_.names.foreign(root(spelled)))
      return std::nullopt;
    std::string canonical = scan_.names.canonical(spelled);
    return dsl_name{std::move(spelled), std::move(canonical), k};
  }

  bool separates(std::uint32_t k) const { return separates_statements(ts_.tokens, k); }

  /// The names bound somewhere to an expression of the DSL's decorators that is no
  /// wrapping the scan read or reported (`deco = pl.jit.host if X else pl.jit`,
  /// `deco = pl.function(level=pl.Level.HOST)`, `deco = pl.jit.host` in a function's
  /// body): a decorator or a call through one of them may make a DSL function unseen.
  void find_suspects() {
    std::unordered_set<std::uint32_t> wrapped; // the targets of wrappings
    for (const auto& d : scan_.definitions)
      if (d.name != d.keyword + 1)
        wrapped.insert(d.name);
    for (const auto& u : scan_.unread_wrappings)
      wrapped.insert(u.target);
    // Only a name that a decorator or a binding's call starts with is ever asked about
    // (decorator, suspect_calls): the bindings of other names are not read.
    const auto& t = ts_.tokens;
    std::unordered_set<std::string_view> used;
    for (const auto& d : scan_.definitions)
      for (const auto& [b, e] : d.decorators)
        if (t[b].kind() == tok::name)
          used.insert(ts_.text(t[b]));
    for (const auto& sc : scan_.scopes)
      for (const auto& r : sc.records)
        if (r.rhs_end >= r.rhs_begin + 3 && t[r.rhs_begin].kind() == tok::name &&
            t[r.rhs_end - 1].is_op(")"))
          used.insert(ts_.text(t[r.rhs_begin]));
    for (const auto& sc : scan_.scopes)
      for (const auto& r : sc.records)
        if (used.contains(ts_.text(t[r.name])) && !wrapped.contains(r.name))
          if (const auto [b, e] = value_of(r); mentions_decorators(b, e))
            suspects_.insert(ts_.text(t[r.name]));
  }

  std::pair<std::uint32_t, std::uint32_t> value_of(const py_scope::record& r) const {
    return binding_value(ts_, r);
  }

  /// The binding of `name`, a suspect, that code of scope `scope` sees when it holds an
  /// expression of the DSL's decorators; else nullptr.
  const py_scope::record* bound_to_decorators(std::int32_t scope, std::string_view name) {
    // Asked once per scope and name: a file of many calls through a suspect would
    // otherwise walk the scopes' bindings for each.
    std::string key = std::to_string(scope);
    key += ':';
    key += name;
    if (const auto it = bound_.find(key); it != bound_.end())
      return it->second;
    const py_scope::record* found = lookup_bound(scope, name);
    bound_.emplace(std::move(key), found);
    return found;
  }

  const py_scope::record* lookup_bound(std::int32_t scope, std::string_view name) const {
    const auto& t = ts_.tokens;
    // As Python looks it up: the scope itself, then the enclosing functions' and the
    // module's (class bodies aside).
    for (std::int32_t s = scope; s >= 0;) {
      const auto& sc = scan_.scopes[static_cast<std::size_t>(s)];
      bool bound = false;
      if (s == scope || sc.what != py_scope::kind::class_body)
        for (const auto& r : sc.records) {
          if (ts_.text(t[r.name]) != name)
            continue;
          bound = true;
          if (const auto [b, e] = value_of(r); mentions_decorators(b, e))
            return &r;
        }
      if (bound)
        return nullptr;
      s = sc.parent;
    }
    return nullptr;
  }

  /// A second module-level binding of `name`, an alias the scan read from its first
  /// (`H = pl.jit`), that binds it to an expression of the DSL's decorators; else nullptr.
  const py_scope::record* rebound_alias(std::string_view name) {
    // Asked once per name: a file of many decorators would otherwise walk the module's
    // bindings for each.
    std::string key(name);
    if (const auto it = rebound_.find(key); it != rebound_.end())
      return it->second;
    return rebound_[std::move(key)] = find_rebound_alias(name);
  }
  const py_scope::record* find_rebound_alias(std::string_view name) const {
    const auto& t = ts_.tokens;
    const py_scope::record* first = nullptr;
    for (const auto& r : scan_.scopes[0].records) {
      if (ts_.text(t[r.name]) != name)
        continue;
      if (!first) {
        first = &r;
        if (r.rhs_end == 0) // an import: the map's own
          return nullptr;
        continue;
      }
      if (const auto [b, e] = value_of(r); mentions_decorators(b, e))
        return &r;
    }
    return nullptr;
  }

  /// Why a name bound so is not read: "'deco' is bound on line 5 to '...', ...".
  std::string bound_on(const py_scope::record& r) const {
    const auto& t = ts_.tokens;
    const auto [b, e] = value_of(r);
    const std::uint32_t vb = t[b].begin;
    return "'" + std::string(ts_.text(t[r.name])) + "' is bound on line " +
           std::to_string(ts_.line(t[r.name])) + (r.rhs_end != 0 ? " to '" : " by '") +
           std::string(ts_.source.substr(vb, ts_.end(t[e - 1]) - vb)) +
           "': the front end follows only a name bound once at the module's level to a dotted "
           "name of the DSL's module";
  }

  /// `host = deco(impl)`, `deco` a suspect that resolves to such a binding: the wrapping
  /// of a decorator the front end does not read.
  void suspect_calls() {
    const auto& t = ts_.tokens;
    for (std::size_t s = 0; s < scan_.scopes.size(); ++s)
      for (const auto& r : scan_.scopes[s].records) {
        const std::uint32_t b = r.rhs_begin, e = r.rhs_end;
        if (e < b + 3 || t[b].kind() != tok::name || !t[e - 1].is_op(")") ||
            !suspects_.contains(ts_.text(t[b])))
          continue;
        std::uint32_t open = b + 1; // past the callee's dotted name, at its call's '('
        while (open + 1 < e && t[open].is_op(".") && t[open + 1].kind() == tok::name)
          open += 2;
        if (!t[open].is_op("("))
          continue;
        // A module-level alias of the DSL's (`deco = pl.jit.host`): the scan's wrapping.
        const std::string callee = dotted_name(ts_, b, open);
        if (const std::string c = scan_.names.canonical(callee);
            (c.starts_with("pl.") || c.starts_with("pld.")) && !scan_.names.foreign(root(callee)))
          continue;
        const auto* bound = bound_to_decorators(static_cast<std::int32_t>(s), ts_.text(t[b]));
        if (!bound || bound == &r)
          continue;
        front_end_diagnostic fd;
        fd.code = "unknown-decorator";
        fd.where = ts_.where(t[b]);
        fd.message =
            "cannot read '" + std::string(ts_.text(t[r.name])) + " = " +
            std::string(ts_.source.substr(t[b].begin, ts_.end(t[e - 1]) - t[b].begin)) +
            "', which may make a DSL function that the check would skip: " + bound_on(*bound);
        fd.help = "wrap the function in a dotted name of the DSL's module ('" +
                  std::string(ts_.text(t[r.name])) +
                  " = pl.jit.host(impl)'), or bind a name to one "
                  "alone at the module's level ('deco = pl.jit.host')";
        out_.push_back({program_of_scope(static_cast<std::int32_t>(s)), std::move(fd)});
      }
  }

  /// `pl.jit.host`, `pl.function` or `pl.program` named where the front end reads no
  /// decorator, wrapping or alias: in a decorator factory's body (`return
  /// pl.jit.host(f)`), inside another call (`functools.cache(pl.jit.host(f))`), in a
  /// display (`{"ring": pl.jit.host(f)}`). What it makes would drop out of the check
  /// unseen. Not reported again where a suspect's binding (suspect_calls, decorator) or
  /// an unread wrapping already is.
  void stray_references() {
    const auto& t = ts_.tokens;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> read; // token ranges read already
    for (const auto& d : scan_.definitions)
      for (const auto& range : d.decorators)
        read.push_back(range);
    for (const auto& u : scan_.unread_wrappings)
      read.emplace_back(u.callee_begin, u.callee_end);
    std::sort(read.begin(), read.end());
    const auto is_read = [&](std::uint32_t i) {
      auto it = std::upper_bound(read.begin(), read.end(),
                                 std::pair{i, std::numeric_limits<std::uint32_t>::max()});
      return it != read.begin() && std::prev(it)->first <= i && i < std::prev(it)->second;
    };
    const auto size = static_cast<std::uint32_t>(t.size());
    for (std::uint32_t i = 0; i < size && t[i].kind() != tok::end; ++i) {
      if (i > 0 && t[i - 1].is_op("."))
        continue;
      // `pl.jit.host`, `L.jit.host`, `J.host`; a name alone may be an alias of one.
      static constexpr std::array<std::string_view, 3> ends = {"host", "function", "program"};
      const auto n = dsl_name_at(i, size, ends);
      if (!n)
        continue;
      const std::string& spelled = n->spelled;
      const std::string& c = n->canonical;
      const std::uint32_t k = n->end;
      if (c != "pl.jit.host" && c != "pl.function" && c != "pl.program")
        continue;
      if (is_read(i))
        continue;
      std::uint32_t s = i; // the statement's first token
      while (s > 0 && !separates(s - 1))
        --s;
      // A decorator line, an import, the target of a binding (an alias's own name), a
      // module-level alias (`deco = pl.jit.host`), or the value of a suspect, which is
      // reported where it is used.
      if (t[s].is_op("@") || t[s].is_keyword("import") || t[s].is_keyword("from"))
        continue;
      if (i == s && k < t.size() && (t[k].is_op("=") || t[k].is_op(":")))
        continue;
      const bool assigned = t[s].kind() == tok::name && s + 1 < t.size() && t[s + 1].is_op("=");
      if (assigned && suspects_.contains(ts_.text(t[s])))
        continue;
      if (assigned && i == s + 2 && (k == t.size() || separates(k)) &&
          scan_.names.canonical(ts_.text(t[s])) == c)
        continue;
      front_end_diagnostic fd;
      fd.code = "unknown-decorator";
      fd.where = ts_.where(t[i]);
      fd.message = "cannot read '" + spelled +
                   "' here, where it is no decorator of a function: a function it makes would "
                   "drop out of the check unseen";
      fd.help = "apply it as a decorator ('@" + spelled +
                "'), or wrap a function of the same scope ('host = " + spelled + "(impl)')";
      out_.push_back({-1, std::move(fd)});
      i = k - 1;
    }
  }

  /// A decorator the front end cannot read that may make the function the DSL's: it
  /// would drop out of the check unseen.
  void unread(const definition& d, std::uint32_t b, std::uint32_t e, const std::string& why) {
    const auto& t = ts_.tokens;
    front_end_diagnostic fd;
    fd.code = "unknown-decorator";
    fd.message = "cannot read the decorator '" +
                 std::string(ts_.source.substr(t[b].begin, ts_.end(t[e - 1]) - t[b].begin)) +
                 "' of '" + std::string(ts_.text(t[d.keyword + 1])) +
                 "', which may make it a DSL function that the check would skip: " + why;
    fd.help = "spell the decorator as a dotted name of the DSL's module ('@pl.jit.host'), or "
              "bind a name to one alone at the module's level ('deco = pl.jit.host')";
    add(d, b, std::move(fd));
  }

  /// `NAME = D(F)` whose F the scan could not take for a function of the file.
  void wrapping(const unread_wrapping& u) {
    const auto& t = ts_.tokens;
    const auto text = [&](std::uint32_t b, std::uint32_t e) {
      return b >= e ? std::string()
                    : std::string(ts_.source.substr(t[b].begin, ts_.end(t[e - 1]) - t[b].begin));
    };
    front_end_diagnostic fd;
    fd.code = "unknown-decorator";
    fd.where = ts_.where(t[u.callee_begin]);
    std::uint32_t end = u.callee_begin; // D of D(...)
    while (end < u.callee_end && !t[end].is_op("("))
      ++end;
    const std::string spelled = dotted_name(ts_, u.callee_begin, end);
    const std::string canonical = scan_.names.canonical(spelled);
    if (std::find(dsl_decorators.begin(), dsl_decorators.end(), canonical) ==
        dsl_decorators.end()) {
      fd.message = "unknown decorator '" + spelled + "': the DSL has no such decorator";
      if (const auto s = nearest_spelling(canonical, dsl_decorators); !s.empty())
        fd.help = "did you mean '" + respelled(spelled, canonical, s) + "'?";
      out_.push_back({program_of_scope(u.scope), std::move(fd)});
      return;
    }
    fd.message = "cannot read '" + std::string(ts_.text(t[u.target])) + " = " +
                 text(u.callee_begin, u.callee_end) + "(" + text(u.argument_begin, u.argument_end) +
                 ")', whose DSL function the check would skip: " + u.why;
    // A program is a class, which is decorated, never wrapped.
    if (canonical == "pl.program")
      fd.help = "decorate the class itself with '@" + spelled + "'";
    else
      fd.help = "wrap a function defined with def above it in the same scope ('" +
                std::string(ts_.text(t[u.target])) + " = " + text(u.callee_begin, u.callee_end) +
                "(impl)'), or decorate the def itself";
    out_.push_back({program_of_scope(u.scope), std::move(fd)});
  }

  static std::string_view root(std::string_view dotted) {
    return dotted.substr(0, dotted.find('.'));
  }

  /// The finding, at the decorator's name, for the program the definition belongs to:
  /// its own, else the program class it is a method of, else its scope's `@pl.jit` group.
  void add(const definition& d, std::uint32_t name, front_end_diagnostic fd) {
    fd.where = ts_.where(ts_.tokens[name]);
    out_.push_back({d.program >= 0 ? d.program : program_of_scope(d.scope), std::move(fd)});
  }

  /// The program a definition of scope `scope` would belong to: the program class whose
  /// body it is, else the scope's `@pl.jit` group; -1: none.
  std::int32_t program_of_scope(std::int32_t scope) const {
    std::int32_t program = -1;
    for (const auto& c : scan_.definitions)
      if (c.is_class && c.role == definition::dsl::program_class && c.own_scope == scope)
        program = c.program;
    if (program < 0)
      for (std::size_t p = 0; p < scan_.programs.size(); ++p)
        if (!scan_.programs[p].is_class && scan_.programs[p].scope == scope)
          program = static_cast<std::int32_t>(p);
    return program;
  }

  const token_stream& ts_;
  const module_scan& scan_;
  std::vector<decorator_finding> out_;
  std::unordered_set<std::string_view> suspects_;                  ///< find_suspects
  std::vector<std::string_view> roots_; ///< the first names of what the aliases map
  std::array<bool, 256> root_first_{};  ///< their first characters
  std::uint64_t root_lengths_ = 0;      ///< their lengths (63: 63 or more)
  /// Whether `name` is one of roots_: most names are told apart by their first character
  /// or their length alone.
  [[nodiscard]] bool is_root(std::string_view name) const {
    if (!root_first_[static_cast<unsigned char>(name.front())] ||
        !((root_lengths_ >> std::min<std::size_t>(name.size(), 63)) & 1))
      return false;
    return std::find(roots_.begin(), roots_.end(), name) != roots_.end();
  }
  std::unordered_map<std::string, const py_scope::record*> bound_; ///< bound_to_decorators
  std::unordered_map<std::string, const py_scope::record*> rebound_; ///< rebound_alias
};

/// The items of the bracketed list whose opening bracket is token `open`, split at its
/// commas: token ranges, up to the closing bracket (or `e`).
std::vector<std::pair<std::uint32_t, std::uint32_t>>
list_items(const token_stream& ts, std::uint32_t open, std::uint32_t e) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> items;
  std::uint32_t begin = open + 1;
  int depth = 0;
  for (std::uint32_t i = open + 1; i < e; ++i) {
    const token& t = ts.tokens[i];
    const int step = t.kind() == tok::op ? bracket_nesting(t.flags()) : 0;
    if (step < 0 && depth == 0) {
      e = i;
      break;
    }
    depth += step;
    if (depth == 0 && t.is_op(",")) {
      items.emplace_back(begin, i);
      begin = i + 1;
    }
  }
  if (begin < e)
    items.emplace_back(begin, e);
  return items;
}

/// Whether the bracket at token `open` is closed by the token just before `e`.
bool closes_at(const token_stream& ts, std::uint32_t open, std::uint32_t e) {
  int depth = 0;
  for (std::uint32_t i = open; i < e; ++i) {
    const token& t = ts.tokens[i];
    depth += t.kind() == tok::op ? bracket_nesting(t.flags()) : 0;
    if (depth == 0)
      return i + 1 == e;
  }
  return false;
}

/// The module-level name `name` is bound once, with `NAME = E`, and used nowhere but
/// after `**`, so that nothing changes the dict it holds: E's token range, else {0, 0}.
std::pair<std::uint32_t, std::uint32_t>
exact_dict_constant(const token_stream& ts, const module_scan& scan, std::string_view name) {
  if (scan.dynamic_globals || !scan.star_modules.empty() || scan.scopes.empty())
    return {};
  const py_scope::record* found = nullptr;
  for (const auto& r : scan.scopes[0].records)
    if (ts.text(ts.tokens[r.name]) == name) {
      if (found)
        return {};
      found = &r;
    }
  if (!found || found->rhs_end == 0)
    return {};
  for (std::uint32_t i = 0; i < ts.tokens.size(); ++i)
    if (ts.tokens[i].kind() == tok::name && ts.text(ts.tokens[i]) == name && i != found->name &&
        !(i > 0 && ts.tokens[i - 1].is_op("**")))
      return {};
  return {found->rhs_begin, found->rhs_end};
}

/// Appends the keywords of the dict [b, e) when it is read exactly; false otherwise.
bool dict_keywords(const token_stream& ts, const module_scan& scan, std::uint32_t b,
                   std::uint32_t e, std::vector<decorator_keyword>& out, bool named = true) {
  const auto& t = ts.tokens;
  if (named && e == b + 1 && t[b].kind() == tok::name) {
    const auto [rb, re] = exact_dict_constant(ts, scan, ts.text(t[b]));
    return rb < re && dict_keywords(ts, scan, rb, re, out, false);
  }
  if (e >= b + 2 && t[b].is_op("{") && closes_at(ts, b, e)) {
    for (const auto& [ib, ie] : list_items(ts, b, e - 1)) {
      // `"NAME": V`, NAME spelled in one plain quoted string
      if (ie < ib + 3 || t[ib].kind() != tok::string || !t[ib + 1].is_op(":"))
        return false;
      std::string_view key = ts.text(t[ib]);
      if (key.size() < 3 || (key.front() != '"' && key.front() != '\'') ||
          key.back() != key.front())
        return false;
      key = key.substr(1, key.size() - 2);
      for (const char c : key)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
          return false;
      out.push_back({key, ib + 2, ie});
    }
    return true;
  }
  // `dict(k=V, ...)`, where nothing of the module binds `dict`
  if (e >= b + 3 && t[b].kind() == tok::name && ts.text(t[b]) == "dict" && t[b + 1].is_op("(") &&
      closes_at(ts, b + 1, e) && scan.star_modules.empty()) {
    for (const auto& r : scan.scopes[0].records)
      if (ts.text(t[r.name]) == "dict")
        return false;
    for (const auto& [ib, ie] : list_items(ts, b + 1, e - 1)) {
      if (ie < ib + 3 || t[ib].kind() != tok::name || !t[ib + 1].is_op("="))
        return false;
      out.push_back({ts.text(t[ib]), ib + 2, ie});
    }
    return true;
  }
  return false;
}

} // namespace

decorator_keywords read_decorator_keywords(const token_stream& ts, const module_scan& scan,
                                           std::uint32_t open, std::uint32_t e) {
  decorator_keywords r;
  const auto& t = ts.tokens;
  for (const auto& [ib, ie] : list_items(ts, open, e)) {
    if (ie >= ib + 2 && t[ib].kind() == tok::name && t[ib + 1].is_op("=")) {
      r.keywords.push_back({ts.text(t[ib]), ib + 2, ie});
    } else if (t[ib].is_op("**") || t[ib].is_op("*")) {
      // `*X` may pass a positional argument that changes what the call means.
      if ((t[ib].is_op("*") || !dict_keywords(ts, scan, ib + 1, ie, r.keywords)) &&
          r.unreadable == 0) {
        r.unreadable = ib;
        r.unreadable_end = ie;
      }
    }
  }
  return r;
}

std::vector<decorator_finding> unknown_decorators(const token_stream& ts, const module_scan& scan) {
  return checker(ts, scan).run();
}

} // namespace commscope::frontend::detail

namespace commscope::frontend {

std::string_view nearest_spelling(std::string_view name,
                                  std::span<const std::string_view> candidates) {
  std::string_view best;
  std::size_t best_distance = 3;
  for (const auto c : candidates) {
    const std::size_t d = detail::edit_distance(name, c, 2);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

} // namespace commscope::frontend
