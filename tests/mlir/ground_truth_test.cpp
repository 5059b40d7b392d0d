// The MLIR adapter's ground-truth checker: random host orchestrators written as MLIR text
// from a small model this file owns (allocations, their views, more views anywhere, even
// in branches and loops, dispatches on constant devices or on the induction variable of
// an scf.for / affine.for over a constant range, some cast to i32, and views flowing through scf.if
// results, loop iter_args, arith.select, tensor.cast, builtin.unrealized_conversion_cast
// and the blocks of an scf.execute_region, some with one back edge). The model is
// executed concretely (not MLIR) for every combination of its i1 arguments and of the
// back edges' trip counts (0, 1 or 2 each time the region runs), and the analysis of the
// parsed program is judged against it:
//   - every program is valid (each allocation has a view and a dispatch reaches it), so
//     any diagnostic is a false error;
//   - each allocation's analyzed device set holds every device some execution dispatches
//     a view of it to (else unsound); it is exact or soundly wider, counted.
// A second run (a quarter as many programs) makes half its extra windows mixed: their
// pointer is an arith.select of an allocation's pointer and a view (cast to i64). Such a
// program must be rejected, by one view-escapes at each mixed window that some execution
// reaches (if missing, unsound: the view's allocation would be used uncounted), at most
// one at each other mixed window, and nothing else.
//
// COMMSCOPE_MLIR_GT_SEED and COMMSCOPE_MLIR_GT_COUNT choose the programs (by default 500,
// or 100 in a build with assertions; program k is generated from seed + k, so one program
// reruns alone with COUNT=1); COMMSCOPE_MLIR_GT_SHOW failures are printed (3), and
// COMMSCOPE_MLIR_GT_PRINT=1 prints every program.
#include <commscope/commscope.hpp>
#include <commscope/mlir/traits.hpp>

#include <mlir/Dialect/Affine/IR/AffineOps.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlowOps.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/Dialect/Tensor/IR/Tensor.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/Parser/Parser.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using mlir_traits = commscope::ir_traits<mlir::ModuleOp>;

constexpr int device_count = 8; ///< constant devices 0..7; loop bounds up to 8

// ---- the model

/// A dispatch's device: a constant, or the induction variable `iv` of an enclosing loop;
/// `cast`: passed as an i32 (arith.index_cast), which keeps its value.
struct device_ref {
  bool iv = false;
  int value = 0;
  bool cast = false;
};

enum class op_kind {
  dispatch,
  window,
  mixed_window, ///< a window of arith.select %p<cond>, %a<allocation>, (view as i64)
  select,
  cast,
  unrealized_cast,
  if_,
  for_,
  affine_for,
  region
};

struct op;
using ops = std::vector<op>;

/// A block of an scf.execute_region: its arguments (view ids), body and terminator.
struct cfg_block {
  enum class end { br, cond_br, back, yield };
  std::vector<int> args;
  ops body;
  end term = end::yield;
  int cond = 0;                ///< cond_br: the function argument %p<cond>
  int first = -1, second = -1; ///< successors; back: first is the back edge's target
  std::vector<int> first_args, second_args, yields;
};

struct op {
  op_kind kind = op_kind::dispatch;
  std::vector<int> results;  ///< view ids
  std::vector<int> operands; ///< dispatch: views; window: the allocation; mixed window:
                             ///< the allocation, the view; select: a, b; casts: the source;
                             ///< loops: inits
  device_ref device;
  int cond = 0; ///< select, mixed window, if: %p<cond>
  int lo = 0, hi = 0, iv = -1;
  std::vector<int> iter_args;
  ops body, else_body; ///< if: then and else; loops: the body
  std::vector<int> yields, else_yields;
  bool has_else = false;
  std::vector<cfg_block> blocks; ///< region: blocks[0] is the entry
  std::vector<int> text_order;   ///< region: the other blocks, in the order written
};

struct program {
  int allocations = 0; ///< allocation a has view a
  int conditions = 0;  ///< i1 arguments %p0...
  int views = 0, ivs = 0;
  ops body;
};

// ---- the generator

class generator {
public:
  /// `mixed`: some windows are mixed windows (without, the same seed makes the same
  /// program as it always did).
  explicit generator(std::uint64_t seed, bool mixed = false) : rng_(seed), mixed_(mixed) {}

