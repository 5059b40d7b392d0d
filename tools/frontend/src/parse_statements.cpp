// The DSL parser: blocks and simple statements, assignments and their targets, and
// the source text each statement keeps.
#include "formatted_fields.hpp"
#include "parser.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

namespace {
/// Whether `e` formats a string literal (`"bad %s" % v`, `"bad {}".format(v)`): a new
/// string, which holds none of the values it is made of.
bool formats_string(const expression& e) {
  using k = expression::kind;
  if (e.what == k::binary && e.text() == "%" && e.args().size() == 2)
    return e.args()[0]->what == k::string;
  if (e.what != k::call || !e.base() || e.base()->what != k::attribute ||
      e.base()->text() != "format")
    return false;
  const expression_ptr object = e.base()->base();
  return object && object->what == k::string;
}
} // namespace

node_list<statement_ptr> dsl_parser::parse_indented_block() {
  nest guard(*this, peek().begin);
  gathered<statement_ptr> body(ss_);
  if (peek().kind() != tok::indent)
    unexpected("an indented block");
  next();
  while (peek().kind() != tok::dedent && peek().kind() != tok::end)
    parse_statement();
  if (peek().kind() == tok::dedent)
    next();
  return w_.list(body.items());
}

std::string dsl_parser::leading_trivia(std::uint32_t line) const {
  if (last_end_ == 0)
    return {};
  const std::uint32_t prev = ts_.line_of(last_end_ - 1);
  std::string out;
  for (std::uint32_t l = prev + 1; l < line && l <= ts_.line_starts.size(); ++l) {
    const std::uint32_t b = ts_.line_starts[l - 1];
    const std::uint32_t e = l < ts_.line_starts.size()
                                ? ts_.line_starts[l]
                                : static_cast<std::uint32_t>(ts_.source.size());
    std::string_view raw = ts_.source.substr(b, e - b);
    while (!raw.empty() && (raw.back() == '\n' || raw.back() == '\r'))
      raw.remove_suffix(1);
    const auto first = raw.find_first_not_of(" \t\f");
    if (first == std::string_view::npos)
      out += '\n';
    else if (raw[first] == '#')
      out.append(raw.substr(first)).push_back('\n');
  }
  return out;
}

std::string dsl_parser::trailing_comment() const {
  if (peek().kind() != tok::newline && peek().kind() != tok::end)
    return {};
  const std::uint32_t to =
      std::min<std::uint32_t>(peek().begin, static_cast<std::uint32_t>(ts_.source.size()));
  if (last_end_ >= to)
    return {};
  std::string_view c = ts_.source.substr(last_end_, to - last_end_);
  const auto hash = c.find('#');
  if (hash == std::string_view::npos)
    return {};
  c.remove_prefix(hash);
  while (!c.empty() &&
         (c.back() == ' ' || c.back() == '\t' || c.back() == '\r' || c.back() == '\f'))
    c.remove_suffix(1);
  constexpr std::string_view ours = "# window_buffer=";
  if (c.starts_with(ours)) {
    std::size_t k = ours.size();
    if (k < c.size() && c[k] == '"') {
      for (++k; k < c.size() && c[k] != '"'; ++k)
        if (c[k] == '\\')
          ++k;
      ++k;
    } else {
      while (k < c.size() && c[k] != ' ' && c[k] != '\t' && c[k] != '#')
        ++k;
    }
    c = k < c.size() ? c.substr(k) : std::string_view{};
    const auto rest = c.find('#');
    if (rest == std::string_view::npos)
      return {};
    c.remove_prefix(rest);
  }
  return "  " + std::string(c);
}

void dsl_parser::parse_statement() {
  const token& t = peek();
  if (t.kind() == tok::newline) {
    next();
    return;
  }
  trivia_ = leading_trivia(ts_.line_of(t.begin)); // up to the line it starts on
  const std::size_t first = ss_.size();
  const std::uint32_t stops = may_stop_;
  const source_location at = where(t);
  parse_one_statement();
  trivia_.clear();
  // A statement that may stop the function part way in some worlds and not in others
  // (`if pld.world_size() < 2: pytest.skip()`, `require_world(4)`, `got = yield v`)
  // makes no dispatch from it on surely run, as a raise does: a jump before it, of no
  // text of its own (it prints as nothing). Yield statements and raises are jumps already.
  if (stops != may_stop_ && !(ss_.size() == first + 1 && ss_.back()->is_jump())) {
    statement_spec j;
    j.what = statement::kind::verbatim;
    j.where = at;
    j.jump = true;
    ss_.insert(ss_.begin() + static_cast<std::ptrdiff_t>(first), w_.make(j));
  }
}

