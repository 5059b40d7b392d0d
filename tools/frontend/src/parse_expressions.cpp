// The DSL parser: expressions, by precedence, names and calls.
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
/// Python's builtins whose value is what they are given, repacked, and that call nothing
/// the program gives them (not `sorted`, `min` or `max`, whose `key=` they call, nor
/// `iter` and `next`, which may run a generator's code).
bool repacks(std::string_view name) {
  for (const std::string_view b :
       {"enumerate", "zip", "reversed", "list", "tuple", "dict", "set", "frozenset"})
    if (name == b)
      return true;
  return false;
}

bool reads_only(std::string_view name) {
  return std::find(reference::read_only_builtins.begin(), reference::read_only_builtins.end(),
                   name) != reference::read_only_builtins.end();
}
} // namespace

mutable_expr dsl_parser::opaque(std::uint32_t b, std::span<const expression_ptr> operands) {
  expression_spec s;
  s.what = expression::kind::opaque;
  s.where = where(t_[b]);
  s.text = w_.string(ts_.source.substr(t_[b].begin, last_end_ - t_[b].begin));
  s.args = operands;
  return w_.make(s);
}

mutable_expr dsl_parser::binary(const expression_ptr& l, std::string_view op,
                                const expression_ptr& r) {
  const expression_ptr args[] = {l, r};
  expression_spec s;
  s.what = expression::kind::binary;
  s.where = l->where;
  s.text = w_.intern(op);
  s.args = args;
  return w_.make(s);
}

mutable_expr dsl_parser::parse_expression_list(bool* bare, bool starred) {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  auto first = starred ? parse_star_or_named() : parse_named();
  if (!is_op(","))
    return first;
  gathered<expression_ptr> items(xs_);
  items.push(first);
  while (is_op(",")) {
    next();
    if (at_line_end() || is_op("=") || is_op(":") || is_op(")") || is_name("in") ||
        (peek().kind() == tok::op && is_augmented_code(peek().flags())))
      break;
    const expression_ptr x = starred ? parse_star_or_named() : parse_named();
    items.push(x);
  }
  if (bare)
    *bare = true;
  expression_spec s;
  s.what = expression::kind::tuple;
  s.where = where(t_[b]);
  s.args = items.items();
  return w_.make(s);
}

mutable_expr dsl_parser::parse_star_or_named() {
  if (is_op("*")) {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    next();
    auto x = parse_or();
    return opaque(b, {x});
  }
  return parse_named();
}

mutable_expr dsl_parser::parse_named() {
  if (peek().kind() == tok::name && is_op(":=", 1)) {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::string_view n = text(next());
    next();
    auto value = parse_test();
    // A binding inside an expression, which no statement presents to the analysis: uses
    // after it see the bindings before it, so what it binds must hold no view. It is
    // taken as a store (a view in it is view-escapes there).
    (void)bind_new(n);
    auto r = opaque(b, {value});
    r->set_store();
    return r;
  }
  return parse_test();
}

mutable_expr dsl_parser::parse_yield() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  next();
  ++may_stop_;
  mutable_expr y;
  if (is_name("from")) {
    next();
    y = opaque(b, {parse_test()});
  } else if (!at_line_end() && !is_op(")") && !is_op("=")) {
    y = opaque(b, {parse_expression_list(nullptr, true)});
  } else {
    return opaque(b, {});
  }
  // What a host orchestrator that another DSL function calls yields goes to that caller,
  // as a return's value does (function::returns_to_callers), and while its scopes are
  // still open: a store the pass does not follow.
  if (returns_to_callers_) {
    y->set_store();
    unit_->yields_to_callers.emplace_back(y->where, std::string(host_name_));
  }
  return y;
}

mutable_expr dsl_parser::parse_test() {
  nest guard(*this, peek().begin);
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  if (is_name("lambda"))
    return parse_lambda();
  auto x = parse_or();
  if (is_name("if") && !no_conditional_) {
    next();
    auto cond = parse_or();
    if (!is_name("else"))
      unexpected("'else'");
    next();
    auto other = parse_test();
    auto r = opaque(b, {x, cond, other});
    r->set_conditional();
    return r;
  }
  return x;
}

