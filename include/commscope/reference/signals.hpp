// The reference IR's side of signal synthesis (traits.hpp, layer 4): the names a program
// uses, and the rewriter that inserts a signal's three bindings before a statement. Nodes
// are immutable: the statements on the path from a function's body to an insertion
// point are copied, everything else is shared. No recursion: deep bodies are walked on
// explicit stacks.
#pragma once

#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace commscope::reference {

/// Every name of the program: functions, parameters, bound variables, unbound names
/// (globals, modules). Duplicates are kept: the caller only tests membership.
[[nodiscard]] inline std::vector<std::string_view> used_names(const program& p) {
  std::vector<std::string_view> names;
  std::vector<const statement*> statements;
  std::vector<const expression*> expressions;
  const auto add_variable = [&](const variable_ptr& v) {
    if (v)
      names.push_back(v->name);
  };
  const auto add_expression = [&](const expression_ptr& e) {
    if (e)
      expressions.push_back(e.get());
  };
  for (const auto& f : p.functions) {
    names.push_back(f->sig->name);
    for (const auto& param : f->params)
      add_variable(param.var);
    for (const auto& s : f->body)
      statements.push_back(s.get());
    while (!statements.empty()) {
      const statement* s = statements.back();
      statements.pop_back();
      for (const auto& t : s->targets())
        add_variable(t);
      add_variable(s->loop_var());
      for (const auto& e : {s->value(), s->start(), s->stop(), s->step()})
        add_expression(e);
      for (const auto& e : s->values())
        add_expression(e);
      for (const auto& c : s->body())
        statements.push_back(c.get());
      for (const auto& c : s->orelse())
        statements.push_back(c.get());
    }
    while (!expressions.empty()) {
      const expression* e = expressions.back();
      expressions.pop_back();
      if (e->what == expression::kind::name)
        names.push_back(e->var() ? e->var()->name.view() : e->text().view());
      add_expression(e->base());
      for (const auto& a : e->args())
        add_expression(a);
      for (const auto& k : e->keywords())
        add_expression(k.value);
    }
  }
  return names;
}

/// The value of an allreduce's `core_num=`: 1 when absent, the constant when it is an
/// integer (a literal, or a name the front end resolved), else 0 (not a constant).
[[nodiscard]] inline std::int64_t core_num_of(const expression& call) {
  for (const auto& k : call.keywords())
    if (k.name == "core_num")
      return k.value && k.value->what == expression::kind::integer && !k.value->overflow()
                 ? k.value->value()
                 : 0;
  return 1;
}

