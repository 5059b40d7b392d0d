// The block structure of a whole Python module (cli.md, "What is analysed"): one walk
// over the tokens that checks blocks as Python does, records every scope's bindings and
// the file's imports, and finds the DSL's definitions; and the constants of the file
// (cli.md, "Constants of the file"), resolved outward from a scope on demand.
#pragma once

#include <commscope/reference/lexicon.hpp>
#include <commscope/reference/tokenizer.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace commscope::reference {

struct module_options {
  std::string_view stem = "module"; ///< names a module-level `@pl.jit` group
  std::vector<std::pair<std::string, std::int64_t>> defines; ///< -D NAME=INT
};

namespace detail {

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

/// A decorated (or DSL-method) `def` or `class` the scan found.
struct definition {
  std::uint32_t first_decorator = 0; ///< token index of the first '@' (or of `def`)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> decorators; ///< token ranges after '@'
  std::uint32_t keyword = 0;    ///< token index of `def` / `class`
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
  }
  void add(std::string alias, std::string_view module) {
    if (module == "pypto.language")
      map_.emplace_back(std::move(alias), "pl");
    else if (module == "pypto.language.distributed")
      map_.emplace_back(std::move(alias), "pld");
  }
  /// `dist.alloc_window_buffer` -> `pld.alloc_window_buffer`; unchanged otherwise.
  [[nodiscard]] std::string canonical(std::string_view dotted) const {
    std::string r;
    canonical_into(dotted, r);
    return r;
  }
  /// The same, appended to `out` (which keeps its capacity).
  void canonical_into(std::string_view dotted, std::string& out) const {
    const std::pair<std::string, std::string_view>* best = nullptr;
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
  std::vector<std::pair<std::string, std::string_view>> map_;
};

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

/// Walks the whole token stream once: block structure (INDENT after a header, no stray
/// INDENT), scopes and their bindings, imports, and the DSL's definitions.
class module_scan {
public:
  explicit module_scan(const token_stream& ts) : ts_(ts) {}

  std::vector<py_scope> scopes;
  std::vector<definition> definitions;
  std::vector<candidate_program> programs;
  aliases names;

