// The DSL parser: atoms (literals, displays, comprehensions, parenthesized forms).
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

void dsl_parser::shadow_comprehension_targets() {
  int depth = 0;
  bool targets = false;
  std::size_t clause = shadow_.size();               // the first target of the current `for` clause
  auto visible = static_cast<std::uint32_t>(clause); // what its iterable sees
  std::uint32_t iterable = 0;                        // where it begins (0: not in one)
  // The current clause's iterable ends at token k: its targets take their items from it.
  const auto end_iterable = [&](std::size_t k) {
    if (iterable == 0)
      return;
    for (std::size_t j = clause; j < shadow_sources_.size(); ++j)
      shadow_sources_[j] = {iterable, static_cast<std::uint32_t>(k), visible};
    iterable = 0;
  };
  std::size_t k = i_;
  for (; k < t_.size(); ++k) {
    const token& x = t_[k];
    if (x.kind() == tok::end)
      break;
    if (x.kind() == tok::op) {
      if ((depth += bracket_nesting(x.flags())) < 0)
        break; // the brackets' end
    } else if (depth == 0 && x.kind() == tok::name) {
      if (x.is_keyword("for") || x.is_keyword("async") || x.is_keyword("if")) {
        end_iterable(k);
        if (x.is_keyword("for")) {
          targets = true;
          // The first clause's iterable is read in the enclosing scope; a later one's
          // sees the targets of the clauses before it.
          visible = static_cast<std::uint32_t>(shadow_.size());
          clause = shadow_.size();
        }
      } else if (x.is_keyword("in") && targets) {
        targets = false;
        iterable = static_cast<std::uint32_t>(k + 1);
      } else if (targets && !x.is_reserved()) {
        shadow(text(x));
      }
    } else if (targets && x.kind() == tok::name && !x.is_reserved()) {
      shadow(text(x)); // `for (a, b) in ...`
    }
  }
  end_iterable(k);
}

mutable_expr dsl_parser::comprehension_target(const token& t, std::size_t k) {
  gathered<expression_ptr> ops(xs_);
  expression_spec named;
  named.what = expression::kind::name;
  named.where = where(t);
  named.text = w_.intern(text(t));
  ops.push(w_.make(named));
  // The variables the iterable reads, through the targets of enclosing clauses (each
  // reads only names shadowed before it: the walk ends), on an explicit stack.
  std::vector<std::size_t> todo{k};
  std::vector<std::size_t> seen;
  while (!todo.empty()) {
    const shadow_source from = shadow_sources_[todo.back()];
    todo.pop_back();
    for (std::uint32_t j = from.begin; j < from.end && j < t_.size(); ++j) {
      const token& x = t_[j];
      if (x.kind() != tok::name || x.is_reserved() || (j > 0 && t_[j - 1].is_op(".")) ||
          (j + 1 < t_.size() && t_[j + 1].is_op("=")))
        continue; // an attribute, a keyword argument's name
      const std::string_view n = text(x);
      bool shadowed = false;
      for (std::size_t s = from.visible; s-- > 0;)
        if (shadow_[s] == n) {
          shadowed = true;
          if (shadow_sources_[s].end > shadow_sources_[s].begin &&
              std::find(seen.begin(), seen.end(), s) == seen.end()) {
            seen.push_back(s);
            todo.push_back(s);
          }
          break;
        }
      if (shadowed)
        continue;
      if (const variable* v = local_variable(n, hash_name(n)))
        ops.push(w_.make_use(where(x), v));
    }
  }
  expression_spec s;
  s.what = expression::kind::opaque;
  s.where = where(t);
  s.text = w_.intern(text(t));
  s.args = ops.items();
  return w_.make(s);
}

mutable_expr dsl_parser::comprehension(std::uint32_t b, const expression_ptr& element) {
  gathered<expression_ptr> ops(xs_);
  ops.push(element);
  // Its targets are shadowed already, for the whole brackets (comprehension_scope).
  while (is_name("for") || is_name("async")) {
    if (is_name("async"))
      next();
    next();
    // targets up to `in`
    while (!is_name("in")) {
      if (peek().kind() == tok::newline || peek().kind() == tok::end)
        unexpected("'in'");
      next();
    }
    next();
    const bool saved = no_conditional_;
    no_conditional_ = true;
    // A generator's first iterable is read where it stands; the rest runs when iterated.
    const std::uint32_t late = late_from_;
    if (ops.items().size() == 1 && late_from_ == b)
      late_from_ = no_late;
    const expression_ptr it = parse_or();
    late_from_ = late;
    ops.push(it);
    while (is_name("if")) {
      next();
      const expression_ptr c = parse_or();
      ops.push(c);
    }
    no_conditional_ = saved;
  }
  auto r = opaque(b, ops.items());
  r->set_conditional(); // its element runs once per item, if any
  return r;
}