void dsl_parser::parse_one_statement() {
  const token& t = peek();
  if (t.kind() == tok::name && t.flags() != 0) {
    if (t.is_keyword("for"))
      return ss_.push_back(parse_for());
    if (t.is_keyword("while"))
      return ss_.push_back(parse_while());
    if (t.is_keyword("if"))
      return ss_.push_back(parse_if());
    if (t.is_keyword("with"))
      return ss_.push_back(parse_with());
    // `async def` defines a function, as `def` does: its body runs when it is awaited.
    if (t.is_keyword("async") && peek(1).kind() == tok::name && text(peek(1)) == "def")
      return ss_.push_back(parse_nested_definition());
    if (t.is_keyword("try") || t.is_keyword("except") || t.is_keyword("finally") ||
        t.is_keyword("else") || t.is_keyword("async") ||
        ((t.is_keyword("match") || t.is_keyword("case")) && compound_soft_keyword()))
      return ss_.push_back(parse_block_statement());
    if (t.is_keyword("def") || t.is_keyword("class"))
      return ss_.push_back(parse_nested_definition());
  }
  if (is_op("@"))
    return ss_.push_back(parse_nested_definition());
  parse_simple_line();
}

std::uint32_t dsl_parser::header_end() const {
  int depth = 0, lambdas = 0;
  for (std::size_t k = i_;; ++k) {
    const token& x = t_[std::min(k, t_.size() - 1)];
    if (x.kind() == tok::newline || x.kind() == tok::end)
      fail_at(x.begin, "invalid syntax: expected ':'");
    if (depth == 0 && x.is_keyword("lambda"))
      ++lambdas;
    if (x.kind() != tok::op)
      continue;
    const std::uint8_t o = x.flags();
    if (const int step = bracket_nesting(o); step != 0)
      depth += step;
    else if (o == ':' && depth == 0) {
      if (lambdas > 0) {
        --lambdas;
        continue;
      }
      return static_cast<std::uint32_t>(k);
    }
  }
}

void dsl_parser::read_header_expressions(std::uint32_t end, gathered<expression_ptr>& values,
                                         gathered<variable_ptr>& targets) {
  while (i_ < end) {
    const token& t = peek();
    if (t.is_keyword("as")) {
      next();
      // Its target, up to the item's end: a name, names in brackets (`as (x, y)`), or an
      // element or an attribute (`as self.cur`), where what the manager gives is stored.
      std::uint32_t te = static_cast<std::uint32_t>(i_);
      for (int depth = 0; te < end; ++te) {
        const token& x = t_[te];
        if (x.kind() != tok::op)
          continue;
        const int step = bracket_nesting(x.flags());
        if ((step < 0 && depth == 0) || (depth == 0 && x.is_op(",")))
          break;
        depth += step;
      }
      const auto b = static_cast<std::uint32_t>(i_);
      const bool stores = te > b && for_each_target_name(ts_, b, te, [&](std::uint32_t k) {
                            targets.push(bind_new(text(t_[k])));
                          });
      if (stores && !values.empty()) {
        std::vector<expression_ptr> stored{values.stack.back()};
        if (auto keys = target_keys(b, te))
          stored.push_back(std::move(keys));
        values.stack.back() = store_of(
            where(t_[b]),
            std::string(ts_.source.substr(t_[b].begin, ts_.end(t_[te - 1]) - t_[b].begin)) +
                " = ...",
            stored);
      }
      i_ = te;
      continue;
    }
    if (t.is_reserved() && !t.is_keyword("not") && !t.is_keyword("lambda") &&
        !t.is_keyword("await") && !t.is_keyword("None") && !t.is_keyword("True") &&
        !t.is_keyword("False")) {
      next();
      continue;
    }
    if (t.is_op(",") || t.is_op("*") || t.is_op("|")) {
      next();
      continue;
    }
    const expression_ptr e = parse_test();
    values.push(e);
  }
}

statement_ptr dsl_parser::parse_block_statement() {
  statement_spec s;
  s.what = statement::kind::block;
  s.where = where(peek());
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  const std::uint32_t colon = header_end();
  next(); // the keyword
  if (peek(0).kind() == tok::name && (text(peek()) == "for" || text(peek()) == "with") &&
      t_[b].is_keyword("async"))
    next();
  // `async for` repeats; `match` and `case` run at most once; the others (try, except,
  // else, finally, `async with`) may also stop part way, at an exception that a handler
  // or a context manager catches while what follows runs.
  const std::string_view keyword = text(t_[i_ - 1]);
  s.flow = keyword == "for"                          ? commscope::control_flow::repeat
           : keyword == "match" || keyword == "case" ? commscope::control_flow::may_skip
                                                     : commscope::control_flow::may_stop;
  gathered<expression_ptr> values(xs_);
  gathered<variable_ptr> targets(vs_);
  if (keyword == "case")
    read_case_header(colon, values, targets);
  else
    read_header_expressions(colon, values, targets);
  i_ = colon;
  expect_op(":");
  const statement_text header = header_text(b, colon);
  if (keyword == "match")
    match_subjects_.push_back(variable_uses(values.items()));
  const node_list<statement_ptr> body = parse_block();
  if (keyword == "match")
    match_subjects_.pop_back();
  s.values = values.items();
  s.targets = targets.items();
  auto* st = w_.make(s);
  st->set_origin(note(header));
  st->set_body(body);
  bind_block_targets(*st);
  return st;
}