  program make() {
    program p;
    p_ = &p;
    p.allocations = 1 + pick(4) + pick(2);
    p.conditions = 1 + pick(3);
    p.views = p.allocations;
    scope s;
    for (int a = 0; a < p.allocations; ++a)
      s.views.push_back(a);
    p.body = block(s, 2 + pick(5), 3, 1);
    return p;
  }

private:
  struct scope {
    std::vector<int> views, ivs;
  };
  std::mt19937_64 rng_;
  bool mixed_ = false;
  program* p_ = nullptr;

  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  int fresh() { return p_->views++; }
  int any(const scope& s) {
    return s.views[static_cast<std::size_t>(pick(static_cast<int>(s.views.size())))];
  }
  std::vector<int> some(const scope& s, int n) {
    std::vector<int> out;
    for (int i = 0; i < n; ++i)
      out.push_back(any(s));
    return out;
  }
  std::vector<int> fresh(int n) {
    std::vector<int> out;
    for (int i = 0; i < n; ++i)
      out.push_back(fresh());
    return out;
  }

  ops block(scope& s, int n, int depth, int runs) {
    ops out;
    for (int i = 0; i < n; ++i)
      out.push_back(statement(s, depth, runs));
    return out;
  }

  op statement(scope& s, int depth, int runs) {
    int r = pick(100);
    if (depth <= 0)
      r %= 50; // no nested regions
    op o;
    if (r < 30) {
      o.kind = op_kind::dispatch;
      o.operands = some(s, 1 + pick(2));
      if (!s.ivs.empty() && chance(50))
        o.device = {true, s.ivs[static_cast<std::size_t>(pick(static_cast<int>(s.ivs.size())))]};
      else
        o.device = {false, pick(device_count)};
      o.device.cast = chance(25);
      return o;
    }
    if (r < 34) {
      o.kind = op_kind::window; // another view, wherever it is
      o.operands = {pick(p_->allocations)};
      o.results = fresh(1);
      if (mixed_ && chance(50)) {
        o.kind = op_kind::mixed_window;
        o.cond = pick(p_->conditions);
        o.operands.push_back(any(s));
      }
    } else if (r < 40) {
      o.kind = op_kind::select;
      o.cond = pick(p_->conditions);
      o.operands = some(s, 2);
      o.results = fresh(1);
    } else if (r < 50) {
      o.kind = r < 44 ? op_kind::cast : op_kind::unrealized_cast;
      o.operands = some(s, 1);
      o.results = fresh(1);
    } else if (r < 64) {
      o.kind = op_kind::if_;
      o.cond = pick(p_->conditions);
      const int results = pick(3);
      scope then_scope = s;
      o.body = block(then_scope, pick(3), depth - 1, runs);
      o.yields = some(then_scope, results);
      o.has_else = results > 0 || chance(50);
      if (o.has_else) {
        scope else_scope = s;
        o.else_body = block(else_scope, pick(3), depth - 1, runs);
        o.else_yields = some(else_scope, results);
      }
      o.results = fresh(results);
    } else if (r < 86) {
      o.kind = r < 77 ? op_kind::for_ : op_kind::affine_for;
      const int carried = pick(3);
      o.lo = pick(4);
      o.hi = o.lo + pick(5);
      o.operands = some(s, carried);
      scope body = s;
      o.iv = p_->ivs++;
      body.ivs.push_back(o.iv);
      o.iter_args = fresh(carried);
      body.views.insert(body.views.end(), o.iter_args.begin(), o.iter_args.end());
      o.body = block(body, 1 + pick(3), depth - 1, runs * std::max(1, o.hi - o.lo));
      o.yields = some(body, carried);
      o.results = fresh(carried);
    } else {
      o.kind = op_kind::region;
      region(o, s, depth, runs);
    }
    s.views.insert(s.views.end(), o.results.begin(), o.results.end());
    return o;
  }

