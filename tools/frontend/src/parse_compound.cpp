// The DSL parser: loops, branches and `with` statements.
#include "parser.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

statement_ptr dsl_parser::parse_for() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  const std::uint32_t colon = header_end();
  if (loops_open_ == 0)
    note_late_reads(b, block_end(colon));
  const open_loop loop(*this);
  statement_spec s;
  s.where = where(next());
  // The target list up to `in` at depth 0.
  std::uint32_t in = static_cast<std::uint32_t>(i_);
  for (int depth = 0; in < colon; ++in) {
    const token& x = t_[in];
    if (x.is_op("(") || x.is_op("["))
      ++depth;
    else if (x.is_op(")") || x.is_op("]"))
      --depth;
    else if (depth == 0 && x.is_keyword("in"))
      break;
  }
  // The names the targets bind; an attribute or an element among them (`slots[0]`,
  // `self.cur`) is a store of each item where the analysis does not follow it, and the
  // names inside it are read, not bound.
  std::vector<std::string_view> target_names;
  const bool stores =
      for_each_target_name(ts_, static_cast<std::uint32_t>(i_), in,
                           [&](std::uint32_t k) { target_names.push_back(text(t_[k])); });
  const std::uint32_t targets_begin = static_cast<std::uint32_t>(i_);
  // `r`, `r, acc`, and either in parentheses (`for (r) in pl.range(4):`).
  const auto [tb, te] = ungrouped(ts_, static_cast<std::uint32_t>(i_), in);
  const bool simple_target = te == tb + 1 || (t_[tb].kind() == tok::name && t_[tb + 1].is_op(","));
  i_ = in + 1;
  const token& iter_tok = peek();
  auto iter = parse_expression_list(nullptr, true);
  if (i_ != colon)
    unexpected("':'");
  next();
  const statement_text header = header_text(b, colon);
  s.origin = note(header);
  const expression& call = *iter;
  const std::string callee =
      call.what == expression::kind::call && call.base() ? spelling(*call.base()) : std::string();
  bool keywords_ok = true;
  for (const auto& k : call.keywords())
    keywords_ok = keywords_ok && callee == "pl.range" && k.name == "init_values";
  const auto args = call.args();
  bool range = (callee == "pl.range" || callee == "range") && !args.empty() && args.size() <= 3 &&
               keywords_ok && simple_target && !target_names.empty();
  for (const auto n : target_names) // a `:=` binds it too: not only the range's values
    range = range && !walrus_names_.contains(n);
  gathered<variable_ptr> targets(vs_);
  if (!range) {
    // Any other iteration: a block whose targets are opaque, run zero or more times.
    s.what = statement::kind::block;
    s.flow = commscope::control_flow::repeat;
    for (auto n : target_names) {
      auto* v = bind_new(n);
      targets.push(v);
    }
    std::vector<expression_ptr> stored{iter};
    if (stores)
      if (auto keys = target_keys(targets_begin, in))
        stored.push_back(std::move(keys));
    const node_list<statement_ptr> body = parse_block();
    const expression_ptr values[] = {
        stores ? expression_ptr(store_of(
                     where(t_[targets_begin]),
                     std::string(ts_.source.substr(t_[targets_begin].begin,
                                                   ts_.end(t_[in - 1]) - t_[targets_begin].begin)) +
                         " = ...",
                     stored))
               : iter};
    s.values = values;
    s.targets = targets.items();
    auto* st = w_.make(s);
    st->set_body(body);
    bind_block_targets(*st);
    return st;
  }
  s.what = statement::kind::for_loop;
  s.builtin_range = callee == "range";
  s.range_arity = static_cast<std::uint8_t>(args.size());
  const source_location iter_at = where(iter_tok);
  auto constant = [&](std::int64_t v) {
    expression_spec c;
    c.what = expression::kind::integer;
    c.value = v;
    c.where = iter_at;
    return expression_ptr(w_.make(c));
  };
  // Bounds such as `N - 1` are the integers they are, as the DSL binds them.
  if (args.size() == 1) {
    s.start = constant(0);
    s.stop = folded(args[0]);
  } else {
    s.start = folded(args[0]);
    s.stop = folded(args[1]);
  }
  s.step = args.size() == 3 ? folded(args[2]) : constant(1);
  auto* v = bind_new(target_names[0]);
  s.loop_var = v;
  loop_of_[v] = {s.start, s.stop, s.step};
  for (std::size_t k = 1; k < target_names.size(); ++k) { // loop-carried values
    auto* c = bind_new(target_names[k]);
    targets.push(c);
  }
  const std::size_t carried = target_names.size() - 1;
  for (const auto& k : call.keywords()) // their values on entry
    if (k.name == "init_values")
      // Not one element per variable (a name bound to the tuple, a starred element): the
      // whole value, which each of them may hold part of.
      s.values = is_tuple_of(*k.value, carried) ? std::span<const expression_ptr>(k.value->args())
                                                : std::span<const expression_ptr>(&k.value, 1);
  const node_list<statement_ptr> body = parse_block();
  // The DSL's assignment form of the closing yield, `res = pl.yield_(e)`: `res` names the
  // loop's result after it, which is its entry value when the body never runs, so it is
  // carried as well.
  std::span<const variable_ptr> results;
  if (carried > 0 && !body.empty() && body.back()->what == statement::kind::assign &&
      is_yield(*body.back(), carried)) {
    results = body.back()->targets();
    for (const auto& r : results)
      targets.push(w_.make_binding(next_id_++, *r));
  }
  s.targets = targets.items();
  auto* st = w_.make(s);
  st->set_body(body);
  if (carried > 0 && !body.empty())
    yield_as_assignment(body, node_span<variable_ptr>(st->targets().data(), carried), results);
  return st;
}