/// `case PATTERN [if GUARD]:`. The pattern is never evaluated as an expression (`Point(x=0)`
/// calls nothing): only the names it captures are read from it, bound to what the match's
/// subject may hold. The guard is an expression.
void dsl_parser::read_case_header(std::uint32_t end, gathered<expression_ptr>& values,
                                  gathered<variable_ptr>& targets) {
  std::uint32_t guard = end;
  int depth = 0;
  for (std::uint32_t k = static_cast<std::uint32_t>(i_); k < end; ++k) {
    const token& x = t_[k];
    if (x.kind() == tok::op)
      depth += bracket_nesting(x.flags());
    else if (depth == 0 && x.is_keyword("if")) {
      guard = k;
      break;
    }
  }
  for (std::uint32_t k = static_cast<std::uint32_t>(i_); k < guard; ++k) {
    const token& x = t_[k];
    if (x.kind() != tok::name || x.is_reserved() || text(x) == "_" || t_[k - 1].is_op(".") ||
        (k + 1 < guard && (t_[k + 1].is_op(".") || t_[k + 1].is_op("(") || t_[k + 1].is_op("="))))
      continue; // a value, a class or a keyword of a class pattern: no capture
    auto* v = bind_new(text(x));
    targets.push(v);
  }
  i_ = guard;
  if (guard < end) {
    next();
    const expression_ptr e = parse_test();
    values.push(e);
  }
  if (!match_subjects_.empty())
    for (const auto& u : match_subjects_.back())
      values.push(u);
}

/// A use of every variable the expressions read, each once: what they may hold, without
/// the calls they make.
std::vector<expression_ptr> dsl_parser::variable_uses(std::span<const expression_ptr> roots) {
  std::vector<expression_ptr> uses;
  std::vector<const variable*> seen;
  std::vector<const expression*> stack;
  for (const auto& r : roots)
    if (r)
      stack.push_back(r.get());
  while (!stack.empty()) {
    const expression* e = stack.back();
    stack.pop_back();
    if (e->what == expression::kind::name && e->var()) {
      if (std::find(seen.begin(), seen.end(), e->var().get()) == seen.end()) {
        seen.push_back(e->var().get());
        uses.emplace_back(w_.make_use(e->where, e->var()));
      }
      continue;
    }
    for (const auto& a : e->args())
      if (a)
        stack.push_back(a.get());
    for (const auto& k : e->keywords())
      if (k.value)
        stack.push_back(k.value.get());
    if (e->what != expression::kind::name && e->base())
      stack.push_back(e->base().get());
  }
  return uses;
}

statement_ptr dsl_parser::parse_nested_definition() {
  statement_spec s;
  s.what = statement::kind::verbatim;
  s.where = where(peek());
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  while (is_op("@")) { // decorators
    while (peek().kind() != tok::newline && peek().kind() != tok::end)
      next();
    next();
  }
  if (!is_name("def") && !is_name("class") && !is_name("async"))
    unexpected("'def' or 'class'");
  if (is_name("async"))
    next();
  const std::string_view keyword = text(next());
  variable_ptr target;
  if (peek().kind() == tok::name) {
    auto* v = bind_new(text(peek()));
    target = v;
  }
  const auto colon = static_cast<std::uint32_t>(header_end());
  i_ = colon + 1;
  if (peek().kind() != tok::newline) {
    while (peek().kind() != tok::newline && peek().kind() != tok::end)
      next();
    next();
  } else {
    next();
    int depth = 0;
    do {
      if (peek().kind() == tok::indent)
        ++depth;
      else if (peek().kind() == tok::dedent)
        --depth;
      next();
    } while (depth > 0 && peek().kind() != tok::end);
  }
  // The text ends at the last real token (not the NEWLINE/DEDENTs after it).
  std::uint32_t e = static_cast<std::uint32_t>(i_);
  while (e > b && (t_[e - 1].kind() == tok::newline || t_[e - 1].kind() == tok::dedent ||
                   t_[e - 1].kind() == tok::indent))
    --e;
  const statement_text t = make_text(b, e, {}, false);
  s.origin = note(t);
  // Its body is not analyzed: whatever variables of the host it reads (a closure's view,
  // dispatched when it is called) it may use anywhere, as a store would, and whatever
  // they are bound to later too (cells_).
  std::string named(keyword);
  if (target)
    named.append(" ").append(target->name.view());
  const auto reads = closure_reads(b, e, target, "read by " + named);
  // The host's names it rebinds are values the pass does not follow from here on: a `:=`
  // in its header binds in the host, and a `nonlocal` in its body may be called to.
  std::vector<variable_ptr> targets;
  if (target)
    targets.push_back(target);
  std::unordered_set<std::string_view> rebound;
  const auto rebind = [&](std::uint32_t k) {
    const std::string_view n = text(t_[k]);
    if (t_[k].kind() == tok::name && !t_[k].is_reserved() && local_variable(n, hash_name(n)) &&
        rebound.insert(n).second)
      targets.emplace_back(bind_new(n));
  };
  for (std::uint32_t k = b; k + 1 < colon; ++k)
    if (t_[k + 1].is_op(":="))
      rebind(k);
  for (std::uint32_t k = colon; k < e; ++k)
    if (t_[k].is_keyword("nonlocal"))
      for (++k; k < e && t_[k].kind() != tok::newline && !t_[k].is_op(";"); ++k)
        rebind(k);
  if (reads.empty())
    return opaque_binding(s, {}, targets);
  expression_spec x;
  x.what = expression::kind::opaque;
  x.where = s.where;
  x.text = w_.intern(named);
  x.args = reads;
  auto* closure = w_.make(x);
  closure->set_store();
  const expression_ptr read[] = {expression_ptr(closure)};
  return opaque_binding(s, read, targets);
}