  /// An acyclic CFG in topological order (then written shuffled), and at most one back
  /// edge from block j to a block in [1, j], unless the region may run more than 4 times
  /// (`runs`: the trip counts of the loops around it, 3 for each enclosing CFG's back
  /// edge): the executions to enumerate multiply by 3 each time a region with one runs.
  void region(op& o, const scope& s, int depth, int runs) {
    const int results = pick(3);
    const int n = 2 + pick(4);
    o.blocks.resize(static_cast<std::size_t>(n));
    for (int i = 1; i < n; ++i)
      o.blocks[static_cast<std::size_t>(i)].args = fresh(pick(3));
    const int back = runs <= 4 && n >= 3 && chance(40) ? 1 + pick(n - 2) : -1;
    const auto args_for = [&](const scope& bs, int target) {
      return some(bs, static_cast<int>(o.blocks[static_cast<std::size_t>(target)].args.size()));
    };
    for (int i = 0; i < n; ++i) {
      auto& b = o.blocks[static_cast<std::size_t>(i)];
      scope bs = s;
      bs.views.insert(bs.views.end(), b.args.begin(), b.args.end());
      b.body = block(bs, pick(3), depth - 1, back >= 0 ? runs * 3 : runs);
      const int later = n - 1 - i;
      if (i == back) {
        b.term = cfg_block::end::back;
        b.first = 1 + pick(i);
        b.second = i + 1 + pick(later);
      } else if (later == 0 || (i > 0 && chance(10))) {
        b.term = cfg_block::end::yield;
        b.yields = some(bs, results);
        continue;
      } else if (later >= 2 && chance(60)) {
        b.term = cfg_block::end::cond_br;
        b.cond = pick(p_->conditions);
        b.first = i + 1 + pick(later);
        do
          b.second = i + 1 + pick(later);
        while (b.second == b.first);
      } else {
        b.term = cfg_block::end::br;
        b.first = i + 1 + pick(later);
      }
      b.first_args = args_for(bs, b.first);
      if (b.second >= 0)
        b.second_args = args_for(bs, b.second);
    }
    for (int i = 1; i < n; ++i)
      o.text_order.push_back(i);
    for (std::size_t i = o.text_order.size(); i > 1; --i)
      std::swap(o.text_order[i - 1],
                o.text_order[static_cast<std::size_t>(pick(static_cast<int>(i)))]);
    o.results = fresh(results);
  }
};

// ---- MLIR text

class renderer {
public:
  std::string text;
  std::vector<std::pair<int, unsigned>> mixed_lines; ///< a mixed window's result, its line
  int casts = 0; ///< devices cast to i32 so far (their values' names)

  explicit renderer(const program& p) {
    text += "func.func private @chip1(tensor<64xf32>) attributes {pld.level = \"chip\", "
            "pld.role = \"orchestrator\"}\n";
    text += "func.func private @chip2(tensor<64xf32>, tensor<64xf32>) attributes {pld.level = "
            "\"chip\", pld.role = \"orchestrator\"}\n";
    text += "func.func @host(";
    for (int c = 0; c < p.conditions; ++c)
      text += "%p" + std::to_string(c) + ": i1, ";
    text += "%q: i1) attributes {pld.level = \"host\", pld.role = \"orchestrator\"} {\n";
    for (int c = 0; c <= device_count; ++c)
      line(1, "%c" + std::to_string(c) + " = arith.constant " + std::to_string(c) + " : index");
    line(1, "%c64 = arith.constant 64 : index");
    for (int a = 0; a < p.allocations; ++a) {
      const auto n = std::to_string(a);
      line(1,
           "%a" + n + " = pld.alloc_window_buffer(%c64) {name = \"a" + n + "\"} : (index) -> i64");
      line(1, "%v" + n + " = pld.window(%a" + n + ", %c64) : (i64, index) -> tensor<64xf32>");
    }
    block(p.body, 1);
    line(1, "return");
    text += "}\n";
  }

private:
  int next_label_ = 0;

