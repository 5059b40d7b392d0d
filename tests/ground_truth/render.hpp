// A model program (program.hpp) as the Python the DSL's authors write
// (docs/commscope-opt.md, "The text form: Python modules"; the style of tests/corpus): a
// module-level group of `@pl.jit` chip orchestrators and one `@pl.jit.host` host
// orchestrator whose conditions are calls of its parameters (each evaluation may differ,
// as the executor assumes). Spellings vary with the statement's number (`pld.` or
// `pld.tensor.`, `range` or `pl.range`, a tuple or a list), for breadth. A program that
// calls helpers has them too: `def stage(x)` at the top of the module, a `@pl.jit.host
// def helper(x)` after the chips: functions the pass does not follow.
#pragma once

#include "program.hpp"

#include <string>
#include <vector>

namespace ground_truth {

struct rendered {
  std::string text;
  std::vector<int> line; ///< per statement: the line of its call (a dispatch through a
                         ///< copy: the line after the copy)
  int host_line = 0;     ///< the host orchestrator's `def`
};

inline constexpr int max_arity = 3;

class renderer {
public:
  explicit renderer(const program& p) : p_(p) {}

  rendered operator()() {
    out_.line.assign(static_cast<std::size_t>(p_.statements), 0);
    put("import pypto.language as pl");
    put("import pypto.language.distributed as pld");
    if (has_escapes(p_, false)) {
      put("");
      put("");
      put("def stage(x):");
      put("    return x");
    }
    for (int n = 1; n <= max_arity; ++n) {
      put("");
      put("");
      put("@pl.jit");
      std::string params;
      for (int k = 0; k < n; ++k)
        params += (k ? ", x" : "x") + std::to_string(k);
      put("def chip" + std::to_string(n) + "(" + params + "):");
      put("    return x0");
    }
    if (has_escapes(p_, true)) {
      put("");
      put("");
      put("@pl.jit.host");
      put("def helper(x):");
      put("    return x");
    }
    put("");
    put("");
    put("@pl.jit.host");
    std::string params = "x";
    for (int c = 0; c < p_.conditions; ++c)
      params += ", c" + std::to_string(c);
    out_.host_line = line_ + 1;
    put("def host(" + params + "):");
    put_block(p_.body, 1);
    return std::move(out_);
  }

private:
  void put(const std::string& s) {
    out_.text += s;
    out_.text += '\n';
    ++line_;
  }
  void put(int indent, const std::string& s) {
    put(std::string(4 * static_cast<std::size_t>(indent), ' ') + s);
  }
  const std::string& name(int v) const { return p_.variables[static_cast<std::size_t>(v)].name; }
  static std::string prefix(const statement& s) { return s.id % 3 == 0 ? "pld." : "pld.tensor."; }
  static std::string condition(int c) { return "c" + std::to_string(c) + "()"; }
  std::string use(int v, operand o) const {
    switch (o.how) {
    case form::slice:
      return name(v) + "[0:32]";
    case form::method:
      return name(v) + ".reshape([8, 8])";
    case form::element:
      return name(v) + "[" + std::to_string(o.index) + "]";
    default:
      return name(v);
    }
  }
  /// A dispatch's or an escape's k-th argument.
  std::string argument(const statement& s, std::size_t k) const {
    return use(s.arguments[k], k < s.forms.size() ? s.forms[k] : operand{});
  }

  void put_block(const block& b, int indent) {
    if (b.empty())
      put(indent, "pass");
    for (const auto& s : b)
      put_statement(s, indent);
  }