/// The uses of the host's variables that the tokens [b, e) of a nested definition read,
/// each variable once. Python's scopes decide what is a read of the host's, as the
/// module's scan found them: every def and class in [b, e), the definition itself first,
/// is a scope whose header (decorators, default values, annotations) runs in the scope
/// around it. A name is no read of the host's where a def around it binds it (its
/// parameters, and what its body binds, the scan's records of its scope) without
/// declaring it global or nonlocal, or where the class whose body holds it directly binds
/// it (a class's names are not seen by its methods). What an f-string's fields call with
/// counts too (formatted_fields).
std::vector<expression_ptr> dsl_parser::closure_reads(std::uint32_t b, std::uint32_t e,
                                                      variable_ptr self, std::string_view reader,
                                                      bool note_only) {
  struct scope {
    std::uint32_t body = 0, end = 0; // its body: [body, end)
    bool is_def = false;
    std::unordered_set<std::string_view> bound, declared;
  };
  // Whether the record at token k is a name a `global` or `nonlocal` statement declares.
  const auto declared_at = [&](std::uint32_t k) {
    while (k > b && t_[k - 1].kind() != tok::newline && t_[k - 1].kind() != tok::indent &&
           t_[k - 1].kind() != tok::dedent && !t_[k - 1].is_op(";") && !t_[k - 1].is_op(":"))
      --k;
    return t_[k].is_keyword("global") || t_[k].is_keyword("nonlocal");
  };
  std::vector<scope> scopes;             // in order of their keywords
  std::vector<std::uint32_t> parameters; // token indices of parameters' names
  const auto& defs = scan_.definitions;
  for (auto d = std::lower_bound(defs.begin(), defs.end(), b,
                                 [](const definition&x, std::uint32_t k) { return x.keyword < k; });
       d != defs.end() && d->keyword < e; ++d) {
    scope sc;
    sc.is_def = !d->is_class;
    sc.body = d->colon + 1;
    sc.end = d->body_end;
    if (d->own_scope >= 0 && static_cast<std::size_t>(d->own_scope) < scan_.scopes.size())
      for (const auto& r : scan_.scopes[static_cast<std::size_t>(d->own_scope)].records) {
        const std::string_view n = text(t_[r.name]);
        if (r.name < d->colon)
          parameters.push_back(r.name);
        if (declared_at(r.name))
          sc.declared.insert(n);
        else
          sc.bound.insert(n);
      }
    scopes.push_back(std::move(sc));
  }
  std::sort(parameters.begin(), parameters.end());
  // Whether n, read at a token inside the scopes `open` (innermost last), is their own.
  std::vector<std::uint32_t> open;
  const auto own = [&](std::string_view n) {
    for (auto i = open.size(); i-- > 0;) {
      const scope& sc = scopes[open[i]];
      if (sc.declared.contains(n))
        return false;
      if ((sc.is_def || i + 1 == open.size()) && sc.bound.contains(n))
        return true;
    }
    return false;
  };
  std::vector<expression_ptr> reads;
  std::unordered_set<const variable*> seen;
  const auto read = [&](std::string_view n, const token& at) {
    if (own(n))
      return;
    if (note_only) {
      if (last_binding_of(n) != no_late)
        cells_.try_emplace(n, std::string(reader));
      return;
    }
    const variable* v = local_variable(n, hash_name(n));
    if (v && v != self.get() && seen.insert(v).second) {
      reads.emplace_back(w_.make_use(where(at), variable_ptr(v)));
      cells_.try_emplace(v->name.view(), std::string(reader));
    }
  };
  std::size_t next = 0;
  for (std::uint32_t k = b; k < e; ++k) {
    while (!open.empty() && k >= scopes[open.back()].end)
      open.pop_back();
    while (next < scopes.size() && k >= scopes[next].body)
      open.push_back(static_cast<std::uint32_t>(next++));
    const token& x = t_[k];
    if (x.kind() == tok::string && (x.flags() & string_formatted)) {
      // Formatting only reads (formatted_string): what a call in a field reads counts.
      if (const formatted_reads fields = formatted_fields(text(x)); fields.may_call)
        for (const std::string_view n : fields.names)
          read(n, x);
      continue;
    }
    if (x.kind() != tok::name || x.is_reserved() || (k > b && t_[k - 1].is_op(".")) ||
        (k + 1 < e && t_[k + 1].is_op("=")) ||
        std::binary_search(parameters.begin(), parameters.end(), k))
      continue;
    read(text(x), x);
  }
  return reads;
}

void dsl_parser::parse_simple_line() {
  line_items_.clear();
  while (true) {
    const auto b = static_cast<std::uint32_t>(i_);
    statement* s = parse_simple();
    line_items_.push_back({s, b, static_cast<std::uint32_t>(i_)});
    ss_.push_back(s);
    if (!is_op(";"))
      break;
    next();
    if (peek().kind() == tok::newline || peek().kind() == tok::end)
      break;
  }
  const std::string comment = trailing_comment();
  for (std::size_t k = 0; k < line_items_.size(); ++k) {
    const auto& item = line_items_[k];
    const bool last = k + 1 == line_items_.size();
    const statement_text t = make_text(item.b, item.e, last ? comment : std::string_view(), true);
    item.s->set_origin(note(t));
  }
  expect_line_end();
}

