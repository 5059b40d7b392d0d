// What a function may return of its arguments, from its tokens: names that meet in one
// statement may hold each other (`y = pl.store(t, [0, 0], y)`, `lst.append(x)`,
// `return x`), flow-insensitively, so every path and every order of statements is
// covered. Two kinds of call keep their arguments apart: the DSL's operations that make a
// new value of what they read (`pl.load(x, ...)`), and a call of another function of the
// DSL in the module, whose arguments meet the statement only where it may return them.
#include "returned_parameters.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>

namespace commscope::frontend::detail {

namespace {

using namespace std::string_view_literals;

/// The DSL's operations whose value is a new tile or tensor, never (a view of) an argument.
constexpr std::array fresh_operations = {"pl.load"sv,   "pl.add"sv,          "pl.sub"sv,
                                         "pl.mul"sv,    "pl.div"sv,          "pl.exp"sv,
                                         "pl.matmul"sv, "pl.create_tensor"sv};

/// `=` or an augmented assignment.
bool assigns(const token& k) {
  return k.is_op("=") || k.is_op("+=") || k.is_op("-=") || k.is_op("*=") || k.is_op("/=") ||
         k.is_op("//=") || k.is_op("%=") || k.is_op("@=") || k.is_op("&=") || k.is_op("|=") ||
         k.is_op("^=") || k.is_op(">>=") || k.is_op("<<=") || k.is_op("**=");
}

/// A function of the DSL: a chip orchestrator, a kernel, a program's function. Their
/// arguments are tensors, so such a call puts none of them into another (a helper of the
/// file may: `put(lst, w)` appending w to lst), and it is judged by its own answer.
bool is_dsl_function(const definition& d) {
  using r = definition::dsl;
  return !d.is_class && (d.role == r::jit_chip || d.role == r::jit_kernel || d.role == r::method);
}

/// Union-find over the function's local names.
class groups {
public:
  std::uint32_t add() {
    parent_.push_back(static_cast<std::uint32_t>(parent_.size()));
    return parent_.back();
  }
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x)
      x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void unite(std::uint32_t a, std::uint32_t b) { parent_[find(a)] = find(b); }

private:
  std::vector<std::uint32_t> parent_;
};

} // namespace

returned_parameter_table::returned_parameter_table(const token_stream& ts, const module_scan& scan)
    : ts_(ts), scan_(scan), table_(scan.definitions.size()),
      variadic_(scan.definitions.size(), false), state_(scan.definitions.size(), 0) {
  for (std::uint32_t d = 0; d < scan.definitions.size(); ++d) {
    if (!is_dsl_function(scan.definitions[d]))
      continue;
    by_name_.emplace(ts.text(ts.tokens[scan.definitions[d].name]), d);
    parameters(d);
    if (!variadic_[d])
      table_[d].mask = 0; // grows to the fixed point from below
  }
}

const returned_parameters& returned_parameter_table::of(std::uint32_t d) {
  if (variadic_[d] || !is_dsl_function(scan_.definitions[d]) || state_[d] == done)
    return table_[d];
  // d and the functions it calls, found as their bodies are read (a host orchestrator
  // no chip calls is never read). Each round reads the callees' answers of the last:
  // answers only grow, so the rounds end; past 64 of them (a long chain of calls) every
  // answer is taken as any argument.
  closure_.assign(1, d);
  state_[d] = pending;
  for (int round = 0;; ++round) {
    const std::size_t known = closure_.size();
    bool changed = false;
    for (std::size_t k = 0; k < closure_.size(); ++k)
      changed = evaluate(closure_[k]) || changed;
    if (!changed && closure_.size() == known)
      break;
    if (round == 64) {
      for (const auto c : closure_)
        table_[c].mask = ~std::uint64_t{0};
      break;
    }
  }
  for (const auto c : closure_)
    state_[c] = done;
  return table_[d];
}

