// The block structure of a whole Python module (docs/commscope-opt.md, "What is
// analyzed"): one walk over the tokens that checks blocks as Python does, records every
// scope's bindings and the file's imports, and finds the DSL's definitions; and the
// constants of the file (docs/commscope-opt.md, "Constants of the file"), resolved
// outward from a scope on demand.
#pragma once

#include "keywords.hpp"
#include "tokens.hpp"

#include <commscope/detail/operations.hpp>
#include <commscope/frontend/frontend.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

[[noreturn]] inline void fail_at(std::uint32_t offset, std::string message) {
  throw syntax_failure{offset, std::move(message)};
}

// ---- the module's structure ----------------------------------------------------------

/// One Python scope: the module, a function or a class body.
struct py_scope {
  enum class kind : std::uint8_t { module, function, class_body };
  kind what = kind::module;
  std::int32_t parent = -1;
  std::string_view name;
  struct binding {
    std::uint32_t count = 0;
    bool simple = false;         ///< its only binding is `NAME = E` or `NAME: T = E`
    std::uint32_t rhs_begin = 0; ///< token range of E
    std::uint32_t rhs_end = 0;
  };
  /// One binding as the scan meets it: the name's token, and for `NAME = E` the range of
  /// E (rhs_end 0: not such a binding). A scope's table of names is made from these only
  /// when a constant is looked up in it (constants, below): most scopes never are.
  struct record {
    std::uint32_t name;
    std::uint32_t rhs_begin;
    std::uint32_t rhs_end;
  };
  std::vector<record> records;
};

/// What a binding record binds its name to, as its tokens tell: a function of the
/// program (`def`, `class`, a lambda: calling it may dispatch), another name (`g = f`:
/// `alias` is f's token), or anything else.
struct record_meaning {
  enum class kind : std::uint8_t { function, alias, other };
  kind what = kind::other;
  std::uint32_t alias = 0;
};
inline record_meaning meaning_of(const std::vector<token>& t, const py_scope::record& r) {
  using kind = record_meaning::kind;
  if (r.name > 0 && (t[r.name - 1].is_keyword("def") || t[r.name - 1].is_keyword("class")))
    return {kind::function, 0};
  if (r.rhs_end > r.rhs_begin && t[r.rhs_begin].is_keyword("lambda"))
    return {kind::function, 0};
  if (r.rhs_end == r.rhs_begin + 1 && t[r.rhs_begin].kind() == tok::name)
    return {kind::alias, r.rhs_begin};
  return {};
}

/// Whether token k ends a statement's tokens (a line, a block's edge, a `;`).
inline bool separates_statements(const std::vector<token>& t, std::uint32_t k) {
  return t[k].kind() == tok::newline || t[k].kind() == tok::indent || t[k].kind() == tok::dedent ||
         t[k].is_op(";");
}

/// The end of the statement that token k is in: its NEWLINE, a `;`, a block's edge.
inline std::uint32_t statement_end(const std::vector<token>& t, std::uint32_t k) {
  while (k < t.size() && t[k].kind() != tok::end && !separates_statements(t, k))
    ++k;
  return k;
}

/// Whether token k begins a statement with a name's method or item (`hooks.append(f)`,
/// `table["k"] = f`): what the statement puts into that name.
inline bool changes_name(const std::vector<token>& t, std::size_t k) {
  return k + 1 < t.size() && t[k].kind() == tok::name && !t[k].is_reserved() &&
         (t[k + 1].is_op(".") || t[k + 1].is_op("[")) &&
         (k == 0 || separates_statements(t, static_cast<std::uint32_t>(k - 1)));
}

/// What a binding binds its name to: `E` of `NAME = E`; for any other binding the scan
/// records no value of (`A = B = E`, `(A, B) = E`, `for A in E:`, `with E as A:`), the
/// whole statement, whose value the front end does not compute. An import, a def or a
/// class binds nothing that is read here (empty).
inline std::pair<std::uint32_t, std::uint32_t> binding_value(const token_stream& ts,
                                                             const py_scope::record& r) {
  if (r.rhs_end != 0)
    return {r.rhs_begin, r.rhs_end};
  const auto& t = ts.tokens;
  std::uint32_t b = r.name;
  while (b > 0 && !separates_statements(t, b - 1))
    --b;
  const std::uint32_t e = statement_end(t, r.name);
  for (const std::string_view k : {"import", "from", "def", "class", "async", "global", "nonlocal"})
    if (t[b].kind() == tok::name && ts.text(t[b]) == k)
      return {0, 0};
  return {b, e};
}