statement* dsl_parser::parse_simple() {
  const auto start = static_cast<std::uint32_t>(i_);
  statement_spec s;
  s.where = where(peek());
  const token& w = peek();
  if (w.is_keyword("pass")) {
    next();
    s.what = statement::kind::pass;
    return w_.make(s);
  }
  if (w.is_keyword("return")) {
    next();
    s.what = statement::kind::return_;
    gathered<expression_ptr> values(xs_);
    if (!at_line_end()) {
      bool bare = false;
      auto v = parse_expression_list(&bare, true);
      if (bare)
        for (const auto& a : v->args())
          values.push(a);
      else
        values.push(v);
    }
    s.values = values.items();
    return w_.make(s);
  }
  if (w.is_keyword("break") || w.is_keyword("continue") || w.is_keyword("global") ||
      w.is_keyword("nonlocal") || w.is_keyword("import") || w.is_keyword("from")) {
    s.what = statement::kind::verbatim;
    s.jump = w.is_keyword("break") || w.is_keyword("continue");
    const bool declares = w.is_keyword("global") || w.is_keyword("nonlocal");
    const bool imports = w.is_keyword("import") || w.is_keyword("from");
    // An import binds names: a value the pass does not follow (the DSL's own modules
    // are known by their names, not as variables).
    gathered<variable_ptr> imported(vs_);
    bool dsl = false;
    const auto keyword_at = static_cast<std::uint32_t>(i_);
    while (!at_line_end()) {
      const auto k = static_cast<std::uint32_t>(i_);
      const token& x = next();
      if (declares && x.kind() == tok::name && !x.is_reserved())
        cells_.try_emplace(text(x), w.is_keyword("global") ? "global" : "nonlocal");
      if (!imports || x.kind() != tok::name || x.is_reserved())
        continue;
      if (k == keyword_at + 1 && text(x) == "pypto")
        dsl = true;
      // The name bound: the one after `as`, else a from-import's name or an import's
      // first component.
      const bool after_as = k > 0 && t_[k - 1].is_keyword("as");
      const bool aliased = is_name("as");
      const bool first =
          t_[k - 1].is_keyword("import") || t_[k - 1].is_op(",") || t_[k - 1].is_op("(");
      if (!dsl && !aliased && (after_as || first))
        imported.push(bind_new(text(x)));
    }
    if (!imported.items().empty())
      return opaque_binding(s, {}, imported.items());
    return w_.make(s);
  }
  if (w.is_keyword("del") || w.is_keyword("assert") || w.is_keyword("raise")) {
    next();
    s.what = statement::kind::verbatim;
    gathered<expression_ptr> values(xs_);
    while (!at_line_end()) {
      if (is_op(",") || is_name("from")) {
        next();
        continue;
      }
      const auto at = static_cast<std::uint32_t>(i_);
      mutable_expr e = parse_test();
      if (w.is_keyword("assert")) {
        // An assert's message runs only when it fails, and `python -O` runs none of it: a
        // dispatch in it may not run (it does not count towards the smallest world).
        const bool message = !values.empty();
        e = opaque(at, {e});
        e->set_conditional();
        // The message is kept in the exception, for a handler to take out again; a string
        // formatted from values (`"bad %s" % v`, `"bad {}".format(v)`) keeps none of them.
        if (message && !formats_string(*e->args()[0]))
          e = store_of(e->where, "AssertionError(...)", e);
      }
      if (w.is_keyword("del")) {
        // `del owner[v]` hands v to the container's __delitem__, which may keep it, as
        // `owner[v] = 0` hands it to __setitem__.
        std::vector<expression_ptr> keys;
        const std::string text = "del " + stored_path(*e, keys);
        if (!keys.empty())
          values.push(store_of(e->where, text, keys));
      }
      values.push(e);
    }
    s.values = values.items();
    // A raise leaves the function (or the loop, for a handler outside it) as a return or
    // a break does: no dispatch after it surely runs. So may an assert, which raises when
    // it fails (`assert pld.world_size() >= 6`: a smaller world stops there).
    s.jump = w.is_keyword("raise") || w.is_keyword("assert");
    return w_.make(s);
  }
  if (w.is_keyword("type") && peek(1).kind() == tok::name && (is_op("=", 2) || is_op("[", 2))) {
    s.what = statement::kind::verbatim; // a type alias
    while (!at_line_end())
      next();
    return w_.make(s);
  }
  if (w.kind() == tok::name && !w.is_reserved() && is_op("=", 1) && single_target()) {
    // `NAME = value`, the common case: the target needs no node of its own.
    const std::string_view target = text(w);
    next();
    next();
    auto value = parse_value();
    return assign_name(s, target, value);
  }
  // An expression list (or a yield, whose value leaves as a return's does), then '='
  // chains, an annotation, or an augmented operator.
  const bool yields = is_name("yield");
  auto first = yields ? parse_yield() : parse_expression_list(nullptr, true);
  if (yields && !at_line_end()) { // as Python 3.11 says it
    if (is_op("="))
      fail_at(w.begin, "assignment to yield expression not possible");
    fail_at(peek().begin, "invalid syntax");
  }
  if (is_op(":")) { // annotated: NAME: T [= value]
    next();
    (void)parse_test(); // the annotation: kept in the statement's text only
    if (!is_op("=")) {
      s.what = statement::kind::verbatim;
      const expression_ptr v[] = {first};
      s.values = v;
      return w_.make(s);
    }
    next();
    auto value = parse_value();
    const expression_ptr targets[] = {first};
    return assignment(s, targets, value);
  }
  if (peek().kind() == tok::op && is_augmented_code(peek().flags())) {
    const std::string_view op = text(next());
    auto value = parse_value();
    gathered<variable_ptr> targets(vs_);
    // `x.a += v`, `l[i] += v`: v is stored there. So it is by `l += [v]`: a list or a
    // dict changes in place, and every other name that holds it (`alias = l` before) holds
    // v then, where the analysis does not follow.
    const expression* store = rebind_targets(*first, targets);
    expression_ptr stored;
    if (store) {
      stored = store_into(*store, value);
    } else {
      std::string named = first->what != expression::kind::name ? std::string("(...)")
                          : first->var() ? std::string(first->var()->name.view())
                                         : std::string(first->text().view());
      named.append(" ").append(op).append(" ...");
      stored = store_of(first->where, named, value);
    }
    const expression_ptr v[] = {first, stored};
    return opaque_binding(s, v, targets.items());
  }
  if (!is_op("=")) {
    s.what = statement::kind::evaluate;
    s.value = first;
    // A generator's consumer may stop it at a yield, as an exit stops the program.
    const bool exit = yields || exits(start, static_cast<std::uint32_t>(i_));
    if (exit || first->what == expression::kind::string || is_docstring(*first)) {
      s.what = statement::kind::verbatim;
      const expression_ptr v[] = {first};
      s.values = v;
      s.value = nullptr;
      // `sys.exit(1)` ends the program as a raise does: no dispatch after it surely runs.
      // Its arguments (a yield's values) are evaluated first, as a raise's exception is.
      s.jump = exit;
      return w_.make(s);
    }
    return w_.make(s);
  }
  gathered<expression_ptr> targets(xs_);
  targets.push(first);
  mutable_expr value = nullptr;
  while (is_op("=")) {
    next();
    value = parse_value();
    if (is_op("="))
      targets.push(value);
  }
  return assignment(s, targets.items(), value);
}