mutable_expr dsl_parser::parse_lambda() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  next();
  const std::size_t shadowed = shadow_.size(), defaulted = defaulted_.size(),
                    defaults = lambda_defaults_.size();
  int depth = 0;
  gathered<expression_ptr> ops(xs_);
  std::vector<std::pair<std::string_view, expression_ptr>> own_defaults;
  std::string_view parameter;
  while (!(depth == 0 && is_op(":"))) {
    if (peek().kind() == tok::newline || peek().kind() == tok::end)
      unexpected("':'");
    if (is_op("(") || is_op("[") || is_op("{"))
      ++depth;
    else if (is_op(")") || is_op("]") || is_op("}"))
      --depth;
    if (peek().kind() == tok::name && depth == 0 && !is_op("=", 1) && !peek().is_reserved())
      shadow(text(peek()));
    else if (peek().kind() == tok::name && depth == 0 && !peek().is_reserved())
      defaulted_.push_back(parameter = text(peek())); // bound when the lambda is made
    if (is_op("=") && depth == 0) {
      next();
      // Defaults are evaluated where the lambda is, before any of its parameters binds.
      const expression_ptr d = parse_test();
      ops.push(d);
      own_defaults.emplace_back(parameter, d);
      continue;
    }
    next();
  }
  next();
  lambda_defaults_.insert(lambda_defaults_.end(), own_defaults.begin(), own_defaults.end());
  const late_reading late(*this, b);
  const expression_ptr body = parse_test();
  ops.push(body);
  unshadow(shadowed);
  defaulted_.resize(defaulted);
  lambda_defaults_.resize(defaults);
  auto r = opaque(b, ops.items());
  r->set_conditional(); // a lambda's body runs when it is called, if ever
  return r;
}

int dsl_parser::binary_level(std::size_t k) const {
  const token& t = peek(k);
  if (t.kind() == tok::op) {
    switch (t.flags()) {
    case '|':
    case '^':
    case '&':
      return 5;
    case '+':
    case '-':
      return 6;
    case '*':
    case '/':
    case '%':
    case '@':
      return 7;
    case '<':
    case '>':
      return 4;
    default:
      break;
    }
    if (t.is_op("<<") || t.is_op(">>"))
      return 5;
    if (t.is_op("//"))
      return 7;
    if (t.is_op("==") || t.is_op("!=") || t.is_op("<=") || t.is_op(">="))
      return 4;
    return 0;
  }
  if (t.kind() == tok::name && t.flags() != 0) {
    if (t.is_keyword("or"))
      return 1;
    if (t.is_keyword("and"))
      return 2;
    if (t.is_keyword("in") || t.is_keyword("is") || (t.is_keyword("not") && is_name("in", k + 1)))
      return 4;
  }
  return 0;
}

mutable_expr dsl_parser::parse_binary(int min_level) {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  mutable_expr l = min_level <= 3 && is_name("not") ? parse_not() : parse_factor();
  while (true) {
    const int level = binary_level();
    if (level == 0 || level < min_level)
      return l;
    switch (level) {
    case 1: {
      next();
      auto r = parse_binary(2);
      l = binary(l, "or", r);
      break;
    }
    case 2: {
      next();
      auto r = parse_binary(3);
      l = binary(l, "and", r);
      break;
    }
    case 4: {
      const token& t = peek();
      if (t.kind() == tok::op) {
        const std::string_view o = text(t);
        next();
        auto r = parse_binary(5);
        l = binary(l, o, r);
      } else {
        const bool is = t.is_keyword("is"), not_in = t.is_keyword("not");
        next();
        if ((is && is_name("not")) || not_in)
          next();
        auto r = parse_binary(5);
        l = opaque(b, {l, r});
      }
      break;
    }
    case 5: {
      next();
      auto r = parse_binary(6);
      l = opaque(b, {l, r});
      break;
    }
    case 6: {
      const std::string_view op = text(next());
      auto r = parse_binary(7);
      l = binary(l, op, r);
      break;
    }
    default: {
      const std::string_view op = text(next());
      auto r = parse_factor();
      l = op == "@" ? opaque(b, {l, r}) : binary(l, op, r);
      break;
    }
    }
  }
}

mutable_expr dsl_parser::parse_not() {
  const token& t = next();
  nest guard(*this, t.begin);
  const expression_ptr x = parse_binary(3);
  expression_spec s;
  s.what = expression::kind::unary;
  s.where = where(t);
  s.text = w_.intern("not");
  s.args = {&x, 1};
  return w_.make(s);
}

mutable_expr dsl_parser::parse_factor() {
  if (!is_op("-") && !is_op("+") && !is_op("~"))
    return parse_power();
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  const token& t = next();
  const std::string_view op = text(t);
  nest guard(*this, t.begin);
  mutable_expr x = parse_factor();
  if (op == "+")
    return x; // unary plus is the identity on everything the pass reads
  if (op == "~")
    return opaque(b, {x});
  expression& v = *x;
  if (v.what == expression::kind::integer && v.name().empty()) {
    // Fold a negated literal, so `device=-1` is the constant -1. (A literal node is
    // this parse's own: nothing else points at it yet.)
    if (!v.overflow() && v.value() != std::numeric_limits<std::int64_t>::min()) {
      v.set_value(-v.value());
      v.where = where(t);
      return x;
    }
    if (v.overflow() && v.text() == "9223372036854775808") { // exactly INT64_MIN
      v.set_overflow(false);
      v.set_text({});
      v.set_value(std::numeric_limits<std::int64_t>::min());
      v.where = where(t);
      return x;
    }
    if (v.overflow()) {
      v.set_value(std::numeric_limits<std::int64_t>::min()); // saturated: still negative
      v.set_text(w_.string("-" + std::string(v.text().view())));
      v.where = where(t);
      return x;
    }
  }
  const expression_ptr arg = x;
  expression_spec s;
  s.what = expression::kind::unary;
  s.where = where(t);
  s.text = w_.intern("-");
  s.args = {&arg, 1};
  return w_.make(s);
}