  void put_statement(const statement& s, int indent) {
    auto& at = out_.line[static_cast<std::size_t>(s.id)];
    at = line_ + 1;
    switch (s.kind) {
    case statement_kind::allocate:
      put(indent, name(s.target) + " = " + prefix(s) + "alloc_window_buffer(" +
                      std::to_string(s.size) + ")");
      return;
    case statement_kind::window:
      put(indent,
          name(s.target) + " = " + prefix(s) + "window(" +
              (s.from.how == form::element ? "(" + name(s.source) + ", 0)[0]" : name(s.source)) +
              ", [16], dtype=pl.FP32)");
      return;
    case statement_kind::copy:
      put(indent, name(s.target) + " = " + name(s.source));
      return;
    case statement_kind::constant:
      put(indent, name(s.target) + " = " + std::to_string(s.constant));
      return;
    case statement_kind::with_block:
      put(indent, "with pl.at(level=pl.Level.HOST):");
      put_block(s.blocks[0], indent + 1);
      return;
    case statement_kind::parallel: {
      std::string targets, values;
      for (std::size_t k = 0; k < s.arguments.size(); ++k) {
        targets += (k ? ", " : "") + name(s.arguments[k]);
        values += (k ? ", " : "") + name(s.sources[k]);
      }
      put(indent, targets + " = " + values);
      return;
    }
    case statement_kind::dispatch: {
      std::string device =
          s.device_variable < 0 ? std::to_string(s.constant) : name(s.device_variable);
      if (s.through_copy) {
        put(indent, name(p_.device_copy) + " = " + device);
        device = name(p_.device_copy);
        ++at;
      }
      std::string call = "chip" + std::to_string(s.arguments.size()) + "(";
      for (std::size_t k = 0; k < s.arguments.size(); ++k)
        call +=
            (s.keywords ? "x" + std::to_string(k) + "=" : std::string()) + argument(s, k) + ", ";
      call += "device=" + device + ")";
      if (s.guarded)
        call += " if " + condition(s.conditions[0]) + " else None";
      if (s.target >= 0)
        call = name(s.target) + " = " + call;
      put(indent, call);
      return;
    }
    case statement_kind::derive:
      put(indent, name(s.target) + " = " + use(s.source, s.from));
      return;
    case statement_kind::pack: {
      std::string values;
      for (std::size_t k = 0; k < s.sources.size(); ++k)
        values += (k ? ", " : "") + name(s.sources[k]);
      put(indent, name(s.target) + " = " + (s.id % 2 ? "[" + values + "]" : "(" + values + ")"));
      return;
    }
    case statement_kind::unpack: {
      std::string targets;
      for (std::size_t k = 0; k < s.arguments.size(); ++k)
        targets += (k ? ", " : "") + name(s.arguments[k]);
      put(indent, targets + " = " + name(s.source));
      return;
    }
    case statement_kind::choose:
      put(indent, name(s.target) + " = " + name(s.sources[0]) + " if " +
                      condition(s.conditions[0]) + " else " + name(s.sources[1]));
      return;
    case statement_kind::escape: {
      if (s.store != 0) {
        const std::string arg = argument(s, 0);
        put(indent, s.store == 1   ? "x.held = " + arg
                    : s.store == 2 ? "(kept := " + arg + ")"
                                   : "def later(): return " + arg);
        return;
      }
      std::string call = s.else_ ? "helper(" : "stage(";
      for (std::size_t k = 0; k < s.arguments.size(); ++k)
        call += (k ? ", " : "") + argument(s, k);
      put(indent, call + ")");
      return;
    }
    case statement_kind::collective: {
      std::string call = s.target >= 0 ? name(s.target) + " = " : "";
      call += prefix(s) + shape(s.op).name + "(";
      for (std::size_t k = 0; k < s.arguments.size(); ++k)
        call += (k ? ", " : "") + (s.arguments[k] < 0 ? std::string("x") : name(s.arguments[k]));
      put(indent, call + ")");
      return;
    }
    case statement_kind::if_else:
      for (std::size_t k = 0; k < s.blocks.size(); ++k) {
        if (k < s.conditions.size())
          put(indent, (k ? "elif " : "if ") + condition(s.conditions[k]) + ":");
        else
          put(indent, "else:");
        put_block(s.blocks[k], indent + 1);
      }
      return;
    case statement_kind::for_world: {
      std::string world = s.id % 2 ? "pld.world_size()" : "pld.system.world_size()";
      if (s.world_offset != 0)
        world += " - " + std::to_string(s.world_offset);
      if (partial_world(s))
        world = std::to_string(s.start) + ", " + world +
                (s.step != 1 ? ", " + std::to_string(s.step) : std::string());
      put(indent, "for " + name(s.target) + " in " + (s.builtin_range ? "range(" : "pl.range(") +
                      world + "):");
      put_block(s.blocks[0], indent + 1);
      return;
    }
    case statement_kind::for_range: {
      std::string bounds = std::to_string(s.stop);
      if (s.start != 0 || s.step != 1 || s.id % 2)
        bounds = std::to_string(s.start) + ", " + bounds;
      if (s.step != 1)
        bounds += ", " + std::to_string(s.step);
      put(indent, "for " + name(s.target) + " in " + (s.builtin_range ? "range(" : "pl.range(") +
                      bounds + "):");
      put_block(s.blocks[0], indent + 1);
      return;
    }
    case statement_kind::for_items: {
      using r = statement::repacking;
      const std::string t = name(s.source), id = std::to_string(s.id);
      switch (s.repack) {
      case r::none:
        put(indent, "for " + name(s.target) + " in " + t + ":");
        break;
      case r::list:
      case r::tuple:
      case r::reversed: {
        const char* f = s.repack == r::list ? "list" : s.repack == r::tuple ? "tuple" : "reversed";
        put(indent, "for " + name(s.target) + " in " + f + "(" + t + "):");
        break;
      }
      case r::enumerate:
        put(indent, "for e" + id + ", " + name(s.target) + " in enumerate(" + t + "):");
        break;
      case r::zip:
        put(indent, "for " + name(s.target) + ", z" + id + " in zip(" + t + ", " + t + "):");
        break;
      }
      put_block(s.blocks[0], indent + 1);
      return;
    }
    case statement_kind::while_loop:
      put(indent, "while " + condition(s.conditions[0]) + ":");
      put_block(s.blocks[0], indent + 1);
      return;
    case statement_kind::jump:
      put(indent, s.else_ ? "continue" : "break");
      return;
    case statement_kind::return_:
      put(indent, "return x");
      return;
    }
  }

  const program& p_;
  rendered out_;
  int line_ = 0;
};

inline rendered render(const program& p) { return renderer(p)(); }

} // namespace ground_truth