/// One name an import statement binds (docs/commscope-opt.md, "Programs across modules").
struct import_record {
  std::int32_t scope = 0;
  std::uint32_t token = 0; ///< the statement's first token, where a note points
  std::string_view local;  ///< the name bound in the scope
  std::string module;      ///< `P.Q` (without a relative import's leading dots)
  std::uint32_t level = 0; ///< how many leading dots
  std::string name;        ///< `from M import name`; empty for `import M`
};

/// A decorated (or DSL-method) `def` or `class` the scan found.
struct definition {
  std::uint32_t first_decorator = 0; ///< token index of the first '@' (or of `def`)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> decorators; ///< token ranges after '@'
  std::uint32_t keyword = 0;    ///< token index of `def` / `class`
  /// The token of the name the function is called by: its own (keyword + 1), or the
  /// target of the assignment that wraps it (`chip = pl.jit(chip_impl)`).
  std::uint32_t name = 0;
  std::uint32_t colon = 0;      ///< the header's ':'
  std::uint32_t body_begin = 0; ///< first token of the body
  std::uint32_t body_end = 0;   ///< its DEDENT (or NEWLINE for an inline body)
  bool inline_body = false;
  bool is_class = false;
  std::int32_t scope = 0;      ///< the scope it is defined in
  std::int32_t own_scope = -1; ///< the scope of its body
  enum class dsl : std::uint8_t { none, program_class, jit_host, jit_chip, jit_kernel, method };
  dsl role = dsl::none;
  std::int32_t program = -1; ///< the candidate program it belongs to
  std::uint32_t level = 0;   ///< the indentation level of its `def` (0: the module's)
  /// The first token of the decorator that gave it its role through another module (an
  /// alias `function = pl.function` there), which is read as the DSL's; 0: none.
  std::uint32_t adopted_decorator = 0;
};

/// Whether class `cls` may make callable instances: its body names `__call__` (a def, or
/// `__call__ = f`).
inline bool names_call(const token_stream& ts, const definition& cls) {
  for (std::uint32_t k = cls.body_begin; k < cls.body_end && k < ts.tokens.size(); ++k)
    if (ts.tokens[k].kind() == tok::name && ts.text(ts.tokens[k]) == "__call__")
      return true;
  return false;
}

/// Whether def `d` is a property (`@property`, `@functools.cached_property`): reading
/// the attribute calls it.
inline bool is_property(const token_stream& ts, const definition& d) {
  for (const auto& [b, e] : d.decorators)
    for (std::uint32_t k = e; k > b; --k)
      if (ts.tokens[k - 1].kind() == tok::name) {
        const std::string_view n = ts.text(ts.tokens[k - 1]);
        if (n == "property" || n == "cached_property")
          return true;
        break;
      }
  return false;
}

/// `NAME = D(F)` (or `D(...)(F)`) where D is a DSL decorator and F names no function the
/// scan can take for the one wrapped: a def of the same scope above it, not already
/// the DSL's. Reported (unknown-decorator): what it makes is never analyzed.
struct unread_wrapping {
  std::int32_t scope = 0;
  std::uint32_t target = 0;                       ///< NAME's token
  std::uint32_t callee_begin = 0, callee_end = 0; ///< D or D(...)
  std::uint32_t argument_begin = 0, argument_end = 0;
  std::string why; ///< why F is not read
};

struct candidate_program {
  bool is_class = false;
  std::int32_t scope = 0;            ///< the scope whose constants it sees (first)
  std::uint32_t first_decorator = 0; ///< token index
  std::string_view name;
  std::vector<std::uint32_t> functions; ///< indices into definitions
};