mutable_expr dsl_parser::parse_power() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  if (is_name("await")) {
    next();
    auto x = parse_power();
    return opaque(b, {x});
  }
  mutable_expr x = parse_primary();
  if (is_op("**")) {
    const token& t = next();
    nest guard(*this, t.begin);
    auto r = parse_factor();
    auto* power = opaque(b, {x, r});
    powers_.insert(power);
    return power;
  }
  return x;
}

dsl_parser::resolved_name dsl_parser::resolve(std::string_view n) {
  resolved_name r;
  for (std::size_t k = shadow_.size(); k-- > 0;)
    if (shadow_[k] == n) {
      if (shadow_sources_[k].end > shadow_sources_[k].begin)
        r.target = static_cast<std::uint32_t>(k + 1);
      return r;
    }
  const std::uint64_t h = hash_name(n);
  if (const variable* v = local_variable(n, h)) {
    r.var = v;
    return r;
  }
  if (resolving_) {
    if (auto c = constant(n, h)) {
      r.constant = true;
      r.value = *c;
    }
  }
  return r;
}

const variable* dsl_parser::bound_later(std::string_view n, std::uint64_t h) {
  for (const auto& [hash, name] : unbound_cache_) // the module names read on every line
    if (hash == h && name == n)
      return nullptr;
  if (n == implicit_self_ || function_scope_ < 0 ||
      static_cast<std::size_t>(function_scope_) >= scan_.scopes.size())
    return nullptr;
  // Whether the function binds n anywhere. Most names read unbound are module names and
  // builtins that it never binds: a filter of the hashes of the names it binds (two bits
  // of 16 per name, made on its first such read) turns nearly all of them away; a set of
  // the names, made only if one passes, answers the rest.
  const auto& records = scan_.scopes[static_cast<std::size_t>(function_scope_)].records;
  const auto bits_at = [&](std::uint64_t x) {
    const std::uint64_t mask = record_filter_.size() * 64 - 1;
    return std::pair{x & mask, (x >> 32) & mask};
  };
  if (record_filter_.empty()) {
    std::size_t bits = 4096;
    while (bits < 16 * records.size())
      bits *= 2;
    record_filter_.assign(bits / 64, 0);
    for (const auto& r : records) {
      const auto [a, b] = bits_at(hash_name(text(t_[r.name])));
      record_filter_[a / 64] |= std::uint64_t{1} << (a % 64);
      record_filter_[b / 64] |= std::uint64_t{1} << (b % 64);
    }
  }
  const auto [a, b] = bits_at(h);
  if (!(record_filter_[a / 64] >> (a % 64) & 1) || !(record_filter_[b / 64] >> (b % 64) & 1)) {
    unbound_cache_[unbound_next_++ % unbound_cache_.size()] = {h, n};
    return nullptr;
  }
  if (function_names_.empty())
    for (const auto& r : records)
      function_names_.insert(text(t_[r.name]));
  if (!function_names_.contains(n)) {
    unbound_cache_[unbound_next_++ % unbound_cache_.size()] = {h, n};
    return nullptr;
  }
  variable* v = new_variable(n);
  bind(v);
  return v;
}

std::uint32_t dsl_parser::last_binding_of(std::string_view n) {
  if (!last_binding_made_) {
    last_binding_made_ = true;
    if (function_scope_ >= 0 && static_cast<std::size_t>(function_scope_) < scan_.scopes.size())
      for (const auto& r : scan_.scopes[static_cast<std::size_t>(function_scope_)].records) {
        auto [at, fresh] = last_binding_.try_emplace(text(t_[r.name]), r.name);
        if (!fresh)
          at->second = std::max(at->second, r.name);
      }
  }
  const auto at = last_binding_.find(n);
  return at == last_binding_.end() ? no_late : at->second;
}

std::optional<std::int64_t> dsl_parser::constant(std::string_view n, std::uint64_t h) {
  if (const open_name* seen = constants_seen_.find(n, h))
    return seen->value;
  auto v = consts_.resolve(n, scope_);
  open_names_.push_back({n, v});
  constants_seen_.put(&open_names_.back());
  return v;
}