void returned_parameter_table::parameters(std::uint32_t d) {
  const auto& def = scan_.definitions[d];
  const auto& t = ts_.tokens;
  std::uint32_t i = def.keyword + 2; // `def NAME (`
  if (i >= def.colon || !t[i].is_op("(")) {
    variadic_[d] = true;
    return;
  }
  // A method's receiver is no argument of its calls (`self.f(x)`), unless it is static.
  bool skip = takes_receiver(ts_, scan_.scopes, def);
  int depth = 0;
  bool at_start = true;
  for (++i; i < def.colon; ++i) {
    const token& k = t[i];
    if (k.kind() == tok::op) {
      if (depth == 0 && k.is_op(")"))
        return;
      depth += bracket_nesting(k.flags());
      if (depth == 0 && k.is_op(",")) {
        at_start = true;
        continue;
      }
      if (depth == 0 && at_start && (k.is_op("*") || k.is_op("**"))) {
        if (i + 1 < def.colon && t[i + 1].kind() == tok::name)
          variadic_[d] = true; // *args, **kwargs (a bare `*` only marks keywords)
        at_start = false;
      }
      continue;
    }
    if (depth == 0 && at_start && k.kind() == tok::name) {
      at_start = false;
      if (skip) {
        skip = false;
        continue;
      }
      table_[d].names.push_back(ts_.text(k));
    }
  }
  variadic_[d] = true; // no closing parenthesis: nothing is known
}

template <class F>
std::uint32_t returned_parameter_table::split_arguments(std::uint32_t open, std::uint32_t end,
                                                        const returned_parameters* answer,
                                                        F&& argument) const {
  const auto& t = ts_.tokens;
  std::uint32_t position = 0, arg = open + 1;
  int level = 0;
  for (std::uint32_t a = open + 1; a < end; ++a) {
    const token& x = t[a];
    if (x.kind() != tok::op)
      continue;
    const bool closes = level == 0 && x.is_op(")");
    if (!closes && !(level == 0 && x.is_op(","))) {
      level += bracket_nesting(x.flags());
      continue;
    }
    if (arg < a) {
      std::uint64_t bit = 0; // which parameter it is passed for
      std::uint32_t value = arg;
      if (t[arg].is_op("*") || t[arg].is_op("**")) {
        bit = ~std::uint64_t{0};
      } else if (t[arg].kind() == tok::name && arg + 1 < a && t[arg + 1].is_op("=")) {
        const auto& names = answer ? answer->names : std::vector<std::string_view>{};
        const auto at = std::find(names.begin(), names.end(), ts_.text(t[arg]));
        bit = at == names.end()
                  ? ~std::uint64_t{0}
                  : std::uint64_t{1} << std::min<std::ptrdiff_t>(at - names.begin(), 63);
        value = arg + 2;
      } else {
        bit = std::uint64_t{1} << std::min<std::uint32_t>(position++, 63);
      }
      if (value < a)
        argument(value, a, answer && (answer->mask & bit) != 0);
    }
    arg = a + 1;
    if (closes)
      return a;
  }
  return end;
}

std::int32_t returned_parameter_table::callee(std::uint32_t d, std::uint32_t b,
                                              std::uint32_t e) const {
  const auto& t = ts_.tokens;
  const auto& def = scan_.definitions[d];
  std::string_view name;
  bool method = false;
  if (e == b + 1) {
    name = ts_.text(t[b]);
  } else if (e == b + 3 && ts_.text(t[b]) == "self"sv && t[b + 1].is_op(".")) {
    name = ts_.text(t[b + 2]);
    method = true;
  } else {
    return -1;
  }
  // A method of the same class through self; else a function of the module or of the
  // scope the caller is defined in. Two of one name: which one runs is not read here.
  std::int32_t found = -1;
  for (auto [it, end] = by_name_.equal_range(name); it != end; ++it) {
    const auto& cd = scan_.definitions[it->second];
    if (method ? cd.scope == def.scope : (cd.scope == 0 || cd.scope == def.scope)) {
      if (found >= 0)
        return -1;
      found = static_cast<std::int32_t>(it->second);
    }
  }
  return found;
}