/// Maps a dotted spelling to the DSL's canonical one (`pl.`, `pld.`) through the file's
/// import aliases.
class aliases {
public:
  aliases() {
    map_.emplace_back("pl", "pl");
    map_.emplace_back("pld", "pld");
    map_.emplace_back("pl.distributed", "pld");
  }
  void add(std::string alias, std::string_view module) {
    using namespace std::string_view_literals;
    constexpr auto dsl = "pypto.language"sv;
    constexpr auto distributed = "pypto.language.distributed"sv;
    if (module == dsl) {
      // `pl.distributed` is the submodule too (an attribute of the package once loaded).
      map_.emplace_back(alias + ".distributed", "pld");
      map_.emplace_back(std::move(alias), "pl");
    } else if (module == "pypto"sv) { // `import pypto`: `pypto.language.distributed.window`
      map_.emplace_back(alias + ".language.distributed", "pld");
      map_.emplace_back(alias + ".language", "pl");
    } else if (module == distributed) {
      map_.emplace_back(std::move(alias), "pld");
    } else if (module.starts_with(distributed) && module[distributed.size()] == '.') {
      // `from pypto.language.distributed import window [as w]`: w(...) is pld.window(...)
      map_.emplace_back(std::move(alias), "pld" + std::string(module.substr(distributed.size())));
    } else if (module.starts_with(dsl) && module[dsl.size()] == '.') {
      map_.emplace_back(std::move(alias), "pl" + std::string(module.substr(dsl.size())));
    } else if (alias == "pl" || alias == "pld") {
      foreign_.push_back(std::move(alias));
    }
  }
  /// `alias = spelled` at the module's level, `spelled` a canonical spelling (`pld`,
  /// `pl.jit`): the name spells it from here on.
  void alias(std::string name, std::string spelled) {
    if (spelled == "pl") // `L = pypto.language`: `L.distributed` is the submodule, as for `pl`
      map_.emplace_back(name + ".distributed", "pld");
    map_.emplace_back(std::move(name), std::move(spelled));
  }
  /// `from pypto.language[.distributed] import *`: the module's names that the front end
  /// reads (its operations, decorators and enumerations) are spelled bare.
  void add_star(std::string_view module) {
    using namespace std::string_view_literals;
    static constexpr std::array pl_names = {"jit"sv,    "program"sv, "function"sv,     "inline"sv,
                                            "range"sv,  "Level"sv,   "FunctionType"sv, "Role"sv,
                                            "yield_"sv, "at"sv};
    if (module == "pypto.language") {
      for (const auto n : pl_names)
        map_.emplace_back(std::string(n), "pl." + std::string(n));
    } else if (module == "pypto.language.distributed") {
      for (std::size_t i = 1; i < commscope::detail::operation_table.size(); ++i) {
        const std::string n(commscope::detail::operation_table[i].name);
        map_.emplace_back(n, "pld." + n);
      }
      for (const auto n : {"tensor"sv, "system"sv, "comm_domain"sv})
        map_.emplace_back(std::string(n), "pld." + std::string(n));
    }
  }
  /// How the file spells `pypto.language.distributed`, for a scope's header: `pld` where
  /// it binds the module to that name, else its own name for it (`dist`), else a dotted
  /// path to it from a name it binds (`pypto.language.distributed`, `pl.distributed`);
  /// empty when it reaches the module by no name (it imports names from it, or nothing).
  [[nodiscard]] std::string distributed_module() const {
    const std::string* own = nullptr;
    const std::string* path = nullptr;
    for (std::size_t i = defaults; i < map_.size(); ++i) {
      const auto& [alias, spelled] = map_[i];
      if (spelled != "pld")
        continue;
      if (alias == "pld")
        return "pld";
      auto& first = alias.find('.') == std::string::npos ? own : path;
      if (!first)
        first = &alias;
    }
    return own ? *own : path ? *path : std::string();
  }
  /// Whether `name` is a name the file imports from the DSL's modules under a name of
  /// its own (`from pypto.language.distributed import alloc_window_buffer as alloc`).
  [[nodiscard]] bool renames(std::string_view name) const {
    for (const auto& [alias, spelled] : map_)
      if (alias == name && spelled.find('.') != std::string::npos &&
          !spelled.ends_with("." + alias))
        return true;
    return false;
  }
  /// Whether the file binds `root` (`pl`, `pld`) by an import of another module: then
  /// it is not the DSL's, whatever the default spelling says.
  [[nodiscard]] bool foreign(std::string_view root) const {
    return std::find(foreign_.begin(), foreign_.end(), root) != foreign_.end();
  }
  /// The first names of the spellings the map reads, each once: canonical() leaves a
  /// dotted name whose root is none of them unchanged.
  [[nodiscard]] std::vector<std::string_view> roots() const {
    std::vector<std::string_view> r;
    for (const auto& m : map_) {
      const std::string_view k = m.first;
      const std::string_view root = k.substr(0, k.find('.'));
      if (std::find(r.begin(), r.end(), root) == r.end())
        r.push_back(root);
    }
    return r;
  }
  /// Whether `root` is one of roots(), without making them.
  [[nodiscard]] bool maps_root(std::string_view root) const {
    for (const auto& m : map_)
      if (m.first.starts_with(root) &&
          (m.first.size() == root.size() || m.first[root.size()] == '.'))
        return true;
    return false;
  }
  /// `dist.alloc_window_buffer` -> `pld.alloc_window_buffer`; unchanged otherwise.
  [[nodiscard]] std::string canonical(std::string_view dotted) const {
    std::string r;
    canonical_into(dotted, r);
    return r;
  }
  /// The same, appended to `out` (which keeps its capacity).
  void canonical_into(std::string_view dotted, std::string& out) const {
    const std::pair<std::string, std::string>* best = nullptr;
    for (const auto& m : map_)
      if ((dotted == m.first || (dotted.starts_with(m.first) && dotted.size() > m.first.size() &&
                                 dotted[m.first.size()] == '.')) &&
          (!best || m.first.size() > best->first.size()))
        best = &m;
    if (!best) {
      out += dotted;
      return;
    }
    out += best->second;
    out += dotted.substr(best->first.size());
  }

private:
  /// `pl`, `pld` and `pl.distributed`, which every file has
  static constexpr std::size_t defaults = 3;
  std::vector<std::pair<std::string, std::string>> map_;
  std::vector<std::string> foreign_;
};