  void line(int indent, const std::string& s) {
    text.append(static_cast<std::size_t>(indent) * 2, ' ');
    text += s;
    text += '\n';
  }
  static std::string v(int id) { return "%v" + std::to_string(id); }
  static std::string list(const std::vector<int>& ids) {
    std::string s;
    for (std::size_t i = 0; i < ids.size(); ++i)
      s += (i ? ", " : "") + v(ids[i]);
    return s;
  }
  static std::string types(std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i)
      s += i ? ", tensor<64xf32>" : "tensor<64xf32>";
    return s;
  }
  static std::string results(const op& o) {
    return o.results.empty() ? "" : list(o.results) + " = ";
  }
  static std::string yield(std::string_view what, const std::vector<int>& ids) {
    return std::string(what) + (ids.empty() ? "" : " " + list(ids) + " : " + types(ids.size()));
  }
  static std::string successor(const std::string& label, const std::vector<int>& args) {
    return label + (args.empty() ? "" : "(" + list(args) + " : " + types(args.size()) + ")");
  }

  void block(const ops& body, int indent) {
    for (const auto& o : body)
      statement(o, indent);
  }

  void statement(const op& o, int indent) {
    switch (o.kind) {
    case op_kind::dispatch: {
      std::string device = (o.device.iv ? "%i" : "%c") + std::to_string(o.device.value);
      if (o.device.cast) {
        const std::string cast = "%d" + std::to_string(casts++);
        line(indent, cast + " = arith.index_cast " + device + " : index to i32");
        device = cast;
      }
      line(indent, "pld.dispatch @chip" + std::to_string(o.operands.size()) + "(" + device + ", " +
                       list(o.operands) + ") : (" + (o.device.cast ? "i32" : "index") + ", " +
                       types(o.operands.size()) + ") -> ()");
      return;
    }
    case op_kind::window:
      line(indent, results(o) + "pld.window(%a" + std::to_string(o.operands[0]) +
                       ", %c64) : (i64, index) -> tensor<64xf32>");
      return;
    case op_kind::mixed_window: {
      const auto r = v(o.results[0]);
      line(indent, r + "_i = builtin.unrealized_conversion_cast " + v(o.operands[1]) +
                       " : tensor<64xf32> to i64");
      line(indent, r + "_s = arith.select %p" + std::to_string(o.cond) + ", %a" +
                       std::to_string(o.operands[0]) + ", " + r + "_i : i64");
      mixed_lines.emplace_back(o.results[0],
                               static_cast<unsigned>(std::ranges::count(text, '\n')) + 1);
      line(indent, results(o) + "pld.window(" + r + "_s, %c64) : (i64, index) -> tensor<64xf32>");
      return;
    }
    case op_kind::select:
      line(indent, results(o) + "arith.select %p" + std::to_string(o.cond) + ", " +
                       list(o.operands) + " : tensor<64xf32>");
      return;
    case op_kind::cast:
      line(indent, v(o.results[0]) + "_d = tensor.cast " + v(o.operands[0]) +
                       " : tensor<64xf32> to tensor<?xf32>");
      line(indent,
           results(o) + "tensor.cast " + v(o.results[0]) + "_d : tensor<?xf32> to tensor<64xf32>");
      return;
    case op_kind::unrealized_cast:
      line(indent, results(o) + "builtin.unrealized_conversion_cast " + v(o.operands[0]) +
                       " : tensor<64xf32> to tensor<64xf32>");
      return;
    case op_kind::if_: {
      const auto ts = o.results.empty() ? "" : " -> (" + types(o.results.size()) + ")";
      line(indent, results(o) + "scf.if %p" + std::to_string(o.cond) + ts + " {");
      block(o.body, indent + 1);
      if (!o.results.empty())
        line(indent + 1, yield("scf.yield", o.yields));
      if (o.has_else) {
        line(indent, "} else {");
        block(o.else_body, indent + 1);
        if (!o.results.empty())
          line(indent + 1, yield("scf.yield", o.else_yields));
      }
      line(indent, "}");
      return;
    }
    case op_kind::for_:
    case op_kind::affine_for: {
      const bool affine = o.kind == op_kind::affine_for;
      const auto iv = "%i" + std::to_string(o.iv);
      std::string head = results(o) + (affine ? "affine.for " : "scf.for ") + iv + " = ";
      head += affine ? std::to_string(o.lo) + " to " + std::to_string(o.hi)
                     : "%c" + std::to_string(o.lo) + " to %c" + std::to_string(o.hi) + " step %c1";
      if (!o.results.empty()) {
        head += " iter_args(";
        for (std::size_t i = 0; i < o.iter_args.size(); ++i)
          head += (i ? ", " : "") + v(o.iter_args[i]) + " = " + v(o.operands[i]);
        head += ") -> (" + types(o.results.size()) + ")";
      }
      line(indent, head + " {");
      block(o.body, indent + 1);
      if (!o.results.empty())
        line(indent + 1, yield(affine ? "affine.yield" : "scf.yield", o.yields));
      line(indent, "}");
      return;
    }
    case op_kind::region: {
      const int base = next_label_;
      next_label_ += static_cast<int>(o.blocks.size());
      const auto label = [&](int b) { return "^b" + std::to_string(base + b); };
      const auto ts = o.results.empty() ? "" : " -> (" + types(o.results.size()) + ")";
      line(indent, results(o) + "scf.execute_region" + ts + " {");
      std::vector<int> order{0};
      order.insert(order.end(), o.text_order.begin(), o.text_order.end());
      for (const int i : order) {
        const auto& b = o.blocks[static_cast<std::size_t>(i)];
        if (i != 0) {
          std::string head = label(i);
          if (!b.args.empty()) {
            head += "(";
            for (std::size_t k = 0; k < b.args.size(); ++k)
              head += (k ? ", " : "") + v(b.args[k]) + ": tensor<64xf32>";
            head += ")";
          }
          line(indent, head + ":");
        }
        block(b.body, indent + 1);
        switch (b.term) {
        case cfg_block::end::yield:
          line(indent + 1, yield("scf.yield", b.yields));
          break;
        case cfg_block::end::br:
          line(indent + 1, "cf.br " + successor(label(b.first), b.first_args));
          break;
        case cfg_block::end::cond_br:
        case cfg_block::end::back:
          line(indent + 1, "cf.cond_br " +
                               (b.term == cfg_block::end::back ? std::string("%q")
                                                               : "%p" + std::to_string(b.cond)) +
                               ", " + successor(label(b.first), b.first_args) + ", " +
                               successor(label(b.second), b.second_args));
          break;
        }
      }
      line(indent, "}");
      return;
    }
    }
  }
};