mutable_expr dsl_parser::name_node(const token& t, const resolved_name& r) {
  if (r.target)
    return comprehension_target(t, r.target - 1);
  // A lambda's parameter with a default (`lambda t=v: chip(x, t, device=3)`): what the
  // default held, whatever the caller passes instead (the analysis does not follow it).
  if (!lambda_defaults_.empty()) {
    const std::string_view n = text(t);
    for (auto it = lambda_defaults_.rbegin(); it != lambda_defaults_.rend(); ++it)
      if (it->first == n) {
        // A name's value read then (`lambda r=r:`, the loop variable as a device), else a
        // value derived from the default.
        const expression_ptr d = it->second;
        if (d->what == expression::kind::name && d->var() && !late_reads_.contains(d.get()))
          return w_.make_use(where(t), d->var());
        const expression_ptr held[] = {d};
        return opaque(static_cast<std::uint32_t>(&t - t_.data()), held);
      }
  }
  if (r.var) {
    mutable_expr use = w_.make_use(where(t), r.var);
    if (late_from_ == no_late)
      return use;
    // Read when the lambda is called or the generator iterated: a binding of the name
    // after this point, which the analysis does not see here, may be what it reads then.
    const std::string_view n = r.var->name.view();
    if (std::find(defaulted_.begin(), defaulted_.end(), n) != defaulted_.end())
      return use;
    cells_.try_emplace(n, late_reader);
    const std::uint32_t last = last_binding_of(n);
    if (last == no_late || last < late_from_)
      return use;
    const expression_ptr held[] = {use};
    expression_spec s;
    s.what = expression::kind::opaque;
    s.where = where(t);
    s.text = w_.intern(n);
    s.args = held;
    auto* late = w_.make(s);
    late_reads_.insert(late);
    return late;
  }
  const std::string_view n = text(t);
  expression_spec s;
  s.where = where(t);
  if (r.constant) {
    s.what = expression::kind::integer;
    s.value = r.value;
    s.name = w_.intern(n); // printed as its value where it is a size
  } else {
    s.what = expression::kind::name;
    s.text = w_.intern(n);
  }
  return w_.make(s);
}

mutable_expr dsl_parser::materialize(const dotted& d, const resolved_name& root) {
  mutable_expr x = name_node(t_[d.root], root);
  if (d.attrs == 0) // most dotted names are plain names
    return x;
  const source_location at = where(t_[d.root]);
  for (std::uint32_t k = 0; k < d.attrs; ++k) {
    expression_spec s;
    s.what = expression::kind::attribute;
    s.where = at;
    s.base = x;
    s.text = w_.intern(text(t_[d.attribute(k)]));
    x = w_.make(s);
  }
  return x;
}

std::string_view dsl_parser::raw_spelling(const dotted& d, std::uint32_t n) {
  spelled_.assign(text(t_[d.root]));
  for (std::uint32_t k = 0; k < n; ++k) {
    spelled_ += '.';
    spelled_ += text(t_[d.attribute(k)]);
  }
  return spelled_;
}

mutable_expr dsl_parser::parse_primary() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  mutable_expr x = nullptr;
  const token& first = peek();
  if (first.kind() == tok::name && !first.is_reserved()) {
    // A dotted name: a call of it decides whether its nodes are needed.
    next();
    dotted d{b, 0};
    while (is_op(".") && peek(1).kind() == tok::name) {
      next();
      next();
      ++d.attrs;
    }
    const resolved_name root = resolve(text(first));
    if (is_op("(")) {
      nest guard(*this, peek().begin);
      const brackets inside(*this);
      next();
      x = make_call(b, nullptr, &d, root);
    } else if (d.attrs > 0 && resolving_ && !root.var && !root.constant && loader_) {
      // `C.N_RANKS` after `import config as C`: the constant of that module.
      if (const auto v = imported_constant(d)) {
        expression_spec s;
        s.what = expression::kind::integer;
        s.where = where(first);
        s.value = *v;
        s.name = w_.intern(raw_spelling(d, d.attrs));
        x = w_.make(s);
      } else {
        x = materialize(d, root);
      }
    } else {
      x = materialize(d, root);
    }
    if (d.attrs > 0 && text(t_[d.attribute(d.attrs - 1)]) == "f_locals")
      x = frame_locals(b, x);
  } else {
    x = parse_atom();
  }
  while (true) {
    if (is_op(".")) {
      next();
      if (peek().kind() != tok::name)
        unexpected("an attribute name");
      const token& an = next();
      expression_spec s;
      s.what = expression::kind::attribute;
      s.where = where(t_[b]);
      s.text = w_.intern(text(an));
      s.base = x;
      x = w_.make(s);
      if (text(an) == "f_locals")
        x = frame_locals(b, x);
    } else if (is_op("(")) {
      nest guard(*this, peek().begin);
      const brackets inside(*this);
      next();
      x = make_call(b, x, nullptr, {});
    } else if (is_op("[")) {
      nest guard(*this, peek().begin);
      const brackets inside(*this);
      next();
      gathered<expression_ptr> items(xs_);
      while (!is_op("]")) {
        const expression_ptr e = parse_slice();
        items.push(e);
        if (!is_op(","))
          break;
        next();
      }
      expect_op("]");
      expression_spec s;
      s.what = expression::kind::subscript;
      s.where = where(t_[b]);
      s.base = x;
      s.args = items.items();
      x = w_.make(s);
    } else {
      return x;
    }
  }
}