/// Whether a canonical spelling names one of the DSL's decorators or a name under one
/// (`pl.jit`, `pl.jit.host`, `pl.program`, `pl.function`, `pl.inline`, `pl.jit.hots`).
inline bool names_dsl_decorator(std::string_view canonical) {
  for (const std::string_view m : {"pl.jit", "pl.program", "pl.function", "pl.inline"})
    if (canonical == m || (canonical.starts_with(m) && canonical[m.size()] == '.'))
      return true;
  return false;
}

/// [b, e) without the parentheses that enclose the whole of it, however many (`((r))`:
/// `r`): they only group it.
inline std::pair<std::uint32_t, std::uint32_t> ungrouped(const token_stream& ts, std::uint32_t b,
                                                         std::uint32_t e) {
  const auto& t = ts.tokens;
  while (e > b + 1 && t[b].is_op("(") && t[e - 1].is_op(")")) {
    int depth = 0;
    std::uint32_t close = b;
    for (; close < e; ++close)
      if (t[close].kind() == tok::op && (depth += bracket_nesting(t[close].flags())) == 0)
        break;
    if (close != e - 1)
      break;
    ++b;
    --e;
  }
  return {b, e};
}

/// The dotted name a token range spells (`a.b.c`), or empty.
inline std::string dotted_name(const token_stream& ts, std::uint32_t b, std::uint32_t e) {
  std::string r;
  bool want_name = true;
  for (std::uint32_t i = b; i < e; ++i) {
    const token& t = ts.tokens[i];
    if (want_name) {
      if (t.kind() != tok::name)
        return {};
      r += ts.text(t);
    } else {
      if (!t.is_op("."))
        return {};
      r += '.';
    }
    want_name = !want_name;
  }
  return want_name ? std::string() : r;
}

/// Whether def `d`, defined in scope `d.scope` of `scopes`, takes its receiver as its
/// first parameter: a def of a class body not marked `@staticmethod` (`self`, or `cls`).
inline bool takes_receiver(const token_stream& ts, const std::vector<py_scope>& scopes,
                           const definition& d) {
  if (d.scope < 0 || static_cast<std::size_t>(d.scope) >= scopes.size() ||
      scopes[static_cast<std::size_t>(d.scope)].what != py_scope::kind::class_body)
    return false;
  for (const auto& [b, e] : d.decorators)
    if (dotted_name(ts, b, e) == "staticmethod")
      return false;
  return true;
}

/// Calls `bind(i)` for the token index of each name that the target list [b, e) binds
/// (`a, (b, *c)`): names inside the brackets after an operand (`y[i]`, `f(k).a`) are read,
/// not bound, and so is the base of an element or attribute. Returns whether some target
/// is an element or an attribute, which stores rather than binds.
template <class Bind>
bool for_each_target_name(const token_stream& ts, std::uint32_t b, std::uint32_t e, Bind&& bind) {
  const auto& t = ts.tokens;
  const auto op = [&](std::uint32_t i, operator_code o) { return t[i].is_op(o); };
  std::vector<bool> reading; // per open bracket: a subscript's or a call's, not a group's
  std::size_t read_depth = 0;
  bool stores = false;
  for (std::uint32_t i = b; i < e; ++i) {
    if (const int step = t[i].kind() == tok::op ? bracket_nesting(t[i].flags()) : 0; step != 0) {
      if (step > 0) {
        const bool after_operand =
            i > b && (t[i - 1].kind() == tok::name || op(i - 1, ")") || op(i - 1, "]"));
        reading.push_back(after_operand && !t[i - 1].is_reserved());
        read_depth += reading.back() ? 1 : 0;
        stores = stores || reading.back();
      } else if (!reading.empty()) {
        read_depth -= reading.back() ? 1 : 0;
        reading.pop_back();
      }
      continue;
    }
    stores = stores || op(i, ".");
    if (read_depth > 0 || t[i].kind() != tok::name || t[i].is_reserved())
      continue;
    const bool after_dot = i > b && op(i - 1, ".");
    const bool trailer = i + 1 < e && (op(i + 1, ".") || op(i + 1, "(") || op(i + 1, "["));
    if (!after_dot && !trailer)
      bind(i);
  }
  return stores;
}