/// Inserts signals (traits.hpp, layer 4): a rewritten statement is marked respelled
/// (ir.hpp), so that whoever prints it spells it from its parts. A class template only so
/// that its members are compiled where signals are synthesized, not in every translation
/// unit that includes the traits. Use it as `signal_rewriter`.
template <class = void> class basic_signal_rewriter {
public:
  explicit basic_signal_rewriter(const program_ptr& p) : old_(p), next_id_(p->variable_bound) {}

  /// Binds the three names before `at` and passes the signal to `call`, which is the
  /// whole value of `at` (or one of its returned values).
  void insert(const function* f, const statement* at, const expression* call, std::int64_t cores,
              std::string_view world_size_name, std::string_view buffer_name,
              std::string_view signal_name) {
    if (std::find(functions_.begin(), functions_.end(), f) == functions_.end())
      functions_.push_back(f);
    auto& site = sites_[at];
    if (!site.replacement) {
      site.replacement = w_.clone(*at);
      site.replacement->set_respelled();
    }
    // The spelling of the module the call names (`pld.`, `dist.`), for its new siblings.
    std::string module = call->text().empty() ? std::string("pld.") : std::string(call->text());
    for (std::string_view tail : {"tensor.allreduce", "allreduce"})
      if (std::string_view(module).ends_with(tail)) {
        module.resize(module.size() - tail.size());
        break;
      }
    const source_location where = at->where;

    auto world_size = new_variable(world_size_name);
    auto ws_call = operation(commscope::operation::world_size, module + "system.world_size", where);
    site.before.push_back(assignment(world_size, ws_call, where));

    auto buffer = new_variable(buffer_name);
    // pl.INT32.get_byte(), folded as the parser folds it
    auto size = binary(binary(name(world_size, where), integer(cores, where), where),
                       integer(4, where), where);
    auto alloc = operation(commscope::operation::alloc_window_buffer,
                           module + "tensor.alloc_window_buffer", where, {&size, 1},
                           w_.string(buffer_name));
    site.before.push_back(assignment(buffer, alloc, where));

    const expression_ptr dims[] = {name(world_size, where), integer(cores, where)};
    expression_spec shape_spec;
    shape_spec.what = expression::kind::list;
    shape_spec.where = where;
    shape_spec.args = dims;
    const expression_ptr shape = w_.make(shape_spec);
    expression_spec pl;
    pl.what = expression::kind::name;
    pl.text = w_.intern("pl");
    pl.where = where;
    expression_spec dtype_spec;
    dtype_spec.what = expression::kind::attribute;
    dtype_spec.text = w_.intern("INT32");
    dtype_spec.base = w_.make(pl);
    dtype_spec.where = where;
    const expression_ptr dtype = w_.make(dtype_spec);
    const expression_ptr window_args[] = {name(buffer, where), shape};
    const keyword_argument window_keywords[] = {{w_.intern("dtype"), dtype}};
    auto window = operation(commscope::operation::window, module + "tensor.window", where,
                            window_args, {}, window_keywords);
    auto signal = new_variable(signal_name, w_.make_node(type{{}, shape, dtype, {}}));
    site.before.push_back(assignment(signal, window, where));

    // The call with its signal: the second positional argument, keywords as they were.
    std::vector<expression_ptr> args(call->args().begin(), call->args().end());
    args.push_back(name(signal, call->where));
    expression_spec with = spec_of(*call);
    with.args = args;
    const expression_ptr with_signal = w_.make(with);
    statement& s = *site.replacement;
    if (s.value().get() == call)
      s.set_value(with_signal);
    if (!s.values().empty()) {
      std::vector<expression_ptr> values(s.values().begin(), s.values().end());
      for (auto& v : values)
        if (v.get() == call)
          v = with_signal;
      s.set_values(w_.list(values));
    }
  }

  program_ptr finish() {
    if (functions_.empty())
      return old_;
    auto p = std::make_shared<program>(*old_);
    for (auto& fn : p->functions)
      if (std::find(functions_.begin(), functions_.end(), fn.get()) != functions_.end())
        fn = rebuild(*fn);
    p->variable_bound = next_id_;
    p->arenas.push_back(w_.arena());
    return p;
  }

private:
  struct site {
    std::vector<statement_ptr> before;
    statement* replacement = nullptr;
  };

  /// Everything `e` holds, to make a changed copy of it.
  static expression_spec spec_of(const expression& e) {
    expression_spec s;
    s.what = e.what;
    s.where = e.where;
    s.op = e.op;
    s.value = e.value();
    s.overflow = e.overflow();
    s.var = e.var();
    s.callee = e.callee();
    s.base = e.base();
    s.text = e.text();
    s.name = e.name();
    s.args = e.args();
    s.keywords = e.keywords();
    return s;
  }

  variable_ptr new_variable(std::string_view n, type_ptr t = {}) {
    return w_.make_variable(next_id_++, w_.intern(n), t);
  }
  expression_ptr operation(commscope::operation op, std::string_view spelling,
                           source_location where, std::span<const expression_ptr> args = {},
                           str name = {}, std::span<const keyword_argument> keywords = {}) {
    expression_spec e;
    e.what = expression::kind::operation;
    e.op = op;
    e.text = w_.intern(spelling);
    e.where = where;
    e.args = args;
    e.name = name;
    e.keywords = keywords;
    return w_.make(e);
  }
  expression_ptr name(const variable_ptr& v, source_location where) {
    expression_spec e;
    e.what = expression::kind::name;
    e.var = v;
    e.where = where;
    return w_.make(e);
  }
  expression_ptr integer(std::int64_t value, source_location where) {
    expression_spec e;
    e.what = expression::kind::integer;
    e.value = value;
    e.where = where;
    return w_.make(e);
  }
  expression_ptr binary(expression_ptr l, expression_ptr r, source_location where) {
    const expression_ptr args[] = {l, r};
    expression_spec e;
    e.what = expression::kind::binary;
    e.text = w_.intern("*");
    e.args = args;
    e.where = where;
    return w_.make(e);
  }
  statement_ptr assignment(const variable_ptr& target, expression_ptr value,
                           source_location where) {
    statement_spec s;
    s.what = statement::kind::assign;
    s.targets = {&target, 1};
    s.value = value;
    s.where = where;
    return w_.make(s);
  }

  /// The function with its bodies copied along the paths to the insertion points.
  function_ptr rebuild(const function& f) {
    // Parents and depths of the statements, on an explicit stack.
    struct place {
      const statement* parent;
      std::size_t depth;
    };
    std::unordered_map<const statement*, place> places;
    std::vector<std::pair<const statement*, std::size_t>> stack;
    for (const auto& s : f.body)
      stack.emplace_back(s.get(), 0);
    while (!stack.empty()) {
      const auto [s, depth] = stack.back();
      stack.pop_back();
      for (const auto list : {s->body(), s->orelse()})
        for (const auto& c : list) {
          places[c.get()] = {s, depth + 1};
          stack.emplace_back(c.get(), depth + 1);
        }
    }
    // The ancestors of insertion points, deepest first: each is copied after its
    // children were.
    std::vector<std::pair<std::size_t, const statement*>> dirty;
    std::unordered_map<const statement*, statement_ptr> copies;
    for (const auto& entry : sites_) {
      for (auto it = places.find(entry.first); it != places.end();
           it = places.find(it->second.parent)) {
        if (!copies.emplace(it->second.parent, nullptr).second)
          break;
        dirty.emplace_back(it->second.depth - 1, it->second.parent);
      }
    }
    std::sort(dirty.begin(), dirty.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [depth, s] : dirty) {
      statement* c = w_.clone(*s);
      if (!s->body().empty())
        c->set_body(substitute(s->body(), copies));
      if (!s->orelse().empty())
        c->set_orelse(substitute(s->orelse(), copies));
      copies[s] = c;
    }
    auto* nf = w_.make_node(f);
    nf->body = substitute(f.body, copies);
    return nf;
  }

  node_list<statement_ptr>
  substitute(node_span<statement_ptr> in,
             const std::unordered_map<const statement*, statement_ptr>& copies) {
    std::vector<statement_ptr> out;
    out.reserve(in.size());
    for (const auto& c : in) {
      if (auto it = sites_.find(c.get()); it != sites_.end()) {
        out.insert(out.end(), it->second.before.begin(), it->second.before.end());
        out.push_back(it->second.replacement);
      } else if (auto jt = copies.find(c.get()); jt != copies.end() && jt->second) {
        out.push_back(jt->second);
      } else {
        out.push_back(c);
      }
    }
    return w_.list(out);
  }

  program_ptr old_;
  std::uint32_t next_id_;
  node_factory w_;
  std::vector<const function*> functions_;
  std::unordered_map<const statement*, site> sites_;
};

using signal_rewriter = basic_signal_rewriter<>;

} // namespace commscope::reference