bool dsl_parser::exits(std::uint32_t b, std::uint32_t e) {
  // D(...) with D a dotted name of one or two names, the call's ')' ending the statement.
  std::uint32_t open = b;
  while (open < e && (t_[open].kind() == tok::name || t_[open].is_op(".")))
    ++open;
  const std::string d = dotted_name(ts_, b, open);
  if (d.empty() || open >= e || !t_[open].is_op("(") || !t_[e - 1].is_op(")"))
    return false;
  int depth = 0;
  for (std::uint32_t k = open; k < e; ++k)
    if ((depth += t_[k].kind() == tok::op ? bracket_nesting(t_[k].flags()) : 0) == 0 && k + 1 != e)
      return false; // `sys.exit(1).x`, `exit()()`: not the call alone
  const auto dot = d.find('.');
  const std::string_view root = std::string_view(d).substr(0, dot);
  if (dot == std::string::npos && (d == "exit" || d == "quit") && scan_.star_modules.empty() &&
      binding_scope(function_scope_ < 0 ? 0 : function_scope_, root, true) < 0)
    return true; // the builtins (site's): no scope binds the name, no star import may
  if (dot != std::string::npos && d.find('.', dot + 1) != std::string::npos)
    return false;
  // Else an import of the name that the function sees: `import sys [as s]` for
  // `s.exit`, `from sys import exit [as e]` for `e`.
  const import_record* rec = import_of(scan_, root, function_scope_ < 0 ? 0 : function_scope_);
  if (!rec || rec->level != 0 || !binds_last(*rec, root) ||
      binding_scope(function_scope_ < 0 ? 0 : function_scope_, root, true) != rec->scope)
    return false;
  const std::string_view name =
      dot == std::string::npos ? std::string_view(rec->name) : std::string_view(d).substr(dot + 1);
  if (dot != std::string::npos && !rec->name.empty())
    return false; // `from m import sys`: not the module
  const std::string_view module = rec->module;
  return (module == "sys" && name == "exit") || (module == "os" && name == "_exit") ||
         (module == "builtins" && (name == "exit" || name == "quit"));
}

bool dsl_parser::single_target() const {
  int depth = 0;
  for (std::size_t k = i_ + 2; k < t_.size(); ++k) {
    const token& x = t_[k];
    if (x.kind() == tok::newline || x.kind() == tok::end)
      return true;
    if (x.kind() != tok::op)
      continue;
    const std::uint8_t o = x.flags();
    if (const int step = bracket_nesting(o); step != 0)
      depth += step;
    else if (depth == 0 && (o == '=' || o == ';'))
      return o == ';';
  }
  return true;
}