/// Walks the whole token stream once: block structure (INDENT after a header, no stray
/// INDENT), scopes and their bindings, imports, and the DSL's definitions.
class module_scan {
public:
  explicit module_scan(const token_stream& ts) : ts_(ts) {}

  std::vector<py_scope> scopes;
  std::vector<definition> definitions;
  std::vector<candidate_program> programs;
  std::vector<import_record> imports;
  std::vector<unread_wrapping> unread_wrappings;
  aliases names;
  /// The byte offset just past the first import statement that begins a line of the
  /// module's top level, else past the first import of names from
  /// pypto.language.distributed in the module's scope (no_offset: neither): where a
  /// rewritten file that reaches that module by no name binds it (`; import ... as pld`),
  /// on the import's line, so that no line moves.
  static constexpr std::uint32_t no_offset = UINT32_MAX;
  std::uint32_t top_import_end = no_offset;
  /// The modules of `from M import *` other than the DSL's (module, leading dots): each
  /// may bind any name of the module's scope.
  std::vector<std::pair<std::string, std::uint32_t>> star_modules;
  /// The first token of each of star_modules' import statements.
  std::vector<std::uint32_t> star_tokens;
  /// The module may rebind its own names where no statement names them: it writes
  /// through `globals()` (`globals()["N"] = 8`, `globals().update(...)`, or passes it
  /// on), calls `exec`, or reaches itself through `sys.modules`. Then none of its names
  /// is a constant.
  bool dynamic_globals = false;
  /// For a file that reaches pypto.language.distributed by no name: the name its rewrite
  /// binds the module to (top_import_end), spelled nowhere in the file (`pld`, else `pld_`,
  /// ...), so that no import, assignment or variable of the file can be what the scopes
  /// read instead. Empty when the file has a name for the module.
  std::string unused_module_name;

  void run();

  /// The role a decorator of that canonical spelling gives a def or class (`pl.jit.host`:
  /// jit_host), or none.
  [[nodiscard]] static definition::dsl role_of(std::string_view canonical, bool is_class);
  /// Gives definition `index`, of no role, the role its decorator at token `decorator`
  /// gives it, of that canonical spelling (one the scan could not read by itself: an
  /// alias another module binds), and puts it in its program; a program class's methods
  /// join it then.
  void adopt(std::size_t index, std::string_view canonical, std::uint32_t decorator);

  /// Whether the logical line from token `kw` to its NEWLINE `nl` is a compound statement.
  bool is_compound(std::uint32_t kw, std::uint32_t nl) const;
  /// The ':' that ends a compound statement's header.
  std::uint32_t header_colon(std::uint32_t kw, std::uint32_t nl) const;

private:
  bool is_op(std::uint32_t i, operator_code o) const { return ts_.tokens[i].is_op(o); }
  /// +1 for an opening bracket at token i, -1 for a closing one, else 0.
  int nesting(std::uint32_t i) const { return bracket_nesting(code(i)); }
  /// The operator code of token i, 0 for any other token.
  std::uint8_t code(std::uint32_t i) const {
    const token& k = ts_.tokens[i];
    return k.kind() == tok::op ? k.flags() : 0;
  }
  bool is_name(std::uint32_t i, keyword_id n) const { return ts_.tokens[i].is_keyword(n); }
  /// `stem`, or `stem` followed by as many '_' as make it a name no token spells.
  std::string unused_name(std::string_view stem) const;
  /// Whether any token sequence of the file may rebind its names dynamically
  /// (dynamic_globals).
  bool rebinds_dynamically() const;