std::uint32_t dsl_parser::block_end(std::uint32_t colon) const {
  std::size_t k = colon + std::size_t{1};
  const std::size_t n = t_.size();
  if (k < n && t_[k].kind() != tok::newline) { // a body on the header's line
    while (k < n && t_[k].kind() != tok::newline && t_[k].kind() != tok::end)
      ++k;
    return static_cast<std::uint32_t>(k);
  }
  int depth = 0;
  for (++k; k < n && t_[k].kind() != tok::end; ++k) {
    if (t_[k].kind() == tok::indent)
      ++depth;
    else if (t_[k].kind() == tok::dedent && --depth <= 0)
      break;
  }
  return static_cast<std::uint32_t>(std::min(k, n));
}

void dsl_parser::note_late_reads(std::uint32_t b, std::uint32_t e) {
  std::vector<std::string_view> own; // the parameters or targets of the one at hand
  const auto is_name_read = [&](std::uint32_t k) {
    const token& x = t_[k];
    return x.kind() == tok::name && !x.is_reserved() && !(k > 0 && t_[k - 1].is_op(".")) &&
           !(k + 1 < t_.size() && t_[k + 1].is_op("="));
  };
  const auto note = [&](std::uint32_t k) {
    if (!is_name_read(k))
      return;
    const std::string_view n = text(t_[k]);
    if (std::find(own.begin(), own.end(), n) == own.end() && last_binding_of(n) != no_late)
      cells_.try_emplace(n, late_reader);
  };
  // Nested definitions: what they read of the host's, as at their own statements.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> defined; // their tokens, in order
  const auto& defs = scan_.definitions;
  for (auto d = std::lower_bound(defs.begin(), defs.end(), b,
                                 [](const definition&x, std::uint32_t k) { return x.keyword < k; });
       d != defs.end() && d->keyword < e; ++d) {
    if (!defined.empty() && d->keyword < defined.back().second)
      continue; // inside the one before
    defined.emplace_back(d->keyword, d->body_end);
    (void)closure_reads(d->keyword, d->body_end, {}, "read by a nested definition", true);
  }
  // Lambdas and generator expressions outside them: every name in their text but their
  // own parameters and targets (a nested one's too: more names only make more values
  // unfollowed).
  std::vector<std::uint32_t> open; // open brackets
  std::uint32_t done = 0;          // tokens below it are noted already
  auto def = defined.begin();
  for (std::uint32_t k = b; k < e && k < t_.size(); ++k) {
    if (def != defined.end() && k >= def->first) {
      k = def->second - 1; // its reads are noted above
      ++def;
      open.clear();
      continue;
    }
    const token& x = t_[k];
    if (x.kind() == tok::op) {
      const int step = bracket_nesting(x.flags());
      if (step > 0)
        open.push_back(k);
      else if (step < 0 && !open.empty())
        open.pop_back();
      continue;
    }
    if (k < done)
      continue;
    if (x.is_keyword("lambda")) {
      int depth = 0;
      bool header = true; // its parameters and their defaults, read where it stands
      own.clear();
      std::uint32_t j = k + 1;
      for (; j < e && t_[j].kind() != tok::newline && t_[j].kind() != tok::end; ++j) {
        if (t_[j].kind() == tok::op) {
          depth += bracket_nesting(t_[j].flags());
          if (depth < 0 || (depth == 0 && t_[j].is_op(";")))
            break;
          if (header && depth == 0 && t_[j].is_op(":")) {
            header = false;
            continue;
          }
        }
        if (!header)
          note(j);
        else if (depth == 0 && t_[j].kind() == tok::name &&
                 (t_[j - 1].is_keyword("lambda") || t_[j - 1].is_op(",") || t_[j - 1].is_op("*") ||
                  t_[j - 1].is_op("**")))
          own.push_back(text(t_[j]));
      }
      done = j;
    } else if (x.is_keyword("for") && !open.empty() && t_[open.back()].is_op("(")) {
      // A generator expression: all of its brackets but its first iterable, which is
      // read where it stands.
      int depth = 0;
      bool first_iterable = false, seen_in = false;
      own.clear();
      for (std::uint32_t j = open.back() + 1, targets = 0; j < e && j < t_.size(); ++j) {
        const token& y = t_[j];
        if (y.kind() == tok::op && (depth += bracket_nesting(y.flags())) < 0)
          break;
        if (depth == 0 && y.is_keyword("for"))
          targets = 1;
        else if (depth == 0 && y.is_keyword("in"))
          targets = 0;
        else if (targets != 0 && y.kind() == tok::name && !y.is_reserved())
          own.push_back(text(y));
      }
      depth = 0;
      std::uint32_t j = open.back() + 1;
      for (; j < e && j < t_.size(); ++j) {
        const token& y = t_[j];
        if (y.kind() == tok::op && (depth += bracket_nesting(y.flags())) < 0)
          break;
        if (depth == 0 && j > k && !seen_in && y.is_keyword("in")) {
          seen_in = first_iterable = true;
          continue;
        }
        if (depth == 0 && first_iterable && (y.is_keyword("for") || y.is_keyword("if")))
          first_iterable = false;
        if (!first_iterable)
          note(j);
      }
      done = std::max(done, j);
    }
  }
}

