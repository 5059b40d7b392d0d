// Synthetic host programs of a given shape, on the reference IR, for the benchmarks.
//
// A program has one chip orchestrator and one host orchestrator holding `allocations`
// window allocations, built in groups of four that share one of `device_sets` distinct
// device sets:
//
//   set 0            all devices: dispatches inside `for r in range(world_size())`, the
//                    bound reached directly or through a temporary `n = world_size()`
//   set j >= 1       devices {2j, 2j+1}: alternately a constant loop
//                    `for r in range(2j, 2j+2)` and two straight-line dispatches
//                    `chip(..., device=2j)`, `chip(..., device=2j+1)`
//
// Every allocation has a view; every other one a second view through a copy of its
// base pointer; every group a copy chain ending in a dispatched view; and in every other
// group the last allocation is a signal buffer that only a collective (allreduce or
// allgather) covers, by inheritance. The program is valid: the pass reports nothing and
// makes `device_sets` domains (once there are that many groups).
//
// Nodes are written directly into one arena (not through builder.hpp): no per-node
// strings beyond names, one shape list per view.
#pragma once

#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::bench {

struct shape {
  std::size_t allocations = 1000;
  std::size_t device_sets = 16; ///< K >= 1
  std::size_t chain = 3;        ///< copies in each group's copy chain
};

class synthetic_builder {
  using expression = reference::expression;
  using statement = reference::statement;
  using variable = reference::variable;
  using E = expression::kind;
  using S = statement::kind;

public:
  explicit synthetic_builder(shape s) : shape_(s) {}