// ---- the executor

/// Every execution: each combination of the conditions, and every sequence of back-edge
/// choices (at most two back edges taken each time a region runs).
class executor {
public:
  std::vector<std::uint64_t> covered; ///< per allocation: the devices it is dispatched to
  std::vector<char> reached;          ///< per view id: whether some execution defines it
  std::uint64_t executions = 0;

  explicit executor(const program& p)
      : covered(static_cast<std::size_t>(p.allocations), 0),
        reached(static_cast<std::size_t>(p.views), 0), view_(static_cast<std::size_t>(p.views), -1),
        iv_(static_cast<std::size_t>(p.ivs), -1) {
    for (std::uint32_t c = 0; c < (1u << p.conditions); ++c) {
      conditions_ = c;
      script_.clear();
      arity_.clear();
      do {
        at_ = 0;
        for (int a = 0; a < p.allocations; ++a)
          view_[static_cast<std::size_t>(a)] = a;
        run(p.body);
        ++executions;
      } while (next_script());
    }
  }

private:
  std::vector<int> view_, iv_; ///< the allocation each view id is, the value of each iv
  std::uint32_t conditions_ = 0;
  std::vector<int> script_, arity_;
  std::size_t at_ = 0;

  bool condition(int c) const { return ((conditions_ >> c) & 1u) != 0; }
  int choose(int n) {
    if (at_ < script_.size())
      return script_[at_++];
    script_.push_back(0);
    arity_.push_back(n);
    ++at_;
    return 0;
  }
  bool next_script() {
    script_.resize(at_);
    arity_.resize(at_);
    while (!script_.empty()) {
      if (script_.back() + 1 < arity_.back()) {
        ++script_.back();
        return true;
      }
      script_.pop_back();
      arity_.pop_back();
    }
    return false;
  }
  int& view(int id) { return view_[static_cast<std::size_t>(id)]; }
  std::vector<int> values(const std::vector<int>& ids) {
    std::vector<int> out;
    for (const int id : ids)
      out.push_back(view(id));
    return out;
  }
  void assign(const std::vector<int>& ids, const std::vector<int>& values) {
    for (std::size_t i = 0; i < ids.size(); ++i)
      view(ids[i]) = values[i];
  }

  void run(const ops& body) {
    for (const auto& o : body)
      run(o);
  }