statement_ptr dsl_parser::parse_while() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  const std::uint32_t colon = header_end();
  if (loops_open_ == 0)
    note_late_reads(b, block_end(colon));
  const open_loop loop(*this);
  statement_spec s;
  s.what = statement::kind::while_loop;
  s.where = where(next());
  s.value = parse_named();
  expect_op(":");
  s.origin = note(header_text(b, colon));
  const node_list<statement_ptr> body = parse_block();
  auto* st = w_.make(s);
  st->set_body(body);
  return st;
}

statement_ptr dsl_parser::parse_if() {
  struct branch {
    source_location where;
    std::uint32_t origin = 0;
    expression_ptr value;
    node_list<statement_ptr> body;
  };
  std::vector<branch> chain;
  while (true) {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    branch br;
    br.where = where(next());
    br.value = parse_named();
    expect_op(":");
    br.origin = note(header_text(b, colon));
    br.body = parse_block();
    yield_as_parallel(br.body);
    chain.push_back(br);
    if (!is_name("elif"))
      break;
  }
  node_list<statement_ptr> orelse;
  if (is_name("else")) {
    next();
    expect_op(":");
    orelse = parse_block();
    yield_as_parallel(orelse);
  }
  // Linked back to front: an elif chain of any length is built without recursion.
  statement* made = nullptr;
  for (std::size_t i = chain.size(); i-- > 0;) {
    statement_spec s;
    s.what = statement::kind::if_else;
    s.is_elif = i > 0;
    s.where = chain[i].where;
    s.origin = chain[i].origin;
    s.value = chain[i].value;
    auto* st = w_.make(s);
    st->set_body(chain[i].body);
    if (made) {
      const statement_ptr only[] = {made};
      st->set_orelse(w_.list(std::span<const statement_ptr>(only)));
    } else {
      st->set_orelse(orelse);
    }
    made = st;
  }
  return made;
}