  /// What a line holds that its statements' scans would otherwise look for in passes of
  /// their own: most lines are one statement without `:=`.
  struct line_marks {
    bool semicolon = false;
    bool walrus = false;
  };
  /// The NEWLINE that ends the logical line starting at i, and the line's marks.
  std::uint32_t line_end(std::uint32_t i, line_marks& marks) const;

  /// Records a binding of the name at token `name` (`rhs`: the range of E in a simple
  /// `NAME = E`).
  /// `A, B = X, Y`: binds each name to its own element; false, binding nothing, for any
  /// other assignment (targets [b, eq), value [eq + 1, e)).
  bool unpacked_names(std::uint32_t b, std::uint32_t eq, std::uint32_t e, std::int32_t scope);
  void bind(std::int32_t scope, std::uint32_t name, std::uint32_t rhs_begin = 0,
            std::uint32_t rhs_end = 0) {
    scopes[static_cast<std::size_t>(scope)].records.push_back({name, rhs_begin, rhs_end});
  }

  /// Names bound by a target list such as `a, (b, *c)` (attributes and subscripts bind
  /// nothing).
  void bind_targets(std::uint32_t b, std::uint32_t e, std::int32_t scope);

  void walrus_bindings(std::uint32_t b, std::uint32_t e, std::int32_t scope) {
    for (std::uint32_t i = b; i + 1 < e; ++i)
      if (ts_.tokens[i].kind() == tok::name && is_op(i + 1, ":="))
        bind(scope, i);
  }

  void header_bindings(std::uint32_t kw, std::uint32_t colon, std::int32_t scope);

  std::int32_t define(std::uint32_t kw, std::uint32_t colon, std::int32_t scope,
                      const std::vector<std::pair<std::uint32_t, std::uint32_t>>& decorators,
                      std::uint32_t first, bool is_class);

  /// Parameter names: the first name after '(' or ',' at depth 1 (past `*` / `**`).
  void parameter_bindings(std::uint32_t open, std::uint32_t colon, std::int32_t scope);

  /// `def f[T, *Ts](...)` (PEP 695): the index of the '(' after the type parameters.
  std::uint32_t skip_type_parameters(std::uint32_t i) const;

  void classify(definition& d) const;

  /// Puts a DSL definition into its program: a `@pl.program` class opens one; methods
  /// join their class's; `@pl.jit` functions join their scope's group.
  void attach(std::int32_t index);

  /// One line of simple statements separated by ';': their bindings and imports.
  /// `walrus`: the line may hold a `:=`.
  void simple_line(std::uint32_t b, std::uint32_t e, std::int32_t scope, bool walrus = true);

  /// `walrus`: the statement may hold a `:=` (false only when its line holds none).
  void simple_statement(std::uint32_t b, std::uint32_t e, std::int32_t scope, bool walrus = true);

  /// `NAME = D(F)` of a DSL decorator D: F's def becomes the DSL function that NAME
  /// names, as `@D` on it would make it (else an unread_wrapping). False: no such
  /// statement.
  bool wrapping(std::uint32_t b, std::uint32_t e, std::int32_t scope);

  void import(std::uint32_t b, std::uint32_t e, std::int32_t scope);
  /// An import statement as Python reads it, by token index.
  struct import_shape {
    struct imported {
      std::uint32_t begin, end; ///< a dotted name (a plain name in a from-import)
      std::uint32_t alias;      ///< the name after `as`, or 0
    };
    std::uint32_t level = 0;                  ///< a from-import's leading dots
    std::uint32_t module = 0, module_end = 0; ///< its dotted name (none: `from . import`)
    bool star = false;                        ///< `from m import *`
    std::vector<imported> names;
  };
  /// Reads the import statement [b, e) into import_; fails, where Python points, on one
  /// that Python does not read.
  void read_import(std::uint32_t b, std::uint32_t e);

  const token_stream& ts_;
  std::vector<std::uint32_t> eqs_;
  import_shape import_;
  std::unordered_map<std::int32_t, std::int32_t> class_program_;
  /// The end of the first import of names from pypto.language.distributed in the
  /// module's scope, at any indentation (top_import_end when no import begins a line).
  std::uint32_t distributed_import_end_ = no_offset;
  /// `nonlocal NAME` declarations: (scope, the name's token).
  std::vector<std::pair<std::int32_t, std::uint32_t>> nonlocals_;
  std::unordered_map<std::int32_t, std::int32_t> jit_program_;
  /// The definition whose name a token is (its def's name): for wrapping.
  std::unordered_map<std::uint32_t, std::int32_t> definition_named_;
  bool wrapped_ = false; ///< some wrapping attached a function after its def
};