  void run(const op& o) {
    switch (o.kind) {
    case op_kind::dispatch: {
      const int device =
          o.device.iv ? iv_[static_cast<std::size_t>(o.device.value)] : o.device.value;
      for (const int id : o.operands)
        covered[static_cast<std::size_t>(view(id))] |= std::uint64_t{1} << device;
      return;
    }
    case op_kind::window:
      view(o.results[0]) = o.operands[0];
      return;
    case op_kind::mixed_window: // the memory it reads: the allocation's, or the view's
      view(o.results[0]) = condition(o.cond) ? o.operands[0] : view(o.operands[1]);
      reached[static_cast<std::size_t>(o.results[0])] = 1;
      return;
    case op_kind::select:
      view(o.results[0]) = view(o.operands[condition(o.cond) ? 0 : 1]);
      return;
    case op_kind::cast:
    case op_kind::unrealized_cast:
      view(o.results[0]) = view(o.operands[0]);
      return;
    case op_kind::if_:
      if (condition(o.cond)) {
        run(o.body);
        assign(o.results, values(o.yields));
      } else {
        run(o.else_body);
        assign(o.results, values(o.else_yields));
      }
      return;
    case op_kind::for_:
    case op_kind::affine_for: {
      auto carried = values(o.operands);
      for (int i = o.lo; i < o.hi; ++i) {
        iv_[static_cast<std::size_t>(o.iv)] = i;
        assign(o.iter_args, carried);
        run(o.body);
        carried = values(o.yields);
      }
      assign(o.results, carried);
      return;
    }
    case op_kind::region: {
      int current = 0, budget = 2;
      std::vector<int> incoming;
      for (;;) {
        const auto& b = o.blocks[static_cast<std::size_t>(current)];
        assign(b.args, incoming);
        run(b.body);
        bool first = true;
        switch (b.term) {
        case cfg_block::end::yield:
          assign(o.results, values(b.yields));
          return;
        case cfg_block::end::br:
          break;
        case cfg_block::end::cond_br:
          first = condition(b.cond);
          break;
        case cfg_block::end::back:
          first = budget > 0 && choose(2) == 1;
          budget -= first ? 1 : 0;
          break;
        }
        incoming = values(first ? b.first_args : b.second_args);
        current = first ? b.first : b.second;
      }
    }
    }
  }
};

/// Allocations no execution dispatches get a dispatch at the end of the function, on a
/// random constant device: every generated program is valid.
void complete(program& p, std::uint64_t seed) {
  const executor x(p);
  for (int a = 0; a < p.allocations; ++a)
    if (x.covered[static_cast<std::size_t>(a)] == 0) {
      op o;
      o.kind = op_kind::dispatch;
      o.operands = {a};
      o.device = {false,
                  static_cast<int>((seed + static_cast<std::uint64_t>(a) * 7) % device_count)};
      p.body.push_back(o);
    }
}

// ---- parsing, analysis and the judge

struct context {
  mlir::MLIRContext mlir;
  context() {
    mlir.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                     mlir::cf::ControlFlowDialect, mlir::affine::AffineDialect,
                     mlir::tensor::TensorDialect, commscope::pld::dialect>();
  }
};

/// rejected: a program with mixed windows, reported as it must be.
enum class verdict_kind { exact, wider, rejected, unsound, false_error, parse_error };

struct verdict {
  verdict_kind what = verdict_kind::exact;
  std::string detail;
};

std::string show(std::uint64_t mask) {
  std::string s = "[";
  for (int d = 0; d < 64; ++d)
    if ((mask >> d) & 1u)
      s += (s.size() > 1 ? ", " : "") + std::to_string(d);
  return s + "]";
}

std::string show(const commscope::device_set& set) {
  if (set.is_all())
    return "all";
  std::string s = "[";
  set.for_each(
      [&](commscope::device_id d) { s += (s.size() > 1 ? ", " : "") + std::to_string(d); });
  return s + (set.has_progressions() ? ", progressions]" : "]");
}

/// A mixed window's line, and whether some execution reaches it.
struct mixed_window {
  unsigned line = 0;
  bool reached = false;
};