bool dsl_parser::is_docstring(const expression& e) {
  if (e.what != expression::kind::opaque)
    return false;
  const std::string_view t = e.text();
  return !t.empty() &&
         (t[0] == '"' || t[0] == '\'' ||
          ((t[0] | 0x20) >= 'a' && (t[0] | 0x20) <= 'z' && t.find_first_of("\"'") < 3));
}

const expression* dsl_parser::rebind_targets(const expression& target,
                                             gathered<variable_ptr>& out) {
  const expression* store = nullptr;
  std::vector<const expression*> stack{&target};
  while (!stack.empty()) {
    const expression* e = stack.back();
    stack.pop_back();
    if (e->what == expression::kind::name ||
        (e->what == expression::kind::integer && !e->name().empty())) {
      const std::string_view n = e->var()                            ? e->var()->name.view()
                                 : e->what == expression::kind::name ? e->text().view()
                                                                     : e->name().view();
      if (n.empty())
        continue;
      auto* v = bind_new(n);
      out.push(v);
    } else if (e->what == expression::kind::tuple || e->what == expression::kind::list ||
               (e->what == expression::kind::opaque && e->text().starts_with("*"))) {
      const auto args = e->args();
      for (auto it = args.rbegin(); it != args.rend(); ++it)
        stack.push_back(it->get());
    } else if (!store &&
               (e->what == expression::kind::attribute || e->what == expression::kind::subscript)) {
      store = e;
    }
  }
  return store;
}

statement* dsl_parser::assignment(statement_spec& s,
                                  std::span<const expression_ptr> gathered_targets,
                                  mutable_expr value) {
  // (a copy: the targets may sit on the scratch stack this function pushes to)
  const std::vector<expression_ptr> targets(gathered_targets.begin(), gathered_targets.end());
  // A DSL assignment: one chain of plain names (a, b = v included).
  std::vector<std::string_view> names;
  bool plain = targets.size() == 1;
  if (plain) {
    const expression& t = *targets[0];
    auto add = [&](const expression& n) {
      if (n.what == expression::kind::name && (n.var() || !n.text().empty())) {
        names.push_back(n.var() ? n.var()->name.view() : n.text().view());
        return true;
      }
      if (n.what == expression::kind::integer && !n.name().empty()) { // a resolved constant
        names.push_back(n.name());
        return true;
      }
      return false;
    };
    if (t.what == expression::kind::tuple && !t.args().empty()) {
      for (const auto& a : t.args())
        plain = plain && add(*a);
    } else {
      plain = add(t);
    }
  } else if (value &&
             (value->what == expression::kind::integer || value->what == expression::kind::name)) {
    // `src = dst = 0`: each name is bound to the value, as `src, dst = 0, 0` binds them (a
    // value that reads nothing else, read once per name).
    plain = true;
    for (const auto& t : targets)
      plain = plain && t->what == expression::kind::name && (t->var() || !t->text().empty());
    if (plain) {
      for (const auto& t : targets)
        names.push_back(t->var() ? t->var()->name.view() : t->text().view());
      const std::vector<expression_ptr> copies(targets.size(), value);
      expression_spec tuple;
      tuple.what = expression::kind::tuple;
      tuple.where = value->where;
      tuple.args = copies;
      return assign_names(s, names, w_.make(tuple));
    }
  }
  if (!plain) {
    gathered<variable_ptr> rebound(vs_);
    const expression* store = nullptr; // `x.b = ...`, `a, x.b = ...`, `[*l[0:1]] = ...`
    for (const auto& t : targets)
      if (const expression* st = rebind_targets(*t, rebound); !store)
        store = st;
    gathered<expression_ptr> values(xs_);
    // Stored into an attribute or an element, the value is read through the store (named
    // after the first such target): read twice, its calls would count twice.
    values.push(store ? store_into(*store, value) : expression_ptr(value));
    for (const auto& t : targets)
      if (t->what != expression::kind::name)
        values.push(t); // subscripts and attributes read their operands
    return opaque_binding(s, values.items(), rebound.items());
  }
  return assign_names(s, names, value);
}

statement* dsl_parser::opaque_binding(statement_spec& s, std::span<const expression_ptr> reads,
                                      std::span<const variable_ptr> targets) {
  if (targets.empty()) {
    s.what = statement::kind::verbatim;
    s.values = reads;
    return w_.make(s);
  }
  s.what = statement::kind::assign;
  s.value = opaque_of(s.where, reads);
  for (const auto& t : targets)
    if (const std::string_view n = t->name.view(); cells_.contains(n)) {
      s.value = into_cell(n, s.value, s.where);
      break;
    }
  s.targets = targets;
  return w_.make(s);
}

mutable_expr dsl_parser::into_cell(std::string_view name, expression_ptr value,
                                   source_location at) {
  // A window made here escapes as its pointer: it is no view of the plan's then.
  if (value->what == expression::kind::operation && value->op == commscope::operation::window &&
      !value->args().empty())
    value = value->args()[0];
  return store_of(at, std::string(name) + " = ... (" + cells_.at(name) + ")", std::move(value));
}

const std::string_view* dsl_parser::first_cell(std::span<const std::string_view> names) const {
  if (!cells_.empty())
    for (const auto& n : names)
      if (cells_.contains(n))
        return &n;
  return nullptr;
}

