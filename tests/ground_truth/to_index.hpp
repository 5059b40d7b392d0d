// A model program (program.hpp) built directly in the index IR (tests/index_ir), the way
// a compiler that rebinds variables would hand it to the library: one variable per name,
// an if as one statement of alternatives, a `with` as a block that runs once,
// break/continue as jumps, `a, b = b, a` as a parallel assignment, `stage(v)` as a call of a
// function that is no chip orchestrator. Lines are those of the rendered text, so that the
// two plans' diagnostics compare. The index IR's expressions other than calls have no
// operands: a program with derived values, tuples or conditional expressions
// (has_expressions) is not written here, but judged on the front end's plan alone.
#pragma once

#include "../index_ir/builder.hpp"
#include "program.hpp"
#include "render.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ground_truth {

class index_writer {
public:
  index_writer(const program& p, const rendered& r, index_ir::program& out)
      : p_(p), r_(r), b_(out) {}

  void operator()() {
    for (int n = 1; n <= max_arity; ++n) {
      chips_.push_back("chip" + std::to_string(n));
      b_.function({chips_.back(), commscope::level::chip, true, false}, {});
    }
    b_.function({"host", commscope::level::host, true, false}, write(p_.body));
  }

private:
  using stmts = index_ir::builder::stmts;
  std::string_view name(int v) const { return p_.variables[static_cast<std::size_t>(v)].name; }
  index_ir::ex use(int v, index_ir::location at) { return b_.use(name(v), at); }

  stmts write(const block& b) {
    stmts out;
    for (const auto& s : b)
      write(s, out);
    return out;
  }

  void write(const statement& s, stmts& out) {
    const index_ir::location at{static_cast<std::uint32_t>(r_.line[static_cast<std::size_t>(s.id)]),
                                1};
    using commscope::operation;
    switch (s.kind) {
    case statement_kind::allocate:
      out.push_back(
          b_.assign(name(s.target), b_.allocation(name(s.target), b_.integer(s.size), at), at));
      return;
    case statement_kind::window:
      out.push_back(b_.assign(
          name(s.target), b_.call(operation::window, {use(s.source, at), b_.opaque(at)}, at), at));
      return;
    case statement_kind::copy:
      out.push_back(b_.assign(name(s.target), use(s.source, at), at));
      return;
    case statement_kind::constant:
      out.push_back(b_.assign(name(s.target), b_.integer(s.constant, at), at));
      return;
    case statement_kind::with_block:
      out.push_back(b_.block(write(s.blocks[0]), at));
      return;
    case statement_kind::parallel: {
      std::vector<std::string_view> targets;
      std::vector<index_ir::ex> values;
      for (std::size_t k = 0; k < s.arguments.size(); ++k) {
        targets.push_back(name(s.arguments[k]));
        values.push_back(use(s.sources[k], at));
      }
      out.push_back(b_.assign_parallel(targets, values, at));
      return;
    }
    case statement_kind::dispatch: {
      index_ir::ex device =
          s.device_variable < 0 ? b_.integer(s.constant, at) : use(s.device_variable, at);
      if (s.through_copy) {
        const index_ir::location before{at.line - 1, 1};
        out.push_back(b_.assign(name(p_.device_copy),
                                s.device_variable < 0 ? b_.integer(s.constant, before)
                                                      : use(s.device_variable, before),
                                before));
        device = use(p_.device_copy, at);
      }
      std::vector<index_ir::ex> args;
      for (int a : s.arguments)
        args.push_back(use(a, at));
      const commscope::function_info chip{chips_[s.arguments.size() - 1], commscope::level::chip,
                                          true, false};
      out.push_back(b_.evaluate(b_.call(commscope::call_target::of(chip), args, device, at), at));
      // What the chip returns, its x0, bound as a copy: this IR says nothing of what a
      // chip orchestrator returns, so its value would be any of the arguments.
      if (s.target >= 0)
        out.push_back(b_.assign(name(s.target), use(s.arguments[0], at), at));
      return;
    }
    case statement_kind::collective: {
      std::vector<index_ir::ex> args;
      for (int a : s.arguments)
        args.push_back(a < 0 ? b_.use("x", at) : use(a, at));
      const auto call =
          b_.call(commscope::call_target::of(operation_of(s.op)), args, std::nullopt, at);
      out.push_back(s.target >= 0 ? b_.assign(name(s.target), call, at) : b_.evaluate(call, at));
      return;
    }
    case statement_kind::if_else: {
      std::vector<stmts> branches;
      for (const auto& branch : s.blocks)
        branches.push_back(write(branch));
      if (!s.else_)
        branches.emplace_back();
      out.push_back(b_.if_else(b_.opaque(at), branches, at));
      return;
    }
    case statement_kind::for_world:
      // The index IR has no symbolic sets: `world_size() - C` is opaque to it.
      out.push_back(
          b_.for_loop(name(s.target), b_.integer(s.start, at),
                      s.world_offset != 0 ? b_.opaque(at) : b_.call(operation::world_size, {}, at),
                      b_.integer(s.step, at), write(s.blocks[0]), at));
      return;
    case statement_kind::for_range:
      out.push_back(b_.for_loop(name(s.target), b_.integer(s.start, at), b_.integer(s.stop, at),
                                b_.integer(s.step, at), write(s.blocks[0]), at));
      return;
    case statement_kind::while_loop:
      out.push_back(b_.while_loop(b_.opaque(at), write(s.blocks[0]), at));
      return;
    case statement_kind::jump:
      out.push_back(b_.jump(at));
      return;
    case statement_kind::return_:
      out.push_back(b_.returns(b_.use("x", at), at));
      return;
    case statement_kind::escape: {
      std::vector<index_ir::ex> args;
      for (int a : s.arguments)
        args.push_back(use(a, at));
      const commscope::function_info helper =
          s.else_ ? commscope::function_info{"helper", commscope::level::host, true, false}
                  : commscope::function_info{"stage", commscope::level::other, false, false};
      out.push_back(
          b_.evaluate(b_.call(commscope::call_target::of(helper), args, std::nullopt, at), at));
      return;
    }
    case statement_kind::derive: // has_expressions: not written (see above)
    case statement_kind::pack:
    case statement_kind::unpack:
    case statement_kind::choose:
    case statement_kind::for_items:
      return;
    }
  }

  static commscope::operation operation_of(collective c) {
    using commscope::operation;
    constexpr operation ops[] = {
        operation::allreduce, operation::broadcast,  operation::reduce_scatter, operation::barrier,
        operation::allgather, operation::all_to_all, operation::all_to_all_v};
    return ops[static_cast<int>(c)];
  }

  const program& p_;
  const rendered& r_;
  index_ir::builder b_;
  std::vector<std::string> chips_;
};

/// The program in the index IR.
inline std::unique_ptr<index_ir::program> to_index(const program& p, const rendered& r) {
  auto out = std::make_unique<index_ir::program>();
  index_writer(p, r, *out)();
  return out;
}

} // namespace ground_truth