  void run() {
    scopes.push_back({});
    struct open_block {
      std::int32_t scope;
      std::int32_t definition; ///< the def/class whose body this is, or -1
    };
    std::vector<open_block> blocks{{0, -1}};
    std::vector<std::pair<std::uint32_t, std::uint32_t>> decorators;
    std::uint32_t first_decorator = 0;
    const auto& t = ts_.tokens;
    std::uint32_t i = 0;
    while (t[i].kind() != tok::end) {
      const token& k = t[i];
      if (k.kind() == tok::newline) {
        ++i;
        continue;
      }
      if (k.kind() == tok::dedent) {
        // A decorator's statement must follow in the decorator's own block (Python rejects
        // `@d` then a dedent): else a decorator would attach to an outer `def`, and the
        // printed block, which ends at the decorator, would not read back.
        if (!decorators.empty())
          fail_at(k.begin, "invalid syntax: a decorator must be followed by 'def' or 'class'");
        if (blocks.size() > 1) {
          if (blocks.back().definition >= 0)
            definitions[static_cast<std::size_t>(blocks.back().definition)].body_end = i;
          blocks.pop_back();
        }
        ++i;
        continue;
      }
      if (k.kind() == tok::indent)
        fail_at(k.begin, "unexpected indent");
      line_marks marks;
      const std::uint32_t nl = line_end(i, marks);
      const std::int32_t scope = blocks.back().scope;
      if (is_op(i, "@")) {
        if (decorators.empty())
          first_decorator = i;
        decorators.emplace_back(i + 1, nl);
        i = nl + 1;
        continue;
      }
      std::uint32_t kw = i;
      if (is_name(kw, "async") &&
          (is_name(kw + 1, "def") || is_name(kw + 1, "for") || is_name(kw + 1, "with")))
        ++kw;
      const std::string_view head = t[kw].kind() == tok::name ? ts_.text(t[kw]) : "";
      const bool defines = t[kw].is_keyword("def") || t[kw].is_keyword("class");
      if (!decorators.empty() && !defines)
        fail_at(t[i].begin, "invalid syntax: a decorator must be followed by 'def' or 'class'");
      if (!is_compound(kw, nl)) {
        if (marks.semicolon)
          simple_line(i, nl, scope, marks.walrus);
        else // one statement: no pass to split the line
          simple_statement(i, nl, scope, marks.walrus);
        i = nl + 1;
        continue;
      }
      const std::uint32_t colon = header_colon(kw, nl);
      std::int32_t def_index = -1;
      std::int32_t body_scope = scope;
      if (defines) {
        def_index = define(kw, colon, scope, decorators, decorators.empty() ? kw : first_decorator,
                           head == "class");
        body_scope = definitions[static_cast<std::size_t>(def_index)].own_scope;
        decorators.clear();
      } else {
        header_bindings(kw, colon, scope);
      }
      if (colon + 1 == nl) {
        if (t[nl + 1].kind() != tok::indent)
          fail_at(t[nl + 1].begin, "expected an indented block after '" + std::string(head) +
                                       "' statement on line " + std::to_string(ts_.line(t[kw])));
        blocks.push_back({body_scope, def_index});
        if (def_index >= 0)
          definitions[static_cast<std::size_t>(def_index)].body_begin = nl + 1; // its INDENT
        i = nl + 2;
      } else {
        // `if x: y` / `def f(): return 1`: the body is the rest of the line.
        simple_line(colon + 1, nl, body_scope);
        if (def_index >= 0) {
          auto& d = definitions[static_cast<std::size_t>(def_index)];
          d.body_begin = colon + 1;
          d.body_end = nl;
          d.inline_body = true;
        }
        i = nl + 1;
      }
    }
    if (!decorators.empty())
      fail_at(t[i].begin, "invalid syntax: a decorator must be followed by 'def' or 'class'");
    while (blocks.size() > 1) { // the tokenizer closes every block before the end
      if (blocks.back().definition >= 0)
        definitions[static_cast<std::size_t>(blocks.back().definition)].body_end = i;
      blocks.pop_back();
    }
  }

private:
  bool is_op(std::uint32_t i, operator_code o) const { return ts_.tokens[i].is_op(o); }
  /// +1 for an opening bracket at token i, -1 for a closing one, else 0.
  int nesting(std::uint32_t i) const {
    return bracket_nesting(code(i));
  }
  /// The operator code of token i, 0 for any other token.
  std::uint8_t code(std::uint32_t i) const {
    const token& k = ts_.tokens[i];
    return k.kind() == tok::op ? k.flags() : 0;
  }
  bool is_name(std::uint32_t i, keyword_id n) const { return ts_.tokens[i].is_keyword(n); }

  /// What a line holds that its statements' scans would otherwise look for in passes of
  /// their own: most lines are one statement without `:=`.
  struct line_marks {
    bool semicolon = false;
    bool walrus = false;
  };
  /// The NEWLINE that ends the logical line starting at i, and the line's marks.
  std::uint32_t line_end(std::uint32_t i, line_marks& marks) const {
    const auto& t = ts_.tokens;
    for (; t[i].kind() != tok::newline && t[i].kind() != tok::end; ++i)
      if (t[i].kind() == tok::op) {
        marks.semicolon = marks.semicolon || t[i].is_op(";");
        marks.walrus = marks.walrus || t[i].is_op(":=");
      }
    if (t[i].kind() == tok::end)
      fail_at(t[i].begin, "unexpected end of file");
    return i;
  }

  bool is_compound(std::uint32_t kw, std::uint32_t nl) const {
    const token& k = ts_.tokens[kw];
    if (k.is_keyword("match") || k.is_keyword("case")) // soft: no simple statement ends with ':'
      return nl > kw + 1 && is_op(nl - 1, ":");
    for (const keyword_id w : {keyword_id("if"), keyword_id("elif"), keyword_id("else"),
                               keyword_id("for"), keyword_id("while"), keyword_id("with"),
                               keyword_id("try"), keyword_id("except"), keyword_id("finally"),
                               keyword_id("def"), keyword_id("class"), keyword_id("async")})
      if (k.is_keyword(w))
        return true;
    return false;
  }

  /// The ':' that ends a compound statement's header.
  std::uint32_t header_colon(std::uint32_t kw, std::uint32_t nl) const {
    const token& h = ts_.tokens[kw];
    if (h.is_keyword("match") || h.is_keyword("case"))
      return nl - 1;
    const bool definition = h.is_keyword("def") || h.is_keyword("class");
    int depth = 0;
    int lambdas = 0;
    for (std::uint32_t i = kw + 1; i < nl; ++i) {
      const token& k = ts_.tokens[i];
      if (depth == 0 && k.is_keyword("lambda"))
        ++lambdas;
      if (k.kind() != tok::op)
        continue;
      const char o = static_cast<char>(k.flags());
      if (const int step = bracket_nesting(static_cast<std::uint8_t>(o)); step != 0)
        depth += step;
      else if (o == ':' && depth == 0) {
        if (lambdas > 0 && !definition) {
          --lambdas;
          continue;
        }
        return i;
      }
    }
    fail_at(ts_.tokens[nl].begin, "expected ':'");
  }