  reference::program_ptr build() {
    auto* chip_sig = w_.make_node(reference::signature{});
    chip_sig->name = w_.intern("chip_orch");
    chip_sig->level = level::chip;
    chip_sig->orchestrator = true;
    chip_ = chip_sig;
    auto* chip = w_.make_node(reference::function{});
    chip->sig = chip_sig;
    chip->params = w_.list({reference::parameter{new_variable("data")}});
    chip->body = w_.list({reference::statement_ptr(new_statement(S::return_))});

    auto* host_sig = w_.make_node(reference::signature{});
    host_sig->name = w_.intern("host_orch");
    host_sig->level = level::host;
    host_sig->orchestrator = true;
    auto* host = w_.make_node(reference::function{});
    host->sig = host_sig;
    host->where = {++line_, 5};
    std::vector<reference::statement_ptr> body;
    body.reserve(shape_.allocations * 3);

    const std::size_t k = shape_.device_sets == 0 ? 1 : shape_.device_sets;
    for (std::size_t made = 0, group = 0; made < shape_.allocations; ++group) {
      const std::size_t n = std::min<std::size_t>(4, shape_.allocations - made);
      const std::size_t set = group % k;
      const bool with_signal = group % 2 == 1 && n >= 2;
      const std::size_t dispatched = with_signal ? n - 1 : n;

      // Allocations and their views.
      std::vector<std::vector<reference::variable_ptr>> views(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t id = made + i;
        const std::string name = "b" + std::to_string(id);
        auto base = assign(body, name, alloc_call(name, 4096));
        views[i].push_back(assign(body, "v" + std::to_string(id), window_call(base)));
        if (id % 2 == 0) {
          auto copy = assign(body, "c" + std::to_string(id), use(base));
          views[i].push_back(assign(body, "u" + std::to_string(id), window_call(copy)));
        }
      }
      // A copy chain from the first view; its end is dispatched in place of the view.
      reference::variable_ptr link = views[0][0];
      for (std::size_t c = 0; c < shape_.chain; ++c)
        link = assign(body, "x" + std::to_string(made) + "_" + std::to_string(c), use(link));
      views[0][0] = link;

      // Dispatches: every dispatched allocation's views as arguments.
      auto args_of = [&](std::size_t i) {
        std::vector<reference::expression_ptr> a;
        for (const auto& v : views[i])
          a.push_back(use(v));
        return a;
      };
      if (set == 0) {
        reference::expression_ptr stop = operation(commscope::operation::world_size, {});
        if (group % 4 == 0) // the bound through a temporary
          stop = use(assign(body, "n" + std::to_string(group), stop));
        auto loop = for_loop(integer(0), stop, integer(1));
        std::vector<reference::statement_ptr> loop_body;
        for (std::size_t i = 0; i < dispatched; ++i)
          loop_body.push_back(dispatch(args_of(i), use(loop->loop_var())));
        loop->set_body(w_.list(loop_body));
        body.push_back(loop);
      } else {
        const auto lo = static_cast<std::int64_t>(2 * set);
        if ((group / k) % 2 == 0) {
          auto loop = for_loop(integer(lo), integer(lo + 2), integer(1));
          std::vector<reference::statement_ptr> loop_body;
          for (std::size_t i = 0; i < dispatched; ++i)
            loop_body.push_back(dispatch(args_of(i), use(loop->loop_var())));
          loop->set_body(w_.list(loop_body));
          body.push_back(loop);
        } else {
          for (std::size_t i = 0; i < dispatched; ++i) {
            body.push_back(dispatch(args_of(i), integer(lo)));
            body.push_back(dispatch(args_of(i), integer(lo + 1)));
          }
        }
      }
      // The signal buffer inherits its coverage from a collective's data or target.
      if (with_signal) {
        const auto& sig = views[n - 1][0];
        if (group % 4 == 1)
          body.push_back(evaluate(operation(commscope::operation::allreduce,
                                            {use(views[0][0]), use(sig)})));
        else
          assign(body, "g" + std::to_string(group),
                 operation(commscope::operation::allgather,
                           {use(views[0][0]), use(views[n - 2][0]), use(sig)}));
      }
      made += n;
    }

    host->body = w_.list(body);
    auto p = std::make_shared<reference::program>();
    p->name = "synthetic";
    p->functions = {chip, host};
    p->variable_bound = ids_;
    p->arenas = {w_.arena()};
    return p;
  }

private:
  reference::variable_ptr new_variable(const std::string& name) {
    return w_.make_variable(ids_++, w_.intern(name));
  }
  reference::statement* new_statement(S k) {
    reference::statement_spec s;
    s.what = k;
    s.where = {++line_, 9};
    return w_.make(s);
  }
  reference::expression_ptr integer(std::int64_t v) {
    reference::expression_spec e;
    e.what = E::integer;
    e.value = v;
    return w_.make(e);
  }
  reference::expression_ptr use(const reference::variable_ptr& v) {
    reference::expression_spec e;
    e.what = E::name;
    e.var = v;
    return w_.make(e);
  }
  reference::expression_ptr operation(commscope::operation op,
                                      std::vector<reference::expression_ptr> args,
                                      std::string_view name = {},
                                      std::vector<reference::keyword_argument> keywords = {}) {
    reference::expression_spec e;
    e.what = E::operation;
    e.op = op;
    e.where = {line_ + 1, 13};
    e.args = args;
    e.keywords = keywords;
    e.name = w_.intern(name);
    return w_.make(e);
  }
  reference::expression_ptr alloc_call(const std::string& name, std::int64_t size) {
    return operation(commscope::operation::alloc_window_buffer, {integer(size)}, name);
  }
  reference::expression_ptr window_call(const reference::variable_ptr& ptr) {
    reference::expression_spec shape;
    shape.what = E::list;
    const reference::expression_ptr dims[] = {integer(256)};
    shape.args = dims;
    reference::expression_spec dtype;
    dtype.what = E::name; // unbound: opaque to the pass
    dtype.text = w_.intern("pl.FP32");
    return operation(commscope::operation::window, {use(ptr), w_.make(shape)}, {},
                     {{w_.intern("dtype"), w_.make(dtype)}});
  }
  reference::variable_ptr assign(std::vector<reference::statement_ptr>& into, std::string name,
                                 reference::expression_ptr value) {
    const auto v = new_variable(name);
    reference::statement_spec s;
    s.what = S::assign;
    s.where = {++line_, 9};
    s.targets = {&v, 1};
    s.value = value;
    into.push_back(w_.make(s));
    return v;
  }
  reference::statement_ptr evaluate(reference::expression_ptr value) {
    reference::statement_spec s;
    s.what = S::evaluate;
    s.where = {++line_, 9};
    s.value = value;
    return w_.make(s);
  }
  reference::statement* for_loop(reference::expression_ptr start, reference::expression_ptr stop,
                                 reference::expression_ptr step) {
    reference::statement_spec s;
    s.what = S::for_loop;
    s.where = {++line_, 9};
    s.loop_var = new_variable("r");
    s.start = start;
    s.stop = stop;
    s.step = step;
    s.range_arity = 3;
    return w_.make(s);
  }
  reference::statement_ptr dispatch(std::vector<reference::expression_ptr> args,
                                    reference::expression_ptr device) {
    reference::expression_spec e;
    e.what = E::function_call;
    e.callee = chip_;
    e.where = {line_ + 1, 13};
    e.args = args;
    const reference::keyword_argument kw[] = {{w_.intern("device"), device}};
    e.keywords = kw;
    return evaluate(w_.make(e));
  }

  reference::node_factory w_;
  shape shape_;
  std::uint32_t ids_ = 0;
  std::uint32_t line_ = 0;
  reference::signature_ptr chip_;
};

/// A program of the given shape (see the file comment).
inline reference::program_ptr synthetic_program(shape s) { return synthetic_builder(s).build(); }

} // namespace commscope::bench