// ---- constants of the file -------------------------------------------------------

/// An unknown `@pl.` decorator or `@pl.function` keyword value (docs/commscope-opt.md,
/// "No false all-clear"), and the candidate program (index into module_scan::programs) of
/// the function it decorates; -1: no program holds it.
struct decorator_finding {
  std::int32_t program = -1;
  front_end_diagnostic diagnostic;
};

/// Every unknown decorator of the module's definitions, in source order.
[[nodiscard]] std::vector<decorator_finding> unknown_decorators(const token_stream& ts,
                                                                const module_scan& scan);

/// One keyword a `@pl.function(...)` call passes: its name and its value's token range.
struct decorator_keyword {
  std::string_view name;
  std::uint32_t value_begin = 0;
  std::uint32_t value_end = 0;
};
struct decorator_keywords {
  std::vector<decorator_keyword> keywords;
  std::uint32_t unreadable = 0; ///< the first `*X` or `**X` not read (its '*'), or 0
  std::uint32_t unreadable_end = 0; ///< the end of that argument (its ',' or ')')
};
/// The keywords the call whose '(' is token `open` (ending before `e`) passes, as Python
/// passes them: its own, and those of a `**` dict that is read exactly (a `{"k": V}`
/// display or `dict(k=V)`, written there or bound once at the module's level to a name
/// the file uses nowhere else). Whatever else it unpacks may pass any keyword.
[[nodiscard]] decorator_keywords read_decorator_keywords(const token_stream& ts,
                                                         const module_scan& scan,
                                                         std::uint32_t open, std::uint32_t e);

/// The attributes a file may store into (`config.N = 4`, `del m.N`, `setattr(m, "N", 4)`):
/// an imported module's constant of such a name is none.
struct attribute_stores {
  std::unordered_set<std::string_view> names;
  bool any = false; ///< a setattr whose name is no string literal
  [[nodiscard]] bool stores(std::string_view name) const { return any || names.contains(name); }
};
[[nodiscard]] attribute_stores find_attribute_stores(const token_stream& ts);

/// Resolves a name a host orchestrator leaves open (docs/commscope-opt.md, "Constants of
/// the file").
class constants {
public:
  constants(const token_stream& ts, const module_scan& scan, const module_options& options)
      : ts_(ts), scopes_(scan.scopes), options_(options), dynamic_globals_(scan.dynamic_globals),
        star_modules_(!scan.star_modules.empty()) {}

  /// A name bound in `scope` by an import: the constant it is in its module, if any
  /// (`depth`: how deep the evaluation already is).
  using imported_constant = std::optional<std::int64_t> (*)(void* context, std::string_view name,
                                                            std::int32_t scope);
  void import_constants(imported_constant f, void* context) {
    imported_ = f;
    imported_context_ = context;
  }
  /// `ROOT.PATH` (PATH: `a.NAME`), ROOT bound in `scope` by an import alone: the constant
  /// NAME is in the module it names, if any.
  using imported_attribute = std::optional<std::int64_t> (*)(void* context, std::string_view root,
                                                             std::string_view path,
                                                             std::int32_t scope);
  void import_attributes(imported_attribute f) { attribute_ = f; }
  /// Whether the module's star imports (module_scan::star_modules) may bind `name`.
  using star_binding = bool (*)(void* context, std::string_view name);
  void star_imports(star_binding f, void* context) {
    star_ = f;
    star_context_ = context;
  }

  /// The integer `name` stands for, seen from `scope` outward; nullopt when it is open.
  std::optional<std::int64_t> resolve(std::string_view name, std::int32_t scope) {
    for (const auto& [n, v] : options_.defines)
      if (n == name)
        return v;
    return lookup(name, scope, 0);
  }

private:
  std::optional<std::int64_t> lookup(std::string_view name, std::int32_t scope,
                                     std::uint32_t depth);
  /// `root.path` seen from `scope` outward, root a module the scope chain imports.
  std::optional<std::int64_t> lookup_attribute(std::string_view root, std::string_view path,
                                               std::int32_t scope);

  /// The names bound in scope `s`: how often, and E of a lone simple binding.
  const std::unordered_map<std::string_view, py_scope::binding>& names_of(std::int32_t s);

  struct key_hash {
    std::size_t operator()(const std::pair<std::int32_t, std::string_view>& k) const {
      return std::hash<std::string_view>{}(k.second) * 31 + static_cast<std::size_t>(k.first);
    }
  };