  /// Records a binding of the name at token `name` (`rhs`: the range of E in a simple
  /// `NAME = E`).
  void bind(std::int32_t scope, std::uint32_t name, std::uint32_t rhs_begin = 0,
            std::uint32_t rhs_end = 0) {
    scopes[static_cast<std::size_t>(scope)].records.push_back({name, rhs_begin, rhs_end});
  }

  /// Names bound by a target list such as `a, (b, *c)` (attributes and subscripts bind
  /// nothing).
  void bind_targets(std::uint32_t b, std::uint32_t e, std::int32_t scope) {
    const auto& t = ts_.tokens;
    for (std::uint32_t i = b; i < e; ++i) {
      if (t[i].kind() != tok::name || t[i].is_reserved())
        continue;
      const bool after_dot = i > b && is_op(i - 1, ".");
      const bool trailer =
          i + 1 < e && (is_op(i + 1, ".") || is_op(i + 1, "(") || is_op(i + 1, "["));
      if (!after_dot && !trailer)
        bind(scope, i);
    }
  }

  void walrus_bindings(std::uint32_t b, std::uint32_t e, std::int32_t scope) {
    for (std::uint32_t i = b; i + 1 < e; ++i)
      if (ts_.tokens[i].kind() == tok::name && is_op(i + 1, ":="))
        bind(scope, i);
  }

  void header_bindings(std::uint32_t kw, std::uint32_t colon, std::int32_t scope) {
    walrus_bindings(kw, colon, scope);
    const token& head = ts_.tokens[kw];
    if (head.is_keyword("for")) {
      std::uint32_t in = kw + 1;
      for (int depth = 0; in < colon; ++in)
        if ((depth += nesting(in)) == 0 && is_name(in, "in"))
          break;
      bind_targets(kw + 1, in, scope);
    } else if (head.is_keyword("with") || head.is_keyword("except")) {
      for (std::uint32_t i = kw + 1; i + 1 < colon; ++i)
        if (is_name(i, "as")) {
          std::uint32_t e = i + 1;
          for (int depth = 0; e < colon; ++e)
            if ((depth += nesting(e)) < 0 || (depth == 0 && is_op(e, ",")))
              break;
          bind_targets(i + 1, e, scope);
        }
    }
  }

  std::int32_t define(std::uint32_t kw, std::uint32_t colon, std::int32_t scope,
                      const std::vector<std::pair<std::uint32_t, std::uint32_t>>& decorators,
                      std::uint32_t first, bool is_class) {
    const auto& t = ts_.tokens;
    if (t[kw + 1].kind() != tok::name)
      fail_at(t[kw + 1].begin, "invalid syntax: expected a name");
    const std::string_view name = ts_.text(t[kw + 1]);
    bind(scope, kw + 1);
    py_scope s;
    s.what = is_class ? py_scope::kind::class_body : py_scope::kind::function;
    s.parent = scope;
    s.name = name;
    scopes.push_back(std::move(s));
    const auto own = static_cast<std::int32_t>(scopes.size() - 1);
    if (!is_class)
      parameter_bindings(kw + 2, colon, own);
    definition d;
    d.first_decorator = first;
    d.decorators = decorators;
    d.keyword = kw;
    d.colon = colon;
    d.is_class = is_class;
    d.scope = scope;
    d.own_scope = own;
    classify(d);
    definitions.push_back(std::move(d));
    const auto index = static_cast<std::int32_t>(definitions.size() - 1);
    attach(index);
    return index;
  }

  /// Parameter names: the first name after '(' or ',' at depth 1 (past `*` / `**`).
  void parameter_bindings(std::uint32_t open, std::uint32_t colon, std::int32_t scope) {
    open = skip_type_parameters(open);
    if (!is_op(open, "("))
      fail_at(ts_.tokens[open].begin, "invalid syntax: expected '('");
    int depth = 0;
    bool want = false;
    for (std::uint32_t i = open; i < colon; ++i) {
      const token& k = ts_.tokens[i];
      if (k.kind() == tok::op) {
        const std::uint8_t o = k.flags();
        depth += bracket_nesting(o);
        if (depth == 0)
          break;
        if (depth == 1 && (o == '(' || o == ','))
          want = true;
        else if (!(depth == 1 && (o == '*' || o == op_code("**"))))
          want = false;
        continue;
      }
      if (want && depth == 1 && k.kind() == tok::name)
        bind(scope, i);
      want = false;
    }
  }