mutable_expr dsl_parser::parse_atom() {
  const token& t = peek();
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  switch (t.kind()) {
  case tok::name: {
    next();
    const std::string_view n = text(t);
    if (n == "True" || n == "False") {
      expression_spec s;
      s.what = expression::kind::boolean;
      s.where = where(t);
      s.value = n == "True";
      return w_.make(s);
    }
    if (n == "None")
      return leaf(expression::kind::none, where(t));
    if (t.is_reserved())
      fail_at(t.begin, "invalid syntax: unexpected '" + std::string(n) + "'");
    return name_node(t, resolve(n));
  }
  case tok::number: {
    next();
    return number(t);
  }
  case tok::string: {
    bool plain = true;
    scratch_.clear();
    while (peek().kind() == tok::string) {
      const token& s = next();
      if (!string_value(text(s), s.flags(), scratch_))
        plain = false;
    }
    if (!plain)
      return formatted_string(b);
    expression_spec s;
    s.what = expression::kind::string;
    s.where = where(t);
    s.text = w_.string(scratch_);
    return w_.make(s);
  }
  case tok::op: {
    if (t.is_op("...")) {
      next();
      return opaque(b, {});
    }
    if (t.is_op("(") || t.is_op("[") || t.is_op("{")) {
      nest guard(*this, t.begin);
      const brackets inside(*this);
      const std::uint8_t o = t.flags();
      next();
      return o == '(' ? parenthesized(b) : o == '[' ? list_display(b) : brace_display(b);
    }
    break;
  }
  default:
    break;
  }
  unexpected("an expression");
}

mutable_expr dsl_parser::formatted_string(std::uint32_t b) {
  // Formatting a value only reads it, and the string made holds no view: fields without
  // a call make a plain value. A call in a field may do anything with what it is given,
  // a dispatch included: then the string is an escape of every variable its fields read.
  std::vector<formatted_reads> strings;
  bool may_call = false;
  for (auto k = b; k < i_; ++k)
    if (t_[k].flags() & string_formatted) {
      strings.push_back(formatted_fields(text(t_[k])));
      may_call = may_call || strings.back().may_call;
    }
  if (!may_call)
    return opaque(b, {});
  std::vector<expression_ptr> reads;
  std::unordered_set<const variable*> seen;
  for (const auto& fields : strings)
    for (const std::string_view n : fields.names)
      if (const variable* v = local_variable(n, hash_name(n)); v && seen.insert(v).second)
        reads.emplace_back(w_.make_use(where(t_[b]), variable_ptr(v)));
  auto made = opaque(b, reads);
  if (!reads.empty())
    made->set_store();
  return made;
}

mutable_expr dsl_parser::parenthesized(std::uint32_t b) {
  const comprehension_scope scope(*this);
  // A generator expression (its targets are shadowed now) runs when it is iterated.
  const late_reading late(*this, b, shadow_.size() > scope.shadowed);
  if (is_op(")")) {
    next();
    return leaf(expression::kind::tuple, where(t_[b]));
  }
  if (is_name("yield")) {
    auto y = parse_yield();
    expect_op(")");
    return opaque(b, {y});
  }
  mutable_expr first = parse_star_or_named();
  if (is_name("for") || is_name("async")) {
    auto g = comprehension(b, first);
    expect_op(")");
    return opaque(b, {g});
  }
  if (is_op(")")) {
    next();
    if (first->what == expression::kind::opaque && first->text().starts_with("*"))
      unexpected("a value"); // `(*x)` alone
    return first;            // parentheses only group
  }
  gathered<expression_ptr> items(xs_);
  items.push(first);
  while (is_op(",")) {
    next();
    if (is_op(")"))
      break;
    const expression_ptr x = parse_star_or_named();
    items.push(x);
  }
  expect_op(")");
  expression_spec s;
  s.what = expression::kind::tuple;
  s.where = where(t_[b]);
  s.args = items.items();
  return w_.make(s);
}

mutable_expr dsl_parser::list_display(std::uint32_t b) {
  const comprehension_scope scope(*this);
  gathered<expression_ptr> items(xs_);
  while (!is_op("]")) {
    mutable_expr x = parse_star_or_named();
    if (is_name("for") || is_name("async")) {
      auto c = comprehension(b, x);
      expect_op("]");
      return opaque(b, {c});
    }
    items.push(x);
    if (!is_op(","))
      break;
    next();
  }
  expect_op("]");
  expression_spec s;
  s.what = expression::kind::list;
  s.where = where(t_[b]);
  s.args = items.items();
  return w_.make(s);
}

mutable_expr dsl_parser::brace_display(std::uint32_t b) {
  const comprehension_scope scope(*this);
  gathered<expression_ptr> parts(xs_);
  while (!is_op("}")) {
    if (is_op("**")) {
      next();
      const expression_ptr x = parse_binary(5);
      parts.push(x);
    } else {
      const expression_ptr x = parse_star_or_named();
      parts.push(x);
      if (is_op(":")) {
        next();
        const expression_ptr v = parse_test();
        parts.push(v);
      }
    }
    if (is_name("for") || is_name("async")) {
      const expression_ptr element = parts.stack.back();
      parts.stack.pop_back();
      const expression_ptr c = comprehension(b, element);
      parts.push(c);
      break;
    }
    if (!is_op(","))
      break;
    next();
  }
  expect_op("}");
  return opaque(b, parts.items());
}

mutable_expr dsl_parser::number(const token& t) {
  const std::string_view s = text(t);
  if (auto v = constants::integer_literal(s))
    return w_.make_value(expression::kind::integer, where(t), *v);
  expression_spec n;
  n.what = expression::kind::integer;
  n.where = where(t);
  // An integer beyond int64 (saturated, as far above every limit as it is), or a
  // float / imaginary literal (opaque).
  const bool integral = s.find_first_of(".eEjJ") == std::string_view::npos ||
                        (s.size() > 1 && (s[1] == 'x' || s[1] == 'X'));
  if (integral) {
    n.overflow = true;
    n.value = std::numeric_limits<std::int64_t>::max();
    n.text = w_.string(s);
    return w_.make(n);
  }
  last_end_ = ts_.end(t);
  return opaque(static_cast<std::uint32_t>(&t - t_.data()), {});
}

} // namespace commscope::frontend::detail