  /// Integer constant expressions: literals, names, + - * // %, unary -, parentheses.
  struct evaluator {
    constants& c;
    std::int32_t scope;
    std::uint32_t i, e, depth;
    std::uint32_t nesting = 0;

    std::optional<std::int64_t> whole() {
      auto v = sum();
      return (v && i == e) ? v : std::nullopt;
    }
    bool op(std::string_view o) {
      if (i < e && c.ts_.tokens[i].kind() == tok::op && c.ts_.text(c.ts_.tokens[i]) == o) {
        ++i;
        return true;
      }
      return false;
    }
    std::optional<std::int64_t> sum() {
      auto l = product();
      while (l) {
        const char o = op("+") ? '+' : op("-") ? '-' : 0;
        if (!o)
          break;
        auto r = product();
        l = r ? arithmetic(*l, o, *r) : std::nullopt;
      }
      return l;
    }
    std::optional<std::int64_t> product() {
      auto l = unary();
      while (l) {
        const char o = op("*") ? '*' : op("//") ? '/' : op("%") ? '%' : 0;
        if (!o)
          break;
        auto r = unary();
        l = r ? arithmetic(*l, o, *r) : std::nullopt;
      }
      return l;
    }
    std::optional<std::int64_t> unary() {
      if (++nesting > 200)
        return std::nullopt;
      std::optional<std::int64_t> v;
      if (op("-")) {
        v = unary();
        if (v && *v == std::numeric_limits<std::int64_t>::min())
          v = std::nullopt;
        else if (v)
          v = -*v;
      } else if (op("+")) {
        v = unary();
      } else {
        v = atom();
        if (v && op("**")) { // binds tighter than a unary minus on its left: -2 ** 2 is -4
          const auto r = unary();
          v = r ? power(*v, *r) : std::nullopt;
        }
      }
      --nesting;
      return v;
    }
    std::optional<std::int64_t> atom() {
      if (i >= e)
        return std::nullopt;
      const token& t = c.ts_.tokens[i];
      if (op("(")) {
        auto v = sum();
        return (v && op(")")) ? v : std::nullopt;
      }
      ++i;
      if (t.kind() == tok::number)
        return integer_literal(c.ts_.text(t));
      if (t.kind() == tok::name && !t.is_reserved()) {
        if (i + 1 < e && c.ts_.tokens[i].is_op(".")) { // `cfg.TP` of a module imported
          const std::uint32_t first = i + 1;
          while (i + 1 < e && c.ts_.tokens[i].is_op(".") && c.ts_.tokens[i + 1].kind() == tok::name)
            i += 2;
          const auto& last = c.ts_.tokens[i - 1];
          const std::string_view path = c.ts_.source.substr(
              c.ts_.tokens[first].begin, c.ts_.end(last) - c.ts_.tokens[first].begin);
          return c.lookup_attribute(c.ts_.text(t), path, scope);
        }
        for (const auto& [n, v] : c.options_.defines)
          if (n == c.ts_.text(t))
            return v;
        return c.lookup(c.ts_.text(t), scope, depth + 1);
      }
      return std::nullopt;
    }
  };

public:
  /// The value of an integer literal's spelling; nullopt for floats and beyond int64.
  static std::optional<std::int64_t> integer_literal(std::string_view s);
  /// `l o r` as Python computes it, for o one of `+ - * %` and `/` standing for `//`
  /// (floored); nullopt beyond int64 or for a division by zero, where Python would fail.
  static std::optional<std::int64_t> arithmetic(std::int64_t l, char o, std::int64_t r);
  /// `base ** exponent` as Python computes it, when that is an integer of 64 bits (a
  /// negative exponent gives a float: none).
  static std::optional<std::int64_t> power(std::int64_t base, std::int64_t exponent);

private:
  const token_stream& ts_;
  const std::vector<py_scope>& scopes_;
  const module_options& options_;
  bool dynamic_globals_ = false; ///< module_scan::dynamic_globals: no module name is one
  imported_constant imported_ = nullptr;
  imported_attribute attribute_ = nullptr; ///< with imported_context_
  void* imported_context_ = nullptr;
  bool star_modules_ = false;   ///< some module_scan::star_modules
  star_binding star_ = nullptr; ///< without it, a star import may bind any name
  void* star_context_ = nullptr;
  std::unordered_map<std::pair<std::int32_t, std::string_view>, std::optional<std::int64_t>,
                     key_hash>
      memo_;
  std::vector<std::optional<std::unordered_map<std::string_view, py_scope::binding>>> tables_;
};

} // namespace commscope::frontend::detail