expression_ptr dsl_parser::opaque_of(source_location at, std::span<const expression_ptr> reads) {
  expression_spec e;
  e.what = expression::kind::opaque;
  e.where = at;
  e.args = reads;
  return w_.make(e);
}

/// `target = value` where target is an attribute or an element (`x.a`, `l[i]`, `t[0].b`):
/// the value is stored where the analysis does not follow it. Named as written, with
/// `[...]` for subscripts.
std::string dsl_parser::stored_path(const expression& target, std::vector<expression_ptr>& keys) {
  std::vector<std::string_view> parts; // innermost last
  const expression* p = &target;
  while (p && (p->what == expression::kind::attribute || p->what == expression::kind::subscript)) {
    parts.push_back(p->what == expression::kind::attribute ? p->text().view() : "[...]");
    if (p->what == expression::kind::subscript)
      for (const auto& k : p->args())
        keys.push_back(k);
    p = p->base().get();
  }
  std::string text;
  if (p && p->what == expression::kind::name)
    text = p->var() ? p->var()->name.view() : p->text().view();
  else
    text = "(...)";
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (*it != "[...]")
      text += '.';
    text += *it;
  }
  return text;
}

expression_ptr dsl_parser::store_into(const expression& target, expression_ptr value) {
  // A subscript's key is stored as well as the value: `owner[v] = 0` keeps v in a dict.
  std::vector<expression_ptr> stored{std::move(value)};
  const std::string text = stored_path(target, stored) + " = ...";
  return store_of(target.where, text, stored);
}

mutable_expr dsl_parser::store_of(source_location at, std::string_view text, expression_ptr value) {
  const expression_ptr reads[] = {std::move(value)};
  return store_of(at, text, reads);
}

mutable_expr dsl_parser::store_of(source_location at, std::string_view text,
                                  std::span<const expression_ptr> values) {
  expression_spec e;
  e.what = expression::kind::opaque;
  e.where = at;
  e.text = w_.intern(text);
  e.args = values;
  auto* x = w_.make(e);
  x->set_store();
  return x;
}

void dsl_parser::bind_block_targets(statement& block) {
  if (block.targets().empty())
    return;
  // Each time the body begins, the targets take what the block's values hold (an element
  // of `items`, what `with ... as x` gives): a value made of what the statement itself
  // bound them to, so that a view among the values reaches the body, and the values are
  // not read twice.
  std::vector<expression_ptr> reads;
  for (const auto& t : block.targets())
    reads.emplace_back(w_.make_use(block.where, t));
  statement_spec b;
  b.what = statement::kind::assign;
  b.where = block.where;
  b.targets = block.targets();
  b.value = opaque_of(block.where, reads);
  for (const auto& t : block.targets())
    if (const std::string_view n = t->name.view(); cells_.contains(n)) {
      b.value = into_cell(n, b.value, block.where);
      break;
    }
  block.set_binding(w_.make(b));
}

statement* dsl_parser::assign_names(statement_spec& s, std::span<const std::string_view> names,
                                    mutable_expr value) {
  s.what = statement::kind::assign;
  if (auto* c = integer_of(*value)) // `last = N - 1`: a constant temporary
    value = c;
  if (const std::string_view* cell = first_cell(names))
    value = into_cell(*cell, value, s.where);
  expression& e = *value;
  gathered<variable_ptr> vars(vs_);
  const bool single = names.size() == 1;
  for (auto n : names)
    vars.push(single ? bind_new(n) : new_variable(n));
  auto var0 = [&] { return const_cast<variable*>(vars.items()[0].get()); }; // made here
  if (e.what == expression::kind::operation && e.op == commscope::operation::alloc_window_buffer &&
      vars.size() == 1) {
    if (!has_name_keyword(e))
      e.set_name(var0()->name);
    bind_slot(*var0(), e);
    if (e.args().size() == 1)
      if (const auto bytes = fold_integer(*e.args()[0]))
        unit_->allocation_bytes.push_back({s.where, var0()->id, *bytes});
  } else if (e.what == expression::kind::operation && e.op == commscope::operation::window &&
             vars.size() == 1) {
    type ty;
    const auto args = e.args();
    if (args.size() > 1)
      ty.shape = args[1];
    for (const auto& kw : e.keywords())
      if (kw.name == "dtype")
        ty.dtype = kw.value;
    if (!ty.dtype && args.size() > 2)
      ty.dtype = args[2];
    if (!args.empty())
      ty.window = window_of(*args[0]);
    var0()->var_type = w_.make_node(ty);
    view_statements_.emplace_back(var0(), s.where);
  } else if (e.what == expression::kind::name && e.var() && vars.size() == 1) {
    if (auto w = window_of(e)) // a plain copy of an allocation's pointer
      windows_[var0()->id] = w;
  }
  if (!single)
    for (const auto& v : vars.items())
      bind(v.get());
  s.parallel = !single && is_tuple_of(e, names.size());
  s.targets = vars.items();
  s.value = value;
  return w_.make(s);
}

bool dsl_parser::are_values(node_span<expression_ptr> items, std::size_t n) {
  if (items.size() != n)
    return false;
  for (const auto& a : items)
    if (a->what == expression::kind::opaque && a->text().starts_with("*"))
      return false;
  return true;
}

} // namespace commscope::frontend::detail