  /// `def f[T, *Ts](...)` (PEP 695): the index of the '(' after the type parameters.
  std::uint32_t skip_type_parameters(std::uint32_t i) const {
    if (!is_op(i, "["))
      return i;
    for (int depth = 0;; ++i) {
      if (ts_.tokens[i].kind() == tok::newline || ts_.tokens[i].kind() == tok::end)
        return i;
      if (is_op(i, "[") || is_op(i, "(") || is_op(i, "{"))
        ++depth;
      else if ((is_op(i, "]") || is_op(i, ")") || is_op(i, "}")) && --depth == 0)
        return i + 1;
    }
  }

  void classify(definition& d) const {
    for (const auto& [b, e] : d.decorators) {
      std::uint32_t end = e;
      // `@x.y(...)`: the callee is the part before the call's '('.
      for (std::uint32_t i = b; i < e; ++i)
        if (is_op(i, "(")) {
          end = i;
          break;
        }
      const std::string spelled = names.canonical(dotted_name(ts_, b, end));
      using r = definition::dsl;
      if (d.is_class && spelled == "pl.program")
        d.role = r::program_class;
      else if (!d.is_class && spelled == "pl.jit.host")
        d.role = r::jit_host;
      else if (!d.is_class && spelled == "pl.jit")
        d.role = r::jit_chip;
      else if (!d.is_class && spelled == "pl.jit.incore")
        d.role = r::jit_kernel;
      else if (!d.is_class && spelled == "pl.function")
        d.role = r::method;
      else
        continue;
      return;
    }
  }

  /// Puts a DSL definition into its program: a `@pl.program` class opens one; methods
  /// join their class's; `@pl.jit` functions join their scope's group.
  void attach(std::int32_t index) {
    definition& d = definitions[static_cast<std::size_t>(index)];
    using r = definition::dsl;
    switch (d.role) {
    case r::none:
      return;
    case r::program_class: {
      candidate_program p;
      p.is_class = true;
      p.scope = d.scope;
      p.first_decorator = d.first_decorator;
      p.name = ts_.text(ts_.tokens[d.keyword + 1]);
      programs.push_back(std::move(p));
      d.program = static_cast<std::int32_t>(programs.size() - 1);
      class_program_[d.own_scope] = d.program;
      return;
    }
    case r::method: {
      const auto it = class_program_.find(d.scope);
      if (it == class_program_.end()) {
        d.role = r::none; // @pl.function outside a program class: not analysed
        return;
      }
      d.program = it->second;
      programs[static_cast<std::size_t>(d.program)].functions.push_back(
          static_cast<std::uint32_t>(index));
      return;
    }
    default: {
      auto it = jit_program_.find(d.scope);
      if (it == jit_program_.end()) {
        candidate_program p;
        p.scope = d.scope;
        p.first_decorator = d.first_decorator;
        p.name = scopes[static_cast<std::size_t>(d.scope)].name; // empty: the module
        programs.push_back(std::move(p));
        it = jit_program_.emplace(d.scope, static_cast<std::int32_t>(programs.size() - 1)).first;
      }
      d.program = it->second;
      programs[static_cast<std::size_t>(d.program)].functions.push_back(
          static_cast<std::uint32_t>(index));
      return;
    }
    }
  }

  /// One line of simple statements separated by ';': their bindings and imports.
  /// `walrus`: the line may hold a `:=`.
  void simple_line(std::uint32_t b, std::uint32_t e, std::int32_t scope, bool walrus = true) {
    std::uint32_t s = b;
    int depth = 0;
    for (std::uint32_t i = b; i <= e; ++i) {
      if (i < e && ts_.tokens[i].kind() == tok::op) {
        const char o = static_cast<char>(ts_.tokens[i].flags());
        if (const int step = bracket_nesting(static_cast<std::uint8_t>(o)); step != 0)
          depth += step;
        else if (o == ';' && depth == 0) {
          simple_statement(s, i, scope, walrus);
          s = i + 1;
        }
      }
      if (i == e && s < e)
        simple_statement(s, e, scope, walrus);
    }
  }