expression_ptr dsl_parser::target_keys(std::uint32_t b, std::uint32_t e) {
  const std::size_t resume = i_;
  gathered<expression_ptr> keys(xs_);
  for (std::uint32_t k = b; k < e; ++k) {
    if (!t_[k].is_op("["))
      continue;
    i_ = k + 1;
    while (!is_op("]")) {
      keys.push(parse_slice());
      if (!is_op(","))
        break;
      next();
    }
    expect_op("]");
    k = static_cast<std::uint32_t>(i_ - 1);
  }
  expression_ptr whole;
  if (!keys.empty()) {
    auto* o = opaque(b, keys.items());
    o->set_conditional();
    whole = o;
  }
  i_ = resume;
  return whole;
}

mutable_expr dsl_parser::parse_slice() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  gathered<expression_ptr> parts(xs_);
  mutable_expr single = nullptr;
  bool slice = false;
  if (!is_op(":")) {
    single = parse_star_or_named();
    parts.push(single);
  }
  while (is_op(":")) {
    slice = true;
    next();
    if (!is_op(":") && !is_op("]") && !is_op(",")) {
      const expression_ptr e = parse_test();
      parts.push(e);
    }
  }
  if (!slice)
    return single;
  return opaque(b, parts.items());
}

mutable_expr dsl_parser::make_call(std::uint32_t b, mutable_expr callee, const dotted* d,
                                   const resolved_name& root) {
  const std::size_t open = i_ - 1;        // the call's '('
  const comprehension_scope scope(*this); // f(g(r) for r in ...)
  // A `for` at the arguments' depth makes them one generator expression, which runs late.
  const late_reading late(*this, b, shadow_.size() > scope.shadowed);
  gathered<expression_ptr> args(xs_);
  gathered<keyword_argument> keywords(ks_);
  bool unpacking = false;
  while (!is_op(")")) {
    if (peek().kind() == tok::name && is_op("=", 1) && !peek().is_reserved()) {
      const str kn = w_.intern(text(next()));
      next();
      const expression_ptr v = parse_test();
      keywords.push({kn, kn == "device" ? folded(v) : v});
    } else if (is_op("**")) {
      const std::uint32_t sb = static_cast<std::uint32_t>(i_);
      next();
      auto v = parse_test();
      const expression_ptr o = opaque(sb, {v});
      args.push(o);
      unpacking = true;
    } else {
      if (!keywords.empty() && !is_op("*"))
        fail_at(peek().begin, "positional argument follows keyword argument");
      mutable_expr v = parse_star_or_named();
      if (v->what == expression::kind::opaque && v->text().starts_with("*"))
        unpacking = true;
      if (is_name("for") || is_name("async")) // f(x for x in y)
        v = comprehension(b, v);
      args.push(v);
    }
    if (!is_op(","))
      break;
    next();
  }
  expect_op(")");

  // What the callee is: a dotted name over an open root reads from its tokens.
  const bool open_dotted = d && !root.var && !root.constant;
  const bool open_root =
      open_dotted || (callee && callee->what == expression::kind::name && !callee->var());
  std::string_view last;     // the callee's last attribute (or its name)
  bool is_attribute = false; // the callee is NAME.NAME...
  bool base_is_open_self = false;
  if (d && d->attrs > 0) {
    is_attribute = true;
    last = text(t_[d->attribute(d->attrs - 1)]);
    base_is_open_self = d->attrs == 1 && open_dotted && text(t_[d->root]) == "self";
  } else if (d) {
    last = text(t_[d->root]);
  } else if (callee->what == expression::kind::attribute) {
    is_attribute = true;
    last = callee->text();
    const expression_ptr base = callee->base();
    base_is_open_self =
        base && base->what == expression::kind::name && !base->var() && base->text() == "self";
  } else if (callee->what == expression::kind::name) {
    last = callee->text();
  }
  const auto callee_node = [&]() -> mutable_expr {
    return callee ? callee : materialize(*d, root);
  };
  const auto base_spelling = [&]() -> std::string {
    // the spelling of the attribute's object
    if (d)
      return open_dotted ? scan_.names.canonical(raw_spelling(*d, d->attrs - 1)) : std::string();
    return spelling(*callee->base());
  };
  const auto callee_spelling = [&]() -> std::string_view {
    if (d) {
      canonical_.clear();
      if (open_dotted)
        scan_.names.canonical_into(raw_spelling(*d, d->attrs), canonical_);
      return canonical_;
    }
    canonical_ = spelling(*callee);
    return canonical_;
  };

  // pl.<DTYPE>.get_byte() folds to the byte width.
  if (is_attribute && last == "get_byte" && args.empty() && keywords.empty()) {
    const std::string sp = base_spelling();
    if (sp.starts_with("pl.") && sp.find('.', 3) == std::string::npos)
      if (auto width = dtype_byte_width(std::string_view(sp).substr(3))) {
        expression_spec k;
        k.what = expression::kind::integer;
        k.where = where(t_[b]);
        k.value = width;
        return w_.make(k);
      }
  }
  expression_spec s;
  s.where = where(t_[b]);
  s.args = args.items();
  s.keywords = keywords.items();
  // self.NAME(...) of a function of the program, or with device= (docs/commscope-opt.md,
  // "Expressions and operations": a device= call of anything else is malformed-op); a
  // call of any other method is opaque.
  if (loader_ && jit_ && !unpacking && open_root && !last.empty() && (d || !is_attribute) &&
      !scan_.imports.empty())
    if (auto* e = imported_call(s, d, last, is_attribute, has_device_keyword(keywords.items())))
      return e;
  const bool method_call = !unpacking && !jit_ && is_attribute && base_is_open_self;
  const bool jit_call = !unpacking && jit_ && !is_attribute && open_root && !last.empty();
  // A dispatch whose arguments are unpacked (`chip(*views, device=r)`) is no dispatch the
  // analysis can read: a view among them is view-escapes, which the driver words so.
  if (unpacking && has_device_keyword(keywords.items()))
    unit_->unpacked_dispatches.push_back(s.where);
  if ((method_call || jit_call) &&
      (signatures_.find(last) || has_device_keyword(keywords.items()) ||
       (jit_call && enclosing_function(last)))) {
    s.what = expression::kind::function_call;
    s.text = w_.intern(last);
    auto* e = w_.make(s);
    pending_calls_.emplace_back(e, s.text.view());
    note_open_device_names(*e);
    return e;
  }
  const std::string_view sp = names_an_operation(last) || scan_.names.renames(last)
                                  ? callee_spelling()
                                  : std::string_view();
  const auto op = operation_of_spelling(sp);
  if (op == commscope::operation::none && last == "alloc_window_buffer") {
    // An allocation the front end cannot tell for the DSL's (a module reached through a
    // value, a helper of that name): its window would go unchecked, with no diagnostic.
    const std::string spelled = d ? std::string(raw_spelling(*d, d->attrs)) : raw_spelling(*callee);
    front_end_diagnostic fd;
    fd.code = "malformed-op";
    fd.where = s.where;
    fd.message = "cannot read '" + spelled +
                 "(...)' as the DSL's pld.alloc_window_buffer: the allocation it may make "
                 "would go unchecked";
    fd.help = "call it through a name that the file binds to the DSL's module by an import "
              "('import pypto.language.distributed as pld', then 'pld.alloc_window_buffer(...)')";
    unit_->diagnostics.push_back(std::move(fd));
  }
  if (op != commscope::operation::none && !unpacking) {
    s.what = expression::kind::operation;
    s.op = op;
    s.text = w_.intern(d ? raw_spelling(*d, d->attrs) : std::string_view(raw_spelling(*callee)));
    if (op == commscope::operation::alloc_window_buffer) {
      s.name = w_.intern(sp);
      for (const auto& k : keywords.items())
        if (k.name == "name" && k.value->what == expression::kind::string)
          s.name = k.value->text();
      auto* e = w_.make(s);
      shape_allocation(*e); // reported when it fails; an ordinary call from then on
      return e;
    }
    return w_.make(s);
  }
  // Python's builtins that hand back what they are given, repacked (`enumerate(views)`,
  // `zip(xs, ys)`, `list(views)`): their value may hold the views of their operands, as
  // a tuple's does, and they do nothing else with them. Unpacked operands stay a call.
  if (open_root && !is_attribute && !unpacking && repacks(last) && is_builtin(last)) {
    std::vector<expression_ptr> operands(args.items().begin(), args.items().end());
    for (const auto& k : keywords.items())
      operands.push_back(k.value);
    return opaque(b, operands);
  }
  s.what = expression::kind::call;
  s.base = callee_node();
  // A callee of no name as the file spells it, for messages: cut short where it is long,
  // since a chain of calls (`f()()()...`, `f[0]()[0]()...`) spells each of its callees,
  // which in full would grow with the square of the chain.
  const auto spelled_callee = [&] {
    const std::string_view spelled = ts_.source.substr(t_[b].begin, t_[open].begin - t_[b].begin);
    constexpr std::size_t longest = 80;
    if (spelled.size() <= longest)
      return w_.intern(spelled);
    std::size_t cut = longest - 3;
    while (cut > 0 && (static_cast<unsigned char>(spelled[cut]) & 0xc0) == 0x80)
      --cut; // not inside a character
    std::string shortened(spelled.substr(0, cut));
    shortened += "...";
    return w_.intern(shortened);
  };
  // A callee handed over as a value the front end does not read, named as the messages
  // call it: a read-only builtin's name that the file binds itself (`from rich import
  // print`), whose call is that function's, which the IR's traits would take for Python's
  // builtin by its bare name; and a callee of no name (`KERNELS["a"](...)`), by its
  // spelling, read as it stands.
  const bool shadowed =
      open_root && !is_attribute && !unpacking && reads_only(last) && !is_builtin(last);
  if (shadowed || (callee && callee->what == expression::kind::subscript)) {
    expression_spec c;
    c.what = expression::kind::opaque;
    c.where = s.where;
    c.text = shadowed ? w_.intern(last) : spelled_callee();
    const expression_ptr read[] = {s.base};
    if (!shadowed)
      c.args = read;
    s.base = w_.make(c);
  }
  // A callee that a call makes (`functools.partial(f, x)(...)`, `make(3)(...)`) keeps its
  // shape, and the call its spelling.
  if (callee && callee->what == expression::kind::call)
    s.text = spelled_callee();
  // Making the callee may parse again (a comprehension's targets), which grows the stacks
  // the arguments lie on and may move them: their spans are taken again after it.
  s.args = args.items();
  s.keywords = keywords.items();
  auto* call = w_.make(s);
  // A function the front end does not know may raise, in some worlds and not in others
  // (`pytest.skip()` under `if pld.world_size() < 2:`, a helper that checks the world).
  // Python's own builtins, unless the file binds their names, and the DSL's do not care.
  const auto dsl_function = [&] {
    const std::string_view c = callee_spelling();
    return (c.starts_with("pl.") || c.starts_with("pld.")) &&
           !scan_.names.foreign(text(t_[d->root]));
  };
  const bool known =
      !unpacking && open_root && (is_attribute ? open_dotted && dsl_function() : is_builtin(last));
  if (!known)
    ++may_stop_;
  if (open_dotted && is_attribute && !base_is_open_self)
    unit_->dotted_calls.push_back(
        {s.where, std::string(raw_spelling(*d, d->attrs)), library_function(*d)});
  // Python's builtins that reach the function's variables by name (`locals()["v"]`,
  // `eval("v")`, `exec("chip(v, device=3)")`): any of them may use any of its views
  // anywhere, so the call stands for a read of every name the function binds, and
  // escapes with them.
  // So do the frames' (`inspect.currentframe().f_locals`, `sys._getframe().f_locals`).
  // A file that reaches frames otherwise (an alias `gf = sys._getframe`, `inspect` imported
  // in the function, `inspect.stack()`) may do it through any call of a function the front
  // end does not know.
  mutable_expr result = call;
  if ((open_root && !is_attribute && !unpacking &&
       (last == "eval" || last == "exec" || last == "locals" ||
        (last == "vars" && args.empty() && keywords.empty()))) ||
      last == "currentframe" || last == "_getframe" || (!known && frames_reachable()))
    result = with_every_local(b, call);
  // A method of a value the host holds keeps its object to itself, except from a function
  // it is given (`views.sort(key=lambda t: ...)`, `v.register_hook(hook)`), which it may
  // call with it: the pass does not follow that call, so the object escapes there.
  if (is_attribute && !open_dotted && !unpacking)
    if (std::string f = program_function_among(open + 1, i_ - 1); !f.empty()) {
      const std::string_view method = ts_.source.substr(t_[b].begin, t_[open].begin - t_[b].begin);
      unit_->callback_methods.push_back({s.where, std::string(method), std::move(f)});
      result = store_of(s.where, method, expression_ptr(result));
    }
  return result;
}