/// `mixed`: the program's mixed windows. One that runs must be one view-escapes there, one
/// that never runs (a block without predecessors, a loop of no trips) may be; nothing
/// else may be reported.
verdict judge(context& ctx, const std::string& text, const std::vector<std::uint64_t>& covered,
              const std::vector<mixed_window>& mixed = {}) {
  auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &ctx.mlir);
  if (!module)
    return {verdict_kind::parse_error, "the program does not parse"};
  const auto pl = commscope::analyze(*module, mlir_traits{});
  std::string what;
  std::vector<unsigned> lines; // of the view-escapes at a window
  bool others = false;
  for (const auto& d : pl.diagnostics) {
    const auto f = mlir::dyn_cast_or_null<mlir::FileLineColLoc>(d.where);
    what += std::to_string(f ? f.getLine() : 0) + ": " + std::string(commscope::code_name(d.code)) +
            ": " + d.message() + "\n";
    if (d.code == commscope::error_code::view_escapes &&
        d.why == commscope::reason::view_into_operation && d.object == "window" && f)
      lines.push_back(f.getLine());
    else
      others = true;
  }
  for (const auto& m : mixed) {
    const auto n = std::ranges::count(lines, m.line);
    if (n == 0 && m.reached) // taken for a view of its allocation alone
      return {verdict_kind::unsound, "line " + std::to_string(m.line) + " unreported:\n" + what};
    if (n > 1)
      return {verdict_kind::false_error, what};
    std::erase(lines, m.line);
  }
  if (others || !lines.empty())
    return {verdict_kind::false_error, what};
  if (!pl.diagnostics.empty())
    return {verdict_kind::rejected, {}};
  const auto* host = [&]() -> decltype(&pl.functions[0]) {
    for (const auto& fp : pl.functions)
      if (fp.name == "host")
        return &fp;
    return nullptr;
  }();
  if (!host || host->allocations.size() != covered.size())
    return {verdict_kind::false_error, "the plan does not have the program's allocations"};
  bool wider = false;
  std::string where;
  for (const auto& al : host->allocations) {
    const auto a = static_cast<std::size_t>(std::stoi(std::string(al.name.substr(1))));
    const auto truth = covered[a];
    std::uint64_t analyzed = 0;
    al.devices.for_each([&](commscope::device_id d) {
      if (d < 64)
        analyzed |= std::uint64_t{1} << d;
    });
    const auto what =
        std::string(al.name) + ": analyzed " + show(al.devices) + ", executions " + show(truth);
    if (!al.devices.is_all() && (truth & ~analyzed) != 0)
      return {verdict_kind::unsound, what};
    if (al.devices.is_all() || al.devices.has_progressions() || analyzed != truth) {
      wider = true;
      where = what;
    }
  }
  return {wider ? verdict_kind::wider : verdict_kind::exact, where};
}

std::uint64_t environment(const char* name, std::uint64_t otherwise) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : otherwise;
}

struct generated {
  std::string text;
  std::vector<std::uint64_t> covered;
  std::uint64_t executions = 0;
  std::vector<mixed_window> mixed;
};

generated make(std::uint64_t seed, bool mixed = false) {
  generator g(seed, mixed);
  program p = g.make();
  complete(p, seed);
  const executor x(p);
  const renderer r(p);
  std::vector<mixed_window> windows;
  for (const auto& [id, line] : r.mixed_lines)
    windows.push_back({line, x.reached[static_cast<std::size_t>(id)] != 0});
  return {r.text, x.covered, x.executions, std::move(windows)};
}

} // namespace

TEST_CASE("the MLIR ground truth: the executor on a hand-made model") {
  // if %p0: v = a0 else v = a1; for i in [1, 3): dispatch(i, v); a region whose back
  // edge passes a1's view round: device 5 sees a0's view, then a1's when it loops.
  program p;
  p.allocations = 2;
  p.conditions = 1;
  p.views = 2;
  op branch;
  branch.kind = op_kind::if_;
  branch.has_else = true;
  branch.yields = {0};
  branch.else_yields = {1};
  branch.results = {p.views++};
  op loop;
  loop.kind = op_kind::for_;
  loop.lo = 1;
  loop.hi = 3;
  loop.iv = p.ivs++;
  op d;
  d.kind = op_kind::dispatch;
  d.operands = branch.results;
  d.device = {true, loop.iv};
  loop.body = {d};
  op region;
  region.kind = op_kind::region;
  region.blocks.resize(3);
  region.blocks[0].term = cfg_block::end::br;
  region.blocks[0].first = 1;
  region.blocks[0].first_args = {0};
  region.blocks[1].args = {p.views++};
  op d5;
  d5.kind = op_kind::dispatch;
  d5.operands = region.blocks[1].args;
  d5.device = {false, 5};
  region.blocks[1].body = {d5};
  region.blocks[1].term = cfg_block::end::back;
  region.blocks[1].first = 1;
  region.blocks[1].first_args = {1};
  region.blocks[1].second = 2;
  region.text_order = {2, 1};
  p.body = {branch, loop, region};
  const executor x(p);
  CHECK(x.executions == 2 * 3); // two conditions, 0, 1 or 2 back edges
  CHECK(x.covered[0] == 0b100110);
  CHECK(x.covered[1] == 0b100110);
  context ctx;
  const auto text = renderer(p).text;
  INFO(text);
  const auto v = judge(ctx, text, x.covered);
  CHECK_MESSAGE(v.what == verdict_kind::exact, v.detail);
}