bool returned_parameter_table::evaluate(std::uint32_t d) {
  const auto& def = scan_.definitions[d];
  const auto& t = ts_.tokens;
  const std::uint32_t body_end = std::min<std::uint32_t>(def.body_end + (def.inline_body ? 1 : 0),
                                                         static_cast<std::uint32_t>(t.size()));
  groups g;
  std::unordered_map<std::string_view, std::uint32_t> locals;
  const auto local = [&](std::string_view n) {
    const auto [it, added] = locals.try_emplace(n, 0);
    if (added)
      it->second = g.add();
    return it->second;
  };
  for (const auto n : table_[d].names)
    (void)local(n);
  // A body that reaches its names other than by spelling them (`locals()["v"]`,
  // `eval("v")`, a frame's f_locals, `global`/`nonlocal`), or through an exception it
  // raises and catches (`raise KeyError(v)` ... `except KeyError as e: return e.args[0]`),
  // may return any argument.
  for (std::uint32_t i = def.body_begin; i < body_end; ++i) {
    const token& k = t[i];
    if (k.is_keyword(keyword_id{"global"}) || k.is_keyword(keyword_id{"nonlocal"}) ||
        k.is_keyword(keyword_id{"except"}))
      return set_mask(d, ~std::uint64_t{0});
    if (k.kind() != tok::name || k.is_reserved())
      continue;
    const std::string_view n = ts_.text(k);
    if (n == "locals" || n == "vars" || n == "eval" || n == "exec" || n == "globals" ||
        n == "_getframe" || n == "currentframe" || n == "f_locals")
      return set_mask(d, ~std::uint64_t{0});
  }

  // The statements of the body: split at NEWLINE and at `;` outside brackets.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> statements;
  {
    int depth = 0;
    std::uint32_t start = def.body_begin;
    for (std::uint32_t i = def.body_begin; i < body_end; ++i) {
      const token& k = t[i];
      if (k.kind() == tok::op)
        depth += bracket_nesting(k.flags());
      const bool ends = k.kind() == tok::newline || (depth == 0 && k.is_op(";"));
      if (k.kind() == tok::indent || k.kind() == tok::dedent || ends) {
        if (start < i)
          statements.emplace_back(start, i);
        start = i + 1;
      }
    }
    if (start < body_end)
      statements.emplace_back(start, body_end);
  }

  // The header of a compound statement that starts with the soft keyword `kw` (`match
  // x:`, `case [a, b]:`): the index of its `:`, else 0 (`match = 3` is an assignment).
  const auto header_colon = [&](std::uint32_t b, std::uint32_t e, keyword_id kw) {
    if (b + 1 >= e || !t[b].is_keyword(kw) || t[b + 1].is_op("=") || t[b + 1].is_op("."))
      return std::uint32_t{0};
    int depth = 0;
    for (std::uint32_t i = b + 1; i < e; ++i)
      if (t[i].kind() == tok::op) {
        if (depth == 0 && t[i].is_op(":"))
          return i;
        depth += bracket_nesting(t[i].flags());
      }
    return std::uint32_t{0};
  };
  // The names a `case` pattern captures (`case [a, *rest]:`, `case P(x=a)`): no name of
  // a value pattern (`pl.FP32`), a class (`P(`) or a keyword (`x=`).
  const auto for_each_capture = [&](std::uint32_t b, std::uint32_t colon, auto&& bind) {
    for (std::uint32_t i = b + 1; i < colon; ++i)
      if (t[i].kind() == tok::name && !t[i].is_reserved() && !t[i - 1].is_op(".") &&
          !(t[i + 1].is_op(".") || t[i + 1].is_op("(") || t[i + 1].is_op("=")))
        bind(ts_.text(t[i]));
  };

  // The names the body binds (targets of `=`, augmented assignments, `for`, `as`, `:=`,
  // `def`, `class`, a nested def's parameters, a `case` pattern's captures): only those
  // and the parameters may carry an argument; any other name is the module's.
  for (const auto& [b, e] : statements) {
    int depth = 0;
    std::uint32_t last_assign = UINT32_MAX;
    if (const auto colon = header_colon(b, e, keyword_id{"case"}))
      for_each_capture(b, colon, [&](std::string_view n) { (void)local(n); });
    std::uint32_t def = t[b].is_keyword(keyword_id{"async"}) ? b + 1 : b;
    if (def + 1 < e &&
        (t[def].is_keyword(keyword_id{"def"}) || t[def].is_keyword(keyword_id{"class"})) &&
        t[def + 1].kind() == tok::name) {
      (void)local(ts_.text(t[def + 1])); // `def inner(t=data)`: inner may hand back data
      if (t[def].is_keyword(keyword_id{"def"}) && def + 2 < e && t[def + 2].is_op("(")) {
        bool at_start = true;
        int level = 0;
        for (std::uint32_t i = def + 3; i < e; ++i) {
          if (t[i].kind() == tok::op) {
            if (level == 0 && t[i].is_op(")"))
              break;
            level += bracket_nesting(t[i].flags());
            at_start = at_start || (level == 0 && t[i].is_op(","));
            continue;
          }
          if (level == 0 && at_start && t[i].kind() == tok::name && !t[i].is_reserved())
            (void)local(ts_.text(t[i]));
          at_start = false;
        }
      }
    }
    for (std::uint32_t i = b; i < e; ++i) {
      const token& k = t[i];
      if (k.kind() == tok::op) {
        depth += bracket_nesting(k.flags());
        if (depth == 0 && assigns(k))
          last_assign = i;
        if (k.is_op(":=") && i > b && t[i - 1].kind() == tok::name)
          (void)local(ts_.text(t[i - 1]));
        continue;
      }
      if (k.is_keyword(keyword_id{"as"}) && i + 1 < e && t[i + 1].kind() == tok::name)
        (void)local(ts_.text(t[i + 1]));
      // `as (t, u)`: each name in the brackets.
      if (k.is_keyword(keyword_id{"as"}) && i + 1 < e &&
          (t[i + 1].is_op("(") || t[i + 1].is_op("["))) {
        int level = 0;
        for (std::uint32_t j = i + 1; j < e; ++j) {
          if (t[j].kind() == tok::op) {
            level += bracket_nesting(t[j].flags());
            if (level == 0)
              break;
          } else if (t[j].kind() == tok::name && !t[j].is_reserved() && !t[j - 1].is_op(".")) {
            (void)local(ts_.text(t[j]));
          }
        }
      }
      if (k.is_keyword(keyword_id{"for"})) {
        std::uint32_t in = i + 1;
        while (in < e && !t[in].is_keyword(keyword_id{"in"}))
          ++in;
        for_each_target_name(ts_, i + 1, in, [&](std::uint32_t n) { (void)local(ts_.text(t[n])); });
      }
    }
    if (last_assign != UINT32_MAX)
      for_each_target_name(ts_, b, last_assign,
                           [&](std::uint32_t n) { (void)local(ts_.text(t[n])); });
    // A module's object the body stores into (`STASH.append(v)`, `CACHE[k] = v`,
    // `Holder.last = v`) keeps what it is given, for a later read of it to return.
    if (const token& root = t[b]; root.kind() == tok::name && !root.is_reserved() && b + 1 < e &&
                                  (t[b + 1].is_op(".") || t[b + 1].is_op("[")))
      if (last_assign != UINT32_MAX || stores_into_call(b, e))
        (void)local(ts_.text(root));
  }

  // Names that meet in a statement are united; a span that a call keeps apart is a group
  // of its own. Each group has a node of its own (its anchor), so that a returned
  // statement's group is known before any name is met. On an explicit stack: arguments
  // nest as deep as the text does.
  struct span {
    std::uint32_t b, e;
    std::uint32_t anchor;
  };
  std::vector<span> stack;
  std::vector<std::uint32_t> returned; // the anchor of each returned group
  std::string dotted;
  // What a `case` pattern captures may be any part of any `match` subject of the body.
  const std::uint32_t matched = g.add();
  for (const auto& [sb, se] : statements) {
    const std::uint32_t statement_anchor = g.add();
    bool returns = false; // `return` may follow a header on its line: `if c: return x`
    if (header_colon(sb, se, keyword_id{"match"}))
      g.unite(statement_anchor, matched);
    if (const auto colon = header_colon(sb, se, keyword_id{"case"}))
      for_each_capture(sb, colon, [&](std::string_view n) { g.unite(locals.at(n), matched); });
    stack.push_back({sb, se, statement_anchor});
    while (!stack.empty()) {
      const span s = stack.back();
      stack.pop_back();
      int depth = 0;
      for (std::uint32_t i = s.b; i < s.e; ++i) {
        const token& k = t[i];
        if (k.kind() == tok::op) {
          depth += bracket_nesting(k.flags());
          continue;
        }
        if (k.is_keyword(keyword_id{"return"}) || k.is_keyword(keyword_id{"yield"}))
          returns = true;
        if (k.kind() != tok::name || k.is_reserved() || (i > s.b && t[i - 1].is_op(".")))
          continue;
        // A keyword argument's name is no variable read.
        if (depth > 0 && i + 1 < s.e && t[i + 1].is_op("="))
          continue;
        // A call: its callee's dotted name, then its parenthesis.
        std::uint32_t j = i + 1;
        while (j + 1 < s.e && t[j].is_op(".") && t[j + 1].kind() == tok::name)
          j += 2;
        if (j < s.e && t[j].is_op("(")) {
          dotted.clear();
          scan_.names.canonical_into(dotted_name(ts_, i, j), dotted);
          const bool fresh = std::find(fresh_operations.begin(), fresh_operations.end(),
                                       std::string_view(dotted)) != fresh_operations.end();
          const auto c = fresh || locals.contains(ts_.text(k)) ? -1 : callee(d, i, j);
          if (c >= 0 && !variadic_[static_cast<std::uint32_t>(c)] &&
              state_[static_cast<std::uint32_t>(c)] == unread) { // read in this closure too
            state_[static_cast<std::uint32_t>(c)] = pending;
            closure_.push_back(static_cast<std::uint32_t>(c));
          }
          if (fresh || c >= 0) {
            i = split_arguments(j, s.e, fresh ? nullptr : &table_[static_cast<std::uint32_t>(c)],
                                [&](std::uint32_t b, std::uint32_t e, bool kept) {
                                  stack.push_back({b, e, kept ? s.anchor : g.add()});
                                });
            continue;
          }
        }
        if (const auto it = locals.find(ts_.text(k)); it != locals.end())
          g.unite(it->second, s.anchor);
      }
    }
    if (returns)
      returned.push_back(statement_anchor);
  }

  std::uint64_t mask = 0;
  const auto& names = table_[d].names;
  for (std::size_t p = 0; p < names.size(); ++p) {
    const auto root = g.find(locals.at(names[p]));
    for (const auto r : returned)
      if (g.find(r) == root)
        mask |= std::uint64_t{1} << std::min<std::size_t>(p, 63);
  }
  return set_mask(d, mask);
}

bool returned_parameter_table::set_mask(std::uint32_t d, std::uint64_t mask) {
  const bool changed = mask != table_[d].mask;
  table_[d].mask = mask;
  return changed;
}

bool returned_parameter_table::stores_into_call(std::uint32_t b, std::uint32_t e) const {
  // `NAME.m(...)` (a dotted chain of one method) with m one of the containers' methods that
  // keep their argument.
  const auto& t = ts_.tokens;
  if (!(b + 3 < e && t[b + 1].is_op(".") && t[b + 2].kind() == tok::name && t[b + 3].is_op("(")))
    return false;
  const std::string_view m = ts_.text(t[b + 2]);
  return m == "append" || m == "extend" || m == "insert" || m == "add" || m == "update" ||
         m == "setdefault" || m == "appendleft" || m == "put" || m == "push" || m == "__setitem__";
}

} // namespace commscope::frontend::detail