bool dsl_parser::is_builtin(std::string_view name) {
  std::string key = std::to_string(function_scope_);
  key += ':';
  key += name;
  if (const auto it = builtins_seen_.find(key); it != builtins_seen_.end())
    return it->second;
  // A star import of a module other than the DSL's may bind the name: a library's (`from
  // rich import *` binds print), one the front end cannot read, or one that exports it.
  std::vector<std::string> searched;
  for (const auto& [module, level] : scan_.star_modules)
    if (!loader_ || !loader_->find(importer_, module, level, searched) ||
        loader_->star_may_bind(importer_, module, level, name)) {
      builtins_seen_.emplace(std::move(key), false);
      return false;
    }
  // Class bodies on the way out count too, though Python skips them: wrongly taken as
  // bound, a builtin's call only stays a call the pass does not follow.
  const bool bound = binding_scope(function_scope_ < 0 ? 0 : function_scope_, name, false) >= 0;
  builtins_seen_.emplace(std::move(key), !bound);
  return !bound;
}

bool reaches_frames(const token_stream& ts) {
  const auto& t = ts.tokens;
  const auto text = [&](std::size_t k) { return ts.text(t[k]); };
  bool from_inspect = false; // in a `from inspect import ...` statement
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (t[k].kind() == tok::newline || t[k].is_op(";"))
      from_inspect = false;
    if (t[k].kind() != tok::name)
      continue;
    const std::string_view n = text(k);
    // Most tokens are none of these: their lengths tell first.
    if (n.size() < 4 || n.size() > 14)
      continue;
    const bool attribute = k > 0 && t[k - 1].is_op(".");
    const bool called = k + 1 < t.size() && t[k + 1].is_op("(");
    if (n == "from" && k + 1 < t.size() && text(k + 1) == "inspect")
      from_inspect = true;
    if (n == "f_locals" && k > 1 && attribute && t[k - 2].is_op(")")) {
      // Of `currentframe()` or `_getframe(...)` called by that name: read where it is.
      int depth = 0;
      std::size_t open = k - 2;
      for (; open > 0; --open) {
        if (t[open].kind() == tok::op)
          depth += bracket_nesting(t[open].flags());
        if (depth == 0)
          break;
      }
      if (open > 0 && (text(open - 1) == "currentframe" || text(open - 1) == "_getframe"))
        continue;
    }
    if (n == "f_locals" || n == "tb_frame" || n == "gi_frame" || n == "cr_frame" ||
        n == "ag_frame" || n == "f_back" || n == "getouterframes" || n == "getinnerframes")
      return true;
    if ((n == "_getframe" || n == "currentframe") && !called)
      return true;
    if ((n == "stack" || n == "trace") &&
        (from_inspect || (attribute && k > 1 && text(k - 2) == "inspect")))
      return true;
    if ((n == "locals" || n == "vars" || n == "eval" || n == "exec") &&
        (attribute ? k > 1 && (text(k - 2) == "builtins" || text(k - 2) == "__builtins__")
                   : !called && !(k > 0 && t[k - 1].is_keyword("def"))))
      return true;
  }
  return false;
}