  /// `walrus`: the statement may hold a `:=` (false only when its line holds none).
  void simple_statement(std::uint32_t b, std::uint32_t e, std::int32_t scope, bool walrus = true) {
    const auto& t = ts_.tokens;
    if (b >= e)
      return;
    const token& first = t[b];
    if (first.is_keyword("import") || first.is_keyword("from"))
      return import(b, e, scope);
    if (first.is_keyword("global") || first.is_keyword("nonlocal") || first.is_keyword("del")) {
      for (std::uint32_t i = b + 1; i < e; ++i)
        if (t[i].kind() == tok::name) {
          bind(scope, i);
          bind(scope, i); // never a constant
        }
      return;
    }
    if (walrus)
      walrus_bindings(b, e, scope);
    // Assignments: the '=' at depth 0 split targets from the value.
    eqs_.clear();
    int depth = 0;
    bool annotated = t[b].kind() == tok::name && b + 1 < e && is_op(b + 1, ":");
    for (std::uint32_t i = b; i < e; ++i) {
      if (depth == 0 && t[i].is_keyword("lambda"))
        break; // a lambda's defaults are not targets
      if (t[i].kind() != tok::op)
        continue;
      const std::uint8_t o = t[i].flags();
      if (const int step = bracket_nesting(o); step != 0)
        depth += step;
      else if (depth == 0 && o == '=')
        eqs_.push_back(i);
      else if (depth == 0 && is_augmented_code(o)) {
        bind_targets(b, i, scope); // augmented: never a constant
        bind_targets(b, i, scope);
        return;
      }
    }
    if (annotated) {
      if (eqs_.size() == 1)
        bind(scope, b, eqs_[0] + 1, e);
      else
        bind(scope, b);
      return;
    }
    if (eqs_.size() == 1 && eqs_[0] == b + 1 && t[b].kind() == tok::name) {
      bind(scope, b, eqs_[0] + 1, e);
      return;
    }
    std::uint32_t s = b;
    for (const auto q : eqs_) {
      bind_targets(s, q, scope);
      s = q + 1;
    }
  }

  void import(std::uint32_t b, std::uint32_t e, std::int32_t scope) {
    const auto& t = ts_.tokens;
    // import a.b.c [as x], ...   |   from m import a [as x], ... / ( ... ) / *
    std::string from;
    std::uint32_t i = b + 1;
    if (ts_.text(t[b]) == "from") {
      std::uint32_t j = i;
      while (j < e && !is_name(j, "import"))
        ++j;
      from = dotted_name(ts_, i, j);
      i = j + 1;
    }
    while (i < e) {
      if (is_op(i, "(") || is_op(i, ")") || is_op(i, ",") || is_op(i, "*")) {
        ++i;
        continue;
      }
      std::uint32_t j = i;
      while (j < e && !is_name(j, "as") && !is_op(j, ",") && !is_op(j, ")"))
        ++j;
      const std::string path = dotted_name(ts_, i, j);
      std::string alias;
      if (j < e && is_name(j, "as")) {
        if (j + 1 < e)
          alias = std::string(ts_.text(t[j + 1]));
        j = std::min(j + 2, e);
      }
      const std::string module = from.empty() ? path : from + "." + path;
      if (!alias.empty()) {
        names.add(alias, module);
        bind(scope, j - 1);
      } else if (!from.empty()) {
        names.add(path, module);
        if (i < e && t[i].kind() == tok::name)
          bind(scope, i);
      } else {
        names.add(path, module); // `import pypto.language`: spelled out in full
        if (t[i].kind() == tok::name)
          bind(scope, i);
      }
      i = std::max(j, i + 1); // every step consumes a token, whatever the input
    }
  }

  const token_stream& ts_;
  std::vector<std::uint32_t> eqs_;
  std::unordered_map<std::int32_t, std::int32_t> class_program_;
  std::unordered_map<std::int32_t, std::int32_t> jit_program_;
};

// ---- constants of the file -------------------------------------------------------

/// Resolves a name a host orchestrator leaves open (cli.md, "Constants of the file").
class constants {
public:
  constants(const token_stream& ts, const std::vector<py_scope>& scopes,
            const module_options& options)
      : ts_(ts), scopes_(scopes), options_(options) {}

