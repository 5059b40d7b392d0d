// Rebuilds a compile-time test program in the reference IR, node for node, through the
// reference builder: the run-time half of the table checks the very same program.
#pragma once

#include <commscope/compile_time/expect.hpp>
#include <commscope/compile_time/ir.hpp>
#include <commscope/reference/builder.hpp>
#include <commscope/reference/traits.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// The reference IR names its variables; expectations name views by it.
template <>
struct commscope::compile_time::variable_names<
    commscope::ir_traits<commscope::reference::program_ptr>> {
  static std::string_view of(const commscope::reference::variable* v) { return v->name; }
};

namespace ct_cases {

template <std::size_t N> class reference_lowering {
public:
  using source = commscope::compile_time::basic_program<N>;

  explicit reference_lowering(const source& p) : p_(p), vars_(p.variable_count) {}

  commscope::reference::program_ptr run() {
    using namespace commscope::reference;
    program_builder pb;
    // Functions first, host orchestrators after (their bodies call the others); the
    // relative order of host orchestrators, which is what the plan sees, is kept.
    std::vector<signature_ptr> sigs(p_.function_count);
    for (std::uint32_t i = 0; i < p_.function_count; ++i) {
      const auto& info = p_.functions[i].info;
      if (info.is_host_orchestrator())
        continue;
      sigs[i] = info.is_chip_orchestrator() ? pb.chip_orchestrator(std::string(info.name))
                                            : pb.other_function(std::string(info.name), info.level,
                                                                info.orchestrator, info.graph);
      callees_.push_back({info.name, sigs[i]});
    }
    for (std::uint32_t i = 0; i < p_.function_count; ++i) {
      const auto& f = p_.functions[i];
      if (!f.info.is_host_orchestrator())
        continue;
      h_ = &pb.host_orchestrator(std::string(f.info.name));
      for (std::uint32_t k = 0; k < f.count; ++k)
        statement(p_.statement_lists[f.first + k]);
    }
    return pb.finish();
  }

private:
  using ex = commscope::reference::ex;

  ex expression(std::uint32_t i) {
    using commscope::expression_kind;
    const auto& n = p_.expressions[i];
    switch (n.kind) {
    case expression_kind::integer:
      return ex(n.value);
    case expression_kind::variable:
      return ex(vars_[n.variable]);
    case expression_kind::call:
      return call(n);
    case expression_kind::other:
      if (n.name == "-" && n.count == 1) // minus(x, C): `x - C`
        return commscope::reference::function_builder::binary(
            "-", expression(p_.expression_lists[n.first]), ex(n.value));
      break;
    }
    return commscope::reference::function_builder::list(arguments(n));
  }

  std::vector<ex> arguments(const commscope::compile_time::expression_node& n) {
    std::vector<ex> r;
    for (std::uint32_t k = 0; k < n.count; ++k)
      r.push_back(expression(p_.expression_lists[n.first + k]));
    return r;
  }

  ex call(const commscope::compile_time::expression_node& n) {
    using kind = commscope::call_target::kind;
    auto args = arguments(n);
    switch (n.target.what) {
    case kind::operation: {
      ex e = h_->operation(n.target.op, std::move(args));
      if (n.target.op == commscope::operation::alloc_window_buffer) // what the front end sets
        h_->name_allocation(e, n.name);
      return e;
    }
    case kind::function: {
      std::optional<ex> device;
      if (n.device != commscope::compile_time::none)
        device = expression(n.device);
      return h_->call(callee(n.target.callee.name), std::move(args), std::move(device));
    }
    case kind::unresolved_function:
      break;
    }
    return h_->call_unknown(std::string(n.target.callee.name), std::move(args));
  }

  commscope::reference::signature_ptr callee(std::string_view name) const {
    for (const auto& [n, s] : callees_)
      if (n == name)
        return s;
    return nullptr;
  }

  void children(const commscope::compile_time::statement_node& s, std::uint32_t from,
                std::uint32_t to) {
    for (std::uint32_t k = from; k < to; ++k)
      statement(p_.statement_lists[s.first + k]);
  }
  void children(const commscope::compile_time::statement_node& s) { children(s, 0, s.count); }

  void statement(std::uint32_t i) {
    using commscope::statement_kind;
    const auto& s = p_.statements[i];
    switch (s.kind) {
    case statement_kind::assignment: {
      auto value = expression(s.value); // before the binding: `x = x` uses the old x
      if (vars_[s.target])              // a name bound again: the same variable
        h_->assign_to(vars_[s.target], value);
      else
        vars_[s.target] = h_->assign(std::string(p_.variables[s.target].name), value);
      return;
    }
    case statement_kind::evaluation:
      h_->evaluate(expression(s.value));
      return;
    case statement_kind::for_loop: {
      auto start = expression(s.start);
      auto stop = expression(s.stop);
      auto step = expression(s.step);
      vars_[s.loop_variable] =
          h_->for_range(std::string(p_.variables[s.loop_variable].name), start, stop, step);
      children(s);
      h_->end();
      return;
    }
    case statement_kind::while_loop:
      h_->begin_while(expression(s.value));
      children(s);
      h_->end();
      return;
    case statement_kind::jump:
      h_->jump();
      return;
    case statement_kind::scope:   // the compile-time IR is never materialized
    case statement_kind::return_: // nor builds returns
    case statement_kind::other:
      h_->begin_if(expression(s.value));
      children(s, 0, s.split);
      if (s.split < s.count) {
        h_->begin_else();
        children(s, s.split, s.count);
      }
      h_->end();
      return;
    }
  }

  const source& p_;
  std::vector<commscope::reference::variable_ptr> vars_;
  std::vector<std::pair<std::string_view, commscope::reference::signature_ptr>> callees_;
  commscope::reference::function_builder* h_ = nullptr;
};

template <std::size_t N>
commscope::reference::program_ptr to_reference(const commscope::compile_time::basic_program<N>& p) {
  return reference_lowering<N>(p).run();
}

} // namespace ct_cases