mutable_expr dsl_parser::frame_locals(std::uint32_t b, mutable_expr x) {
  // A frame's names (`e.__traceback__.tb_frame.f_locals`), as locals() gives them; those
  // of a call that gave them already (`sys._getframe().f_locals`) once.
  const expression_ptr base = x->base();
  if (base && base->what == expression::kind::opaque && base->store())
    return x;
  return with_every_local(b, x);
}

mutable_expr dsl_parser::with_every_local(std::uint32_t b, mutable_expr x) {
  auto reads = every_local(t_[b].begin);
  if (reads.empty())
    return x;
  reads.insert(reads.begin(), expression_ptr(x));
  auto* whole = opaque(b, reads);
  whole->set_store();
  return whole;
}

bool dsl_parser::frames_reachable() {
  auto& known = frames_ ? *frames_ : frames_reachable_;
  if (!known)
    known = reaches_frames(ts_);
  return *known;
}

std::vector<expression_ptr> dsl_parser::every_local(std::uint32_t at) {
  std::vector<expression_ptr> reads;
  if (function_scope_ < 0 || static_cast<std::size_t>(function_scope_) >= scan_.scopes.size())
    return reads;
  const auto& records = scan_.scopes[static_cast<std::size_t>(function_scope_)].records;
  // Each such call reads every name: many of them in a function of many names would
  // make that many reads (a file of them, quadratic work): refused past a bound no
  // program written by hand comes near.
  dynamic_reads_ += records.size();
  if (dynamic_reads_ > dynamic_read_limit)
    fail_at(at, "too many calls of locals(), vars(), eval or exec for the names this function "
                "binds: each reads them all");
  std::unordered_set<const variable*> seen;
  for (const auto& r : records) {
    const std::string_view n = text(t_[r.name]);
    if (const variable* v = local_variable(n, hash_name(n)); v && seen.insert(v).second)
      reads.emplace_back(w_.make_use(where(t_[r.name]), variable_ptr(v)));
  }
  return reads;
}

} // namespace commscope::frontend::detail