  /// The integer `name` stands for, seen from `scope` outward; nullopt when it is open.
  std::optional<std::int64_t> resolve(std::string_view name, std::int32_t scope) {
    for (const auto& [n, v] : options_.defines)
      if (n == name)
        return v;
    return lookup(name, scope, 0);
  }

private:
  std::optional<std::int64_t> lookup(std::string_view name, std::int32_t scope,
                                     std::uint32_t depth) {
    if (depth > 64)
      return std::nullopt;
    for (std::int32_t s = scope; s >= 0; s = scopes_[static_cast<std::size_t>(s)].parent) {
      const auto& sc = scopes_[static_cast<std::size_t>(s)];
      if (sc.what == py_scope::kind::class_body)
        continue; // not an enclosing scope, as in Python
      const auto& names = names_of(s);
      const auto it = names.find(name);
      if (it == names.end())
        continue;
      if (!it->second.simple || it->second.count != 1)
        return std::nullopt;
      const auto key = std::make_pair(s, name);
      if (auto m = memo_.find(key); m != memo_.end())
        return m->second;
      memo_[key] = std::nullopt; // a cycle reads as open
      evaluator ev{*this, s, it->second.rhs_begin, it->second.rhs_end, depth};
      auto v = ev.whole();
      memo_[key] = v;
      return v;
    }
    return std::nullopt;
  }

  /// The names bound in scope `s`: how often, and E of a lone simple binding.
  const std::unordered_map<std::string_view, py_scope::binding>& names_of(std::int32_t s) {
    if (tables_.empty())
      tables_.resize(scopes_.size());
    auto& table = tables_[static_cast<std::size_t>(s)];
    if (!table) {
      table.emplace();
      for (const auto& r : scopes_[static_cast<std::size_t>(s)].records) {
        auto& b = (*table)[ts_.text(ts_.tokens[r.name])];
        ++b.count;
        b.simple = b.count == 1 && r.rhs_end != 0;
        b.rhs_begin = r.rhs_begin;
        b.rhs_end = r.rhs_end;
      }
    }
    return *table;
  }

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
        if (op("+")) {
          auto r = product();
          if (!r || __builtin_add_overflow(*l, *r, &*l))
            return std::nullopt;
        } else if (op("-")) {
          auto r = product();
          if (!r || __builtin_sub_overflow(*l, *r, &*l))
            return std::nullopt;
        } else {
          break;
        }
      }
      return l;
    }
    std::optional<std::int64_t> product() {
      auto l = unary();
      while (l) {
        const bool mul = op("*"), fdiv = !mul && op("//"), mod = !mul && !fdiv && op("%");
        if (!mul && !fdiv && !mod)
          break;
        auto r = unary();
        if (!r)
          return std::nullopt;
        if (mul) {
          if (__builtin_mul_overflow(*l, *r, &*l))
            return std::nullopt;
        } else {
          if (*r == 0 || (*l == std::numeric_limits<std::int64_t>::min() && *r == -1))
            return std::nullopt;
          std::int64_t q = *l / *r, m = *l % *r;
          if (m != 0 && ((m < 0) != (*r < 0))) { // Python floors
            --q;
            m += *r;
          }
          l = fdiv ? q : m;
        }
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
  static std::optional<std::int64_t> integer_literal(std::string_view s) {
    unsigned base = 10;
    std::size_t b = 0;
    if (s.size() > 1 && s[0] == '0' &&
        std::string_view("xXoObB").find(s[1]) != std::string_view::npos) {
      base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
      b = 2;
    }
    std::uint64_t v = 0;
    for (std::size_t i = b; i < s.size(); ++i) {
      const char ch = s[i];
      if (ch == '_')
        continue;
      int d = (ch >= '0' && ch <= '9')   ? ch - '0'
              : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10
              : (ch >= 'A' && ch <= 'F') ? ch - 'A' + 10
                                         : -1;
      if (base == 10 && (ch == 'e' || ch == 'E'))
        d = -1;
      if (d < 0 || static_cast<unsigned>(d) >= base)
        return std::nullopt; // a float or an imaginary literal
      if (v > (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) -
               static_cast<unsigned>(d)) /
                  base)
        return std::nullopt;
      v = v * base + static_cast<unsigned>(d);
    }
    return static_cast<std::int64_t>(v);
  }

private:
  const token_stream& ts_;
  const std::vector<py_scope>& scopes_;
  const module_options& options_;
  std::unordered_map<std::pair<std::int32_t, std::string_view>, std::optional<std::int64_t>,
                     key_hash>
      memo_;
  std::vector<std::optional<std::unordered_map<std::string_view, py_scope::binding>>> tables_;
};

} // namespace detail

} // namespace commscope::reference
