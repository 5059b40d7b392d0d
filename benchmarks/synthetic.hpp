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
// Nodes are built directly (not through builder.hpp) so that a million allocations fit
// in a few gigabytes: no per-node strings beyond names, one shape list per view.
#pragma once

#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
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
    auto chip_sig = std::make_shared<reference::signature>();
    chip_sig->name = "chip_orch";
    chip_sig->level = level::chip;
    chip_sig->orchestrator = true;
    chip_ = chip_sig;
    auto chip = std::make_shared<reference::function>();
    chip->sig = chip_sig;
    chip->params.push_back({new_variable("data")});
    chip->body.push_back(new_statement(S::return_));

    auto host_sig = std::make_shared<reference::signature>();
    host_sig->name = "host_orch";
    host_sig->level = level::host;
    host_sig->orchestrator = true;
    auto host = std::make_shared<reference::function>();
    host->sig = host_sig;
    host->where = {++line_, 5};
    auto& body = host->body;
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
        for (std::size_t i = 0; i < dispatched; ++i)
          loop->body.push_back(dispatch(args_of(i), use(loop->loop_var)));
        body.push_back(std::move(loop));
      } else {
        const auto lo = static_cast<std::int64_t>(2 * set);
        if ((group / k) % 2 == 0) {
          auto loop = for_loop(integer(lo), integer(lo + 2), integer(1));
          for (std::size_t i = 0; i < dispatched; ++i)
            loop->body.push_back(dispatch(args_of(i), use(loop->loop_var)));
          body.push_back(std::move(loop));
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

    auto p = std::make_shared<reference::program>();
    p->name = "synthetic";
    p->functions = {std::move(chip), std::move(host)};
    p->variable_bound = ids_;
    return p;
  }

private:
  reference::variable_ptr new_variable(std::string name) {
    auto v = std::make_shared<variable>();
    v->id = ids_++;
    v->name = std::move(name);
    return v;
  }
  std::shared_ptr<statement> new_statement(S k) {
    auto s = std::make_shared<statement>();
    s->what = k;
    s->where = {++line_, 9};
    return s;
  }
  static reference::expression_ptr integer(std::int64_t v) {
    auto e = std::make_shared<expression>();
    e->what = E::integer;
    e->value = v;
    return e;
  }
  static reference::expression_ptr use(const reference::variable_ptr& v) {
    auto e = std::make_shared<expression>();
    e->what = E::name;
    e->var = v;
    return e;
  }
  std::shared_ptr<expression> operation(commscope::operation op,
                                        std::vector<reference::expression_ptr> args) {
    auto e = std::make_shared<expression>();
    e->what = E::operation;
    e->op = op;
    e->where = {line_ + 1, 13};
    e->args = std::move(args);
    return e;
  }
  reference::expression_ptr alloc_call(const std::string& name, std::int64_t size) {
    auto e = operation(commscope::operation::alloc_window_buffer, {integer(size)});
    e->name = name;
    return e;
  }
  reference::expression_ptr window_call(const reference::variable_ptr& ptr) {
    auto shape = std::make_shared<expression>();
    shape->what = E::list;
    shape->args = {integer(256)};
    auto dtype = std::make_shared<expression>();
    dtype->what = E::name; // unbound: opaque to the pass
    dtype->text = "pl.FP32";
    auto e = operation(commscope::operation::window, {use(ptr), shape});
    e->keywords.push_back({"dtype", dtype});
    return e;
  }
  reference::variable_ptr assign(std::vector<reference::statement_ptr>& into, std::string name,
                                 reference::expression_ptr value) {
    auto s = new_statement(S::assign);
    auto v = new_variable(std::move(name));
    s->targets = {v};
    s->value = std::move(value);
    into.push_back(std::move(s));
    return v;
  }
  std::shared_ptr<statement> evaluate(reference::expression_ptr value) {
    auto s = new_statement(S::evaluate);
    s->value = std::move(value);
    return s;
  }
  std::shared_ptr<statement> for_loop(reference::expression_ptr start,
                                      reference::expression_ptr stop,
                                      reference::expression_ptr step) {
    auto s = new_statement(S::for_loop);
    s->loop_var = new_variable("r");
    s->start = std::move(start);
    s->stop = std::move(stop);
    s->step = std::move(step);
    s->range_arity = 3;
    return s;
  }
  std::shared_ptr<statement> dispatch(std::vector<reference::expression_ptr> args,
                                      reference::expression_ptr device) {
    auto e = std::make_shared<expression>();
    e->what = E::function_call;
    e->callee = chip_;
    e->text = chip_->name;
    e->where = {line_ + 1, 13};
    e->args = std::move(args);
    e->keywords.push_back({"device", std::move(device)});
    return evaluate(std::move(e));
  }

  shape shape_;
  std::uint32_t ids_ = 0;
  std::uint32_t line_ = 0;
  reference::signature_ptr chip_;
};

/// A program of the given shape (see the file comment).
inline reference::program_ptr synthetic_program(shape s) { return synthetic_builder(s).build(); }

} // namespace commscope::bench
