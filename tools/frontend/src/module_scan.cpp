// The module scan's walk and the constants of the file.
#include "module_scan.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

std::optional<std::int64_t> constants::lookup(std::string_view name, std::int32_t scope,
                                              std::uint32_t depth) {
  if (depth > 64)
    return std::nullopt;
  for (std::int32_t s = scope; s >= 0; s = scopes_[static_cast<std::size_t>(s)].parent) {
    const auto& sc = scopes_[static_cast<std::size_t>(s)];
    if (sc.what == py_scope::kind::class_body)
      continue; // not an enclosing scope, as in Python
    if (s == 0 && dynamic_globals_)
      return std::nullopt;
    const auto& names = names_of(s);
    const auto it = names.find(name);
    if (it == names.end())
      continue;
    // A name made twice is no constant: a star import may be its second binding.
    if (s == 0 && star_modules_ && (!star_ || star_(star_context_, name)))
      return std::nullopt;
    if (!it->second.simple || it->second.count != 1)
      return (imported_ && it->second.count == 1) ? imported_(imported_context_, name, s)
                                                  : std::nullopt;
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

std::optional<std::int64_t> constants::lookup_attribute(std::string_view root,
                                                        std::string_view path, std::int32_t scope) {
  if (!attribute_)
    return std::nullopt;
  for (std::int32_t s = scope; s >= 0; s = scopes_[static_cast<std::size_t>(s)].parent) {
    const auto& sc = scopes_[static_cast<std::size_t>(s)];
    if (sc.what == py_scope::kind::class_body)
      continue;
    if (s == 0 && dynamic_globals_)
      return std::nullopt;
    const auto& names = names_of(s);
    const auto it = names.find(root);
    if (it == names.end())
      continue;
    if (s == 0 && star_modules_ && (!star_ || star_(star_context_, root)))
      return std::nullopt;
    // Bound once, and by no `NAME = E`: an import, which the callback finds.
    if (it->second.simple || it->second.count != 1)
      return std::nullopt;
    return attribute_(imported_context_, root, path, s);
  }
  return std::nullopt;
}

const std::unordered_map<std::string_view, py_scope::binding>& constants::names_of(std::int32_t s) {
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

std::optional<std::int64_t> constants::arithmetic(std::int64_t l, char o, std::int64_t r) {
  std::int64_t v = 0;
  switch (o) {
  case '+':
    return __builtin_add_overflow(l, r, &v) ? std::nullopt : std::optional(v);
  case '-':
    return __builtin_sub_overflow(l, r, &v) ? std::nullopt : std::optional(v);
  case '*':
    return __builtin_mul_overflow(l, r, &v) ? std::nullopt : std::optional(v);
  case '/':
  case '%': {
    if (r == 0 || (l == std::numeric_limits<std::int64_t>::min() && r == -1))
      return std::nullopt;
    std::int64_t q = l / r, m = l % r;
    if (m != 0 && ((m < 0) != (r < 0))) { // Python floors
      --q;
      m += r;
    }
    return o == '/' ? q : m;
  }
  default:
    return std::nullopt;
  }
}

std::optional<std::int64_t> constants::power(std::int64_t base, std::int64_t exponent) {
  if (exponent < 0)
    return std::nullopt;
  std::int64_t p = 1;
  for (std::int64_t n = exponent; n > 0; n >>= 1) {
    if ((n & 1) && __builtin_mul_overflow(p, base, &p))
      return std::nullopt;
    if (n > 1 && __builtin_mul_overflow(base, base, &base))
      return std::nullopt;
  }
  return p;
}

std::optional<std::int64_t> constants::integer_literal(std::string_view s) {
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

void module_scan::run() {
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
      // `@(pl.jit.host)` is `@pl.jit.host`: the parentheses around the whole expression
      // only group it.
      decorators.push_back(ungrouped(ts_, i + 1, nl));
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
      definitions[static_cast<std::size_t>(def_index)].level =
          static_cast<std::uint32_t>(blocks.size() - 1);
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
  for (const auto& [scope, name] : nonlocals_) {
    const std::string_view n = ts_.text(t[name]);
    for (auto s = scopes[static_cast<std::size_t>(scope)].parent; s > 0;
         s = scopes[static_cast<std::size_t>(s)].parent) {
      auto& outer = scopes[static_cast<std::size_t>(s)];
      if (outer.what != py_scope::kind::function)
        continue; // a class body's names are not an inner function's
      if (std::any_of(outer.records.begin(), outer.records.end(),
                      [&](const py_scope::record& r) { return ts_.text(t[r.name]) == n; })) {
        bind(s, name);
        bind(s, name);
        break;
      }
    }
  }
  dynamic_globals = rebinds_dynamically();
  if (names.distributed_module().empty())
    unused_module_name = unused_name("pld");
  if (top_import_end == no_offset)
    top_import_end = distributed_import_end_;
  if (wrapped_) // a function wrapped below its def joined its program late: source order
    for (auto& p : programs)
      std::sort(p.functions.begin(), p.functions.end(), [&](std::uint32_t a, std::uint32_t b) {
        return definitions[a].keyword < definitions[b].keyword;
      });
}

bool module_scan::rebinds_dynamically() const {
  const auto& t = ts_.tokens;
  const auto name = [&](std::size_t i, std::string_view n) {
    return i < t.size() && t[i].kind() == tok::name && ts_.text(t[i]) == n &&
           !(i > 0 && t[i - 1].is_op(".")); // a builtin's name, no attribute's
  };
  const auto op = [&](std::size_t i, operator_code o) { return i < t.size() && t[i].is_op(o); };
  for (std::size_t i = 0; i < t.size(); ++i) {
    // Every token passes here: most are no name, or a name of none of these lengths.
    if (t[i].kind() != tok::name)
      continue;
    const std::string_view spelled = ts_.text(t[i]);
    const std::size_t length = spelled.size();
    if (length != 3 && length != 4 && length != 6 && length != 7)
      continue;
    const char first = spelled.front(); // `device` and the like are none of these
    if (first != 'e' && first != 's' && first != 'g' && first != 'v' && first != 'l')
      continue;
    if (name(i, "exec") && op(i + 1, "("))
      return true;
    if (spelled == "exec" && i > 1 && op(i - 1, ".") && op(i + 1, "(") &&
        (name(i - 2, "builtins") || name(i - 2, "__builtins__")))
      return true; // `builtins.exec(...)`
    if (name(i, "sys") && op(i + 1, ".") && i + 2 < t.size() && ts_.text(t[i + 2]) == "modules")
      return true;
    // At the module's level `vars()` and `locals()` are `globals()`. In a function a
    // write through them is lost, and reading them (`f(**locals())`) is common: only
    // their writes count, wherever they are.
    const bool namespace_of_scope = name(i, "vars") || name(i, "locals");
    if (!(name(i, "globals") || namespace_of_scope) || !op(i + 1, "(") || !op(i + 2, ")"))
      continue;
    // Reading is harmless: `globals()[k]`, `globals().get(k)`, `k in globals()`.
    std::size_t k = i + 3;
    if (op(k, ".") && k + 1 < t.size()) {
      const std::string_view method = ts_.text(t[k + 1]);
      if (method == "get")
        continue;
      if (namespace_of_scope) {
        if (method == "update" || method == "setdefault" || method == "__setitem__")
          return true;
        continue;
      }
    }
    if (namespace_of_scope && !op(k, "["))
      continue;
    if (op(k, "[")) {
      int depth = 0;
      for (; k < t.size(); ++k) {
        depth += nesting(static_cast<std::uint32_t>(k));
        if (depth == 0)
          break;
      }
      const bool deleted = i > 0 && t[i - 1].is_keyword("del");
      if (!deleted && k + 1 < t.size() && !op(k + 1, "=") &&
          !is_augmented_code(code(static_cast<std::uint32_t>(k + 1))))
        continue;
      return true;
    }
    if (i > 0 && t[i - 1].is_keyword("in"))
      continue;
    return true;
  }
  return false;
}

std::string module_scan::unused_name(std::string_view stem) const {
  // The longest run of '_' after `stem` among the names that spell it so: one more is
  // spelled nowhere.
  std::size_t longest = 0;
  bool taken = false;
  for (const token& k : ts_.tokens) {
    if (k.kind() != tok::name)
      continue;
    const std::string_view n = ts_.text(k);
    if (!n.starts_with(stem) || n.find_first_not_of('_', stem.size()) != std::string_view::npos)
      continue;
    taken = true;
    longest = std::max(longest, n.size() - stem.size());
  }
  std::string r(stem);
  if (taken)
    r.append(longest + 1, '_');
  return r;
}

std::uint32_t module_scan::line_end(std::uint32_t i, line_marks& marks) const {
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

bool module_scan::is_compound(std::uint32_t kw, std::uint32_t nl) const {
  const token& k = ts_.tokens[kw];
  if (k.is_keyword("match") || k.is_keyword("case")) // soft: no simple statement ends with ':'
    return nl > kw + 1 && is_op(nl - 1, ":");
  for (const keyword_id w :
       {keyword_id("if"), keyword_id("elif"), keyword_id("else"), keyword_id("for"),
        keyword_id("while"), keyword_id("with"), keyword_id("try"), keyword_id("except"),
        keyword_id("finally"), keyword_id("def"), keyword_id("class"), keyword_id("async")})
    if (k.is_keyword(w))
      return true;
  return false;
}

std::uint32_t module_scan::header_colon(std::uint32_t kw, std::uint32_t nl) const {
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

void module_scan::bind_targets(std::uint32_t b, std::uint32_t e, std::int32_t scope) {
  for_each_target_name(ts_, b, e, [&](std::uint32_t i) { bind(scope, i); });
}

void module_scan::header_bindings(std::uint32_t kw, std::uint32_t colon, std::int32_t scope) {
  walrus_bindings(kw, colon, scope);
  const token& head = ts_.tokens[kw];
  if (head.is_keyword("for")) {
    std::uint32_t in = kw + 1;
    for (int depth = 0; in < colon; ++in)
      if ((depth += nesting(in)) == 0 && is_name(in, "in"))
        break;
    bind_targets(kw + 1, in, scope);
  } else if (head.is_keyword("case")) {
    // A capture pattern binds its names: any name of the pattern that is no dotted value
    // (`Color.RED`), class (`Point(...)`) or keyword (`x=`) of one. The guard only reads.
    int depth = 0;
    for (std::uint32_t i = kw + 1; i < colon; ++i) {
      depth += nesting(i);
      if (depth == 0 && is_name(i, "if"))
        break;
      const token& k = ts_.tokens[i];
      if (k.kind() == tok::name && !k.is_reserved() && !is_op(i - 1, ".") && !is_op(i + 1, ".") &&
          !is_op(i + 1, "(") && !is_op(i + 1, "="))
        bind(scope, i);
    }
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

std::int32_t
module_scan::define(std::uint32_t kw, std::uint32_t colon, std::int32_t scope,
                    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& decorators,
                    std::uint32_t first, bool is_class) {
  const auto& t = ts_.tokens;
  if (t[kw + 1].kind() != tok::name)
    fail_at(t[kw + 1].begin, "invalid syntax: expected a name");
  const std::string_view name = ts_.text(t[kw + 1]);
  // Decorators, default values, annotations and bases run in the enclosing scope: a `:=`
  // among them binds there.
  for (const auto& [b, e] : decorators)
    walrus_bindings(b, e, scope);
  walrus_bindings(kw + 2, colon, scope);
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
  d.name = kw + 1;
  d.colon = colon;
  d.is_class = is_class;
  d.scope = scope;
  d.own_scope = own;
  classify(d);
  definitions.push_back(std::move(d));
  const auto index = static_cast<std::int32_t>(definitions.size() - 1);
  definition_named_[kw + 1] = index;
  attach(index);
  return index;
}

void module_scan::parameter_bindings(std::uint32_t open, std::uint32_t colon, std::int32_t scope) {
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

std::uint32_t module_scan::skip_type_parameters(std::uint32_t i) const {
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

definition::dsl module_scan::role_of(std::string_view spelled, bool is_class) {
  using r = definition::dsl;
  if (is_class)
    return spelled == "pl.program" ? r::program_class : r::none;
  if (spelled == "pl.jit.host")
    return r::jit_host;
  if (spelled == "pl.jit")
    return r::jit_chip;
  if (spelled == "pl.jit.incore" || spelled == "pl.jit.inline" || spelled == "pl.jit.opaque" ||
      spelled == "pl.jit.extern")
    return r::jit_kernel;
  return spelled == "pl.function" ? r::method : r::none;
}

void module_scan::classify(definition& d) const {
  for (const auto& [b, e] : d.decorators) {
    std::uint32_t end = e;
    // `@x.y(...)`: the callee is the part before the call's '('.
    for (std::uint32_t i = b; i < e; ++i)
      if (is_op(i, "(")) {
        end = i;
        break;
      }
    d.role = role_of(names.canonical(dotted_name(ts_, b, end)), d.is_class);
    if (d.role != definition::dsl::none)
      return;
  }
}

void module_scan::adopt(std::size_t index, std::string_view canonical, std::uint32_t decorator) {
  auto& d = definitions[index];
  d.role = role_of(canonical, d.is_class);
  if (d.role == definition::dsl::none)
    return;
  d.adopted_decorator = decorator;
  attach(static_cast<std::int32_t>(index));
  if (d.role == definition::dsl::program_class) {
    // Its methods were read before it was known for a program class.
    const std::int32_t body = definitions[index].own_scope;
    for (std::size_t k = index + 1; k < definitions.size(); ++k) {
      auto& m = definitions[k];
      if (m.scope != body || m.role != definition::dsl::none)
        continue;
      classify(m); // none or method: a jit function of the class body has its group
      if (m.role == definition::dsl::method)
        attach(static_cast<std::int32_t>(k));
    }
  }
  // A program lists its functions in source order, as the scan found them.
  const std::int32_t p = definitions[index].program;
  if (p >= 0) {
    auto& fs = programs[static_cast<std::size_t>(p)].functions;
    std::sort(fs.begin(), fs.end());
  }
}

void module_scan::attach(std::int32_t index) {
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
      d.role = r::none; // @pl.function outside a program class: not analyzed
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

void module_scan::simple_line(std::uint32_t b, std::uint32_t e, std::int32_t scope, bool walrus) {
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

void module_scan::simple_statement(std::uint32_t b, std::uint32_t e, std::int32_t scope,
                                   bool walrus) {
  const auto& t = ts_.tokens;
  if (b >= e)
    return;
  const token& first = t[b];
  if (first.is_keyword("import") || first.is_keyword("from"))
    return import(b, e, scope);
  if (first.is_keyword("global") || first.is_keyword("nonlocal")) {
    // The name is rebound where it lives, through this scope: the module's (global) or
    // an enclosing function's (nonlocal, found once the whole module is scanned). There
    // it is no constant either.
    for (std::uint32_t i = b + 1; i < e; ++i)
      if (t[i].kind() == tok::name) {
        bind(scope, i);
        bind(scope, i); // never a constant
        if (first.is_keyword("global") && scope != 0) {
          bind(0, i);
          bind(0, i);
        } else if (first.is_keyword("nonlocal")) {
          nonlocals_.emplace_back(scope, i);
        }
      }
    return;
  }
  if (first.is_keyword("del")) { // `del x, y[i]` unbinds x; i and y are only read
    bind_targets(b + 1, e, scope);
    bind_targets(b + 1, e, scope); // never a constant
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
    // `dist = pl.distributed`, `L = pypto.language` at the module's level: another name
    // for a module of the DSL (or a name in it), as an import's alias is. In a function, a
    // name for one of the DSL's modules only (`D = pld` in a test whose nested group
    // reads `D.window`), as the imports of a function are read.
    if (const std::string path = dotted_name(ts_, b + 2, e);
        !path.empty() && !names.foreign(path.substr(0, path.find('.')))) {
      // Twice: `L.distributed` is `pl.distributed`, which is `pld`.
      const std::string spelled = names.canonical(names.canonical(path));
      if (spelled == "pl" || spelled == "pld" ||
          (scope == 0 && (spelled.starts_with("pl.") || spelled.starts_with("pld."))))
        names.alias(std::string(ts_.text(t[b])), spelled);
    }
    wrapping(b, e, scope); // before the target's binding: `chip = pl.jit(chip)`
    bind(scope, b, eqs_[0] + 1, e);
    return;
  }
  if (eqs_.size() == 1 && unpacked_names(b, eqs_[0], e, scope))
    return;
  std::uint32_t s = b;
  for (const auto q : eqs_) {
    bind_targets(s, q, scope);
    s = q + 1;
  }
}

bool module_scan::unpacked_names(std::uint32_t b, std::uint32_t eq, std::uint32_t e,
                                 std::int32_t scope) {
  // `TP, T = cfg.TP, 3`: each name is bound to its own element, as `TP = cfg.TP` and
  // `T = 3` would bind it, when the targets are bare names and the value a display of as
  // many elements, none of them unpacked.
  const auto& t = ts_.tokens;
  std::vector<std::uint32_t> names_at;
  for (std::uint32_t i = b; i < eq; i += 2) {
    if (t[i].kind() != tok::name || t[i].is_reserved() || (i + 1 < eq && !is_op(i + 1, ",")))
      return false;
    names_at.push_back(i);
  }
  std::uint32_t vb = eq + 1, ve = e;
  if (ve > vb + 1 && (is_op(vb, "(") || is_op(vb, "["))) { // `(1, 2)` as a whole
    int depth = 0;
    std::uint32_t close = vb;
    for (; close < ve; ++close)
      if ((depth += nesting(close)) == 0)
        break;
    if (close == ve - 1) {
      ++vb;
      --ve;
    }
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> values;
  int depth = 0;
  std::uint32_t from = vb;
  for (std::uint32_t i = vb; i <= ve; ++i)
    if (i == ve || (depth == 0 && is_op(i, ","))) {
      if (i > from)
        values.emplace_back(from, i);
      else if (i < ve)
        return false;
      from = i + 1;
    } else {
      depth += nesting(i);
    }
  if (names_at.size() < 2 || values.size() != names_at.size())
    return false;
  for (const auto& [v, end] : values)
    if (is_op(v, "*") || is_op(v, "**"))
      return false;
  for (std::size_t k = 0; k < names_at.size(); ++k)
    bind(scope, names_at[k], values[k].first, values[k].second);
  return true;
}

bool module_scan::wrapping(std::uint32_t b, std::uint32_t e, std::int32_t scope) {
  // NAME = D(F) or NAME = D(...)(F): the last call's '(' is the one that closes at e - 1.
  const auto& t = ts_.tokens;
  const std::uint32_t r = b + 2;
  if (e < r + 4 || !is_op(e - 1, ")"))
    return false;
  // A callee whose first name the aliases do not map is no spelling of the DSL's: most
  // assignments of a call, told apart before their tokens are read again.
  if (t[r].kind() != tok::name || !names.maps_root(ts_.text(t[r])))
    return false;
  std::uint32_t open = e - 1;
  for (int depth = 0; open > r; --open)
    if ((depth += nesting(open)) == 0)
      break;
  if (open <= r || !is_op(open, "(") || !(t[open - 1].kind() == tok::name || is_op(open - 1, ")")))
    return false;
  std::uint32_t callee_end = open; // D: up to its own call's '(', if it has one
  for (std::uint32_t k = r; k < open; ++k)
    if (is_op(k, "(")) {
      callee_end = k;
      break;
    }
  if (callee_end < open) { // D(...): that call must end just before F's '('
    int depth = 0;
    std::uint32_t k = callee_end;
    for (; k < open; ++k)
      if ((depth += nesting(k)) == 0)
        break;
    if (k + 1 != open)
      return false;
  }
  const std::string spelled = dotted_name(ts_, r, callee_end);
  if (spelled.empty() || names.foreign(spelled.substr(0, spelled.find('.'))))
    return false;
  const std::string canonical = names.canonical(spelled);
  // The DSL's decorators, and any name under pl.jit (a misspelled one is reported as a
  // decorator's is); pl.range(n) and the like are no wrappings.
  static constexpr std::array<std::string_view, 5> wrappers = {"pl.program", "pl.function",
                                                               "pl.inline", "pl.jit", "pl.jit."};
  bool wraps = false;
  for (const auto w : wrappers)
    wraps = wraps || (w.ends_with('.') ? canonical.starts_with(w) : canonical == w);
  if (!wraps)
    return false;
  if (callee_end == open) { // `D(k=V)`, `D()`: a decorator made with its arguments
    int depth = 0;
    bool keyword = open + 2 == e;
    for (std::uint32_t k = open + 1; k + 1 < e && !keyword; ++k)
      keyword = (depth += nesting(k)) == 0 && (is_op(k, "=") || is_op(k, "**"));
    if (keyword)
      return false;
  }
  unread_wrapping u{scope, b, r, open, open + 1, e - 1, {}};
  const auto unread = [&](std::string why) {
    u.why = std::move(why);
    unread_wrappings.push_back(std::move(u));
    return true;
  };
  if (open + 2 != e - 1 || t[open + 1].kind() != tok::name || t[open + 1].is_reserved())
    return unread("it wraps no plain name of a function");
  const std::string_view f = ts_.text(t[open + 1]);
  // F as the scope binds it here: its last binding so far.
  const auto& records = scopes[static_cast<std::size_t>(scope)].records;
  std::uint32_t last = 0;
  bool bound = false;
  for (auto it = records.rbegin(); it != records.rend() && !bound; ++it)
    if (ts_.text(t[it->name]) == f) {
      last = it->name;
      bound = true;
    }
  const auto found = bound ? definition_named_.find(last) : definition_named_.end();
  if (found == definition_named_.end())
    return unread("'" + std::string(f) + "' is no function defined above it in this scope");
  const auto index = found->second;
  definition& d = definitions[static_cast<std::size_t>(index)];
  if (d.is_class)
    return unread("'" + std::string(f) + "' is a class");
  if (d.role != definition::dsl::none || d.name != d.keyword + 1)
    return unread("'" + std::string(f) + "' is a DSL function already");
  d.decorators.emplace_back(r, open);
  d.name = b;
  classify(d);
  attach(index);
  wrapped_ = true;
  return true;
}

void module_scan::read_import(std::uint32_t b, std::uint32_t e) {
  // import_name: 'import' dotted_as_name (',' dotted_as_name)*
  // import_from: 'from' ('.' | '...')* dotted_name 'import' targets
  //            | 'from' ('.' | '...')+ 'import' targets
  // targets:     '(' as_name (',' as_name)* [','] ')' | as_name (',' as_name)* | '*'
  // The failure is at the first token Python cannot take, or at the statement's end.
  const auto& t = ts_.tokens;
  const auto at = [&](std::uint32_t k) { return k < e ? t[k].begin : ts_.end(t[e - 1]); };
  const auto op = [&](std::uint32_t k, operator_code o) { return k < e && is_op(k, o); };
  const auto keyword = [&](std::uint32_t k, keyword_id w) { return k < e && is_name(k, w); };
  const auto is_plain_name = [&](std::uint32_t k) {
    return k < e && t[k].kind() == tok::name && !t[k].is_reserved();
  };
  const auto dotted_name = [&](std::uint32_t& k) {
    for (;;) {
      if (!is_plain_name(k))
        fail_at(at(k), "invalid syntax: expected a dotted module name");
      if (!op(++k, "."))
        return;
      ++k;
    }
  };
  // A name being imported (dotted: a module), then at most `as` and one name.
  const auto imported = [&](std::uint32_t& k, bool dotted) {
    const std::uint32_t begin = k;
    if (dotted)
      dotted_name(k);
    else if (!is_plain_name(k++))
      fail_at(at(k - 1), "invalid syntax: expected a name to import");
    const std::uint32_t end = k;
    std::uint32_t alias = 0;
    if (keyword(k, "as")) {
      if (!is_plain_name(++k))
        fail_at(at(k), "invalid syntax: expected a name after 'as'");
      alias = k++;
    }
    import_.names.push_back({begin, end, alias});
  };
  import_.level = import_.module = import_.module_end = 0;
  import_.star = false;
  import_.names.clear(); // its room is kept for the next import
  std::uint32_t i = b + 1;
  if (t[b].is_keyword("import")) {
    for (;;) {
      imported(i, true);
      if (i == e)
        return;
      if (!op(i, ","))
        fail_at(at(i), "invalid syntax: expected ',' between imported modules");
      ++i; // a comma is followed by another module: `import a,` is no statement
    }
  }
  for (; op(i, ".") || op(i, "..."); ++i)
    import_.level += is_op(i, ".") ? 1 : 3;
  import_.module = import_.module_end = i;
  if (import_.level == 0 || !keyword(i, "import")) {
    dotted_name(i);
    import_.module_end = i;
  }
  if (!keyword(i, "import"))
    fail_at(at(i), "invalid syntax: expected 'import'");
  if (op(++i, "*")) {
    if (++i < e)
      fail_at(at(i), "invalid syntax: expected nothing after 'import *'");
    import_.star = true;
    return;
  }
  const bool parenthesized = op(i, "(");
  i += parenthesized ? 1 : 0;
  for (;;) {
    imported(i, false);
    if (i == e && !parenthesized)
      return;
    if (parenthesized && op(i, ")"))
      break;
    if (!op(i, ","))
      fail_at(at(i), "invalid syntax: expected ',' between imported names");
    if (++i == e && !parenthesized)
      fail_at(at(i), "trailing comma not allowed without surrounding parentheses");
    if (parenthesized && op(i, ")"))
      break;
  }
  if (++i < e) // past the ')'
    fail_at(at(i), "invalid syntax: expected nothing after ')'");
}

void module_scan::import(std::uint32_t b, std::uint32_t e, std::int32_t scope) {
  read_import(b, e);
  const auto& t = ts_.tokens;
  if (scope == 0 && top_import_end == no_offset &&
      ts_.line_starts[ts_.line_of(t[b].begin) - 1] == t[b].begin)
    top_import_end = ts_.end(t[e - 1]);
  // import a.b.c [as x], ...   |   from m import a [as x], ... / ( ... ) / *
  const bool from_import = t[b].is_keyword("from");
  const std::uint32_t level = import_.level;
  // Without the leading dots; empty for `import` and for `from . import`.
  const std::string from_module = dotted_name(ts_, import_.module, import_.module_end);
  const std::string from = level == 0 ? from_module : std::string(); // what a name is under
  // A file whose module level imports nothing on a line of its own (its imports in a
  // `try:`) binds the module where it imports the DSL's names: under the same conditions.
  if (scope == 0 && level == 0 && distributed_import_end_ == no_offset &&
      (from_module == "pypto.language.distributed" ||
       from_module.starts_with("pypto.language.distributed.")))
    distributed_import_end_ = ts_.end(t[e - 1]);
  if (import_.star) {
    if (level == 0)
      names.add_star(from_module);
    if (level != 0 || (from_module != "pypto" && !from_module.starts_with("pypto."))) {
      star_modules.emplace_back(from_module, level);
      star_tokens.push_back(b);
    }
  }
  for (const auto& n : import_.names) {
    const std::string path = dotted_name(ts_, n.begin, n.end);
    const std::string module = from.empty() ? path : from + "." + path;
    const std::uint32_t local = n.alias ? n.alias : n.begin; // the name it binds
    import_record rec;
    rec.scope = scope;
    rec.token = b;
    rec.local = ts_.text(t[local]);
    if (from_import) {
      rec.module = from_module;
      rec.level = level;
      rec.name = path;
    } else {
      rec.module = n.alias ? path : std::string(ts_.text(t[n.begin]));
    }
    imports.push_back(std::move(rec));
    // `import pypto.language` binds `pypto`, and names the module spelled out in full.
    names.add(n.alias ? std::string(ts_.text(t[n.alias])) : path, module);
    // In a function, a name for the DSL's modules (or a name in them) is read as the
    // module level's is, not as a local value: `import pypto.language.distributed as pld`
    // in a host, as the parser reads that import.
    if (scope == 0 || level != 0 || (module != "pypto" && !module.starts_with("pypto.")))
      bind(scope, local);
  }
}

attribute_stores find_attribute_stores(const token_stream& ts) {
  attribute_stores out;
  const auto& t = ts.tokens;
  const std::size_t n = t.size();
  // One pass: the statement a token is in begins after the last newline, indent or
  // dedent; whether it has a `=` at its top level after a token is read once per
  // statement, so that a statement of many attributes (a table) costs linear time.
  std::size_t b = 0;                       // the current statement's first token
  std::size_t last_eq_of = n, last_eq = 0; // statement last_eq_of: its last top-level `=`
  const auto top_level_eq_after = [&](std::size_t i) {
    if (last_eq_of != b) {
      last_eq_of = b;
      last_eq = 0;
      int depth = 0;
      for (std::size_t j = b; j < n && !t[j].is(tok::newline); ++j)
        if (t[j].kind() == tok::op) {
          if (depth == 0 && t[j].is_op("="))
            last_eq = j;
          depth += bracket_nesting(t[j].flags());
        }
    }
    return last_eq > i;
  };
  for (std::size_t i = 1; i < n; ++i) {
    if (t[i - 1].is(tok::newline) || t[i - 1].is(tok::indent) || t[i - 1].is(tok::dedent))
      b = i;
    const token& k = t[i];
    if (k.kind() != tok::name)
      continue;
    if (!t[i - 1].is_op(".")) {
      // setattr(obj, "NAME", value): the second argument names the attribute.
      if (ts.text(k) != "setattr" || i + 1 >= n || !t[i + 1].is_op("("))
        continue;
      std::size_t j = i + 2;
      for (int depth = 0; j < n && !t[j].is(tok::newline); ++j) {
        if (t[j].kind() == tok::op) {
          if (depth == 0 && t[j].is_op(","))
            break;
          depth += bracket_nesting(t[j].flags());
          if (depth < 0)
            break;
        }
      }
      if (j + 2 < n && t[j].is_op(",") && t[j + 1].kind() == tok::string &&
          (t[j + 2].is_op(",") || t[j + 2].is_op(")"))) {
        std::string_view lit = ts.text(t[j + 1]);
        if (lit.size() >= 2)
          lit = lit.substr(1, lit.size() - 2);
        out.names.insert(lit);
      } else {
        out.any = true;
      }
      continue;
    }
    // OBJ.NAME as a target: of `=` or an augmented assignment, in a tuple or with an
    // annotation before a `=`, of `del`, `for ... in` or `as`.
    const token* next = i + 1 < n ? &t[i + 1] : nullptr;
    bool stored =
        next && next->kind() == tok::op && (next->is_op("=") || is_augmented_code(next->flags()));
    if (!stored && t[b].is_keyword(keyword_id{"del"}))
      stored = true;
    if (!stored && t[b].is_keyword(keyword_id{"for"})) {
      stored = true; // unless it is read in the iterable, after `in`
      for (std::size_t j = b; j < i && stored; ++j)
        stored = !t[j].is_keyword(keyword_id{"in"});
    }
    std::size_t root = i >= 2 ? i - 2 : 0; // the name the attribute is of
    while (root >= 2 && t[root - 1].is_op(".") && t[root - 2].kind() == tok::name)
      root -= 2;
    if (!stored && root >= 1 && t[root - 1].is_keyword(keyword_id{"as"}))
      stored = true;
    if (!stored && next &&
        (next->is_op(",") || next->is_op(")") || next->is_op("]") || next->is_op(":")))
      stored = top_level_eq_after(i);
    if (stored)
      out.names.insert(ts.text(k));
  }
  return out;
}

} // namespace commscope::frontend::detail