TEST_CASE("the MLIR ground truth: the judge sees a device the analysis lacks") {
  // One dispatch of a0's view to device 3: claiming device 4 too is unsound, claiming
  // nothing beyond device 3 exact.
  program p;
  p.allocations = 1;
  p.conditions = 1;
  p.views = 1;
  op d;
  d.kind = op_kind::dispatch;
  d.operands = {0};
  d.device = {false, 3};
  p.body = {d};
  context ctx;
  const auto text = renderer(p).text;
  CHECK(judge(ctx, text, {0b1000}).what == verdict_kind::exact);
  CHECK(judge(ctx, text, {0b11000}).what == verdict_kind::unsound);
  CHECK(judge(ctx, text, {0b0}).what == verdict_kind::wider);
}

namespace {

/// Judges `count` generated programs (COMMSCOPE_MLIR_GT_COUNT, or `programs`), with mixed
/// windows or without.
void generated_programs(bool mixed, std::uint64_t programs) {
  const auto seed = environment("COMMSCOPE_MLIR_GT_SEED", 20260301);
  const auto all = environment("COMMSCOPE_MLIR_GT_COUNT", programs);
  const auto count = mixed ? std::max<std::uint64_t>(1, all / 4) : all;
  const auto shown = environment("COMMSCOPE_MLIR_GT_SHOW", 3);
  const bool print = environment("COMMSCOPE_MLIR_GT_PRINT", 0) != 0; // every program
  context ctx;
  std::uint64_t exact = 0, wider = 0, rejected = 0, unsound = 0, false_errors = 0, parse_errors = 0,
                executions = 0, shown_so_far = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    const auto g = make(seed + k, mixed);
    executions += g.executions;
    if (print)
      std::printf("// seed %llu\n%s", static_cast<unsigned long long>(seed + k), g.text.c_str());
    const auto v = judge(ctx, g.text, g.covered, g.mixed);
    const char* category = "";
    switch (v.what) {
    case verdict_kind::exact:
      ++exact;
      continue;
    case verdict_kind::wider:
      ++wider;
      continue;
    case verdict_kind::rejected:
      ++rejected;
      continue;
    case verdict_kind::unsound:
      ++unsound;
      category = "unsound";
      break;
    case verdict_kind::false_error:
      ++false_errors;
      category = "false error";
      break;
    case verdict_kind::parse_error:
      ++parse_errors;
      category = "parse error";
      break;
    }
    if (++shown_so_far <= shown)
      std::printf("MLIR ground truth: FAILURE (%s) for seed %llu: %s\n%s\n", category,
                  static_cast<unsigned long long>(seed + k), v.detail.c_str(), g.text.c_str());
  }
  const auto n = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
  if (mixed)
    std::printf("MLIR ground truth, mixed windows: seed %llu: %llu programs, %llu rejected as "
                "they must be, %llu accepted (%llu exact, %llu sound but wider), %llu "
                "unsound, %llu false errors, %llu parse errors\n",
                n(seed), n(count), n(rejected), n(exact + wider), n(exact), n(wider), n(unsound),
                n(false_errors), n(parse_errors));
  else
    std::printf("MLIR ground truth: seed %llu: %llu programs (%llu executions), %llu exact, %llu "
                "sound but wider, %llu unsound, %llu false errors, %llu parse errors\n",
                n(seed), n(count), n(executions), n(exact), n(wider), n(unsound), n(false_errors),
                n(parse_errors));
  CHECK(unsound == 0);
  CHECK(false_errors == 0);
  CHECK(parse_errors == 0);
  if (mixed && count >= 100)
    CHECK(rejected > 0); // the form is generated at all
}

#ifdef NDEBUG
constexpr std::uint64_t default_programs = 500;
#else
constexpr std::uint64_t default_programs = 100;
#endif

} // namespace

TEST_CASE("the MLIR ground truth: generated programs are sound and accepted") {
  generated_programs(false, default_programs);
}

TEST_CASE("the MLIR ground truth: a window of a pointer that may be a view is rejected, once "
          "per window (a quarter as many programs)") {
  generated_programs(true, default_programs);
}