statement_ptr dsl_parser::parse_with() {
  const std::uint32_t b = static_cast<std::uint32_t>(i_);
  const std::uint32_t colon = header_end();
  const source_location at = where(next());
  const std::uint32_t items = static_cast<std::uint32_t>(i_);
  const bool one_call = peek().kind() == tok::name;
  mutable_expr first = nullptr;
  if (one_call && !is_op("(")) {
    first = parse_test();
  }
  if (first && i_ == colon && first->what == expression::kind::call && first->base() &&
      spelling(*first->base()) == "pld.comm_domain") {
    if (auto scope = comm_domain(*first, at)) {
      next();
      trivia_.clear(); // scopes print canonically
      scopes_.push_back(std::move(*scope));
      scopes_.back().index_slots();
      const node_list<statement_ptr> body = parse_block();
      open_scope done = std::move(scopes_.back());
      scopes_.pop_back();
      std::vector<window_buffer_ptr> slots;
      for (std::size_t i = 0; i < done.names.size(); ++i) {
        if (!done.found[i]) {
          front_end_error(at, "slot '" + done.names[i] +
                                  "' names no allocation in this pld.comm_domain");
          continue;
        }
        slots.push_back(done.found[i]);
      }
      const auto& e = *first;
      bool all = true;
      std::vector<std::int64_t> devices;
      std::vector<std::int64_t> progressions; // triples, as statement::progressions()
      for (const auto& k : e.keywords())
        if (k.name == "devices" && k.value->what == expression::kind::list) {
          all = false;
          for (const auto& d : k.value->args())
            if (const auto p = device_range(*d))
              progressions.insert(progressions.end(), {p->start, p->step, p->stop_offset});
            else
              devices.push_back(d->value());
        }
      statement_spec s;
      s.what = statement::kind::scope;
      s.where = at;
      auto* st = w_.make(s);
      st->set_scope(e.args()[0]->text(), w_.list(devices), all, w_.list(slots),
                    w_.list(progressions));
      st->set_body(body);
      return st;
    }
  }
  // Any other with: its items are read for the analysis; its body runs once, but its
  // manager may swallow an exception part way through it.
  i_ = items;
  statement_spec s;
  s.what = statement::kind::block;
  s.flow = commscope::control_flow::may_stop;
  s.where = at;
  gathered<expression_ptr> values(xs_);
  gathered<variable_ptr> targets(vs_);
  // `with (a as x, b):` (Python 3.10): the parentheses hold the items.
  std::uint32_t end = colon;
  if (is_op("(")) {
    int depth = 0;
    std::uint32_t close = items;
    for (; close < colon; ++close)
      if (t_[close].kind() == tok::op && (depth += bracket_nesting(t_[close].flags())) == 0)
        break;
    if (close + 1 == colon) {
      next();
      end = close;
    }
  }
  read_header_expressions(end, values, targets);
  i_ = colon;
  expect_op(":");
  s.origin = note(header_text(b, colon));
  // The DSL's own managers (`with pl.at(...)`) swallow nothing: their body runs whole.
  bool dsl_managers = !values.items().empty();
  for (const auto& v : values.items())
    dsl_managers = dsl_managers && v->what == expression::kind::call && v->base() &&
                   spelling(*v->base()) == "pl.at";
  if (dsl_managers)
    s.flow = commscope::control_flow::block;
  const node_list<statement_ptr> body = parse_block();
  s.values = values.items();
  s.targets = targets.items();
  auto* st = w_.make(s);
  st->set_body(body);
  bind_block_targets(*st);
  return st;
}

} // namespace commscope::frontend::detail
