// The MLIR adapter: `commscope::ir_traits<mlir::ModuleOp>`, an ordinary client of
// ../traits.hpp. The MLIR form of a host program is in tests/mlir/*.mlir.
// Levels and roles are attributes of func.func: pld.level ("host", "chip", ...), pld.role
// ("orchestrator", ...), pld.type ("orchestration", "graph", ...), their values checked by
// the dialect (dialect.td). Statements are ops, a block's
// terminator excepted; an op is the value of its assignment (its results the targets),
// its operands are variables. Control flow: scf.if and scf.index_switch are
// alternatives; scf.for, scf.while, scf.parallel and scf.forall are loops. Region
// results are SSA's rebinding: an scf.yield or scf.condition that forwards values is a
// statement, the parallel assignment of what it defines (the op's results, a loop's
// next iteration's block arguments), and a loop binds its carried block arguments (an
// scf.for or scf.forall its results too: it may run zero times) to its operands on
// entry. In a region of several blocks (a CFG), the edges out of a block (a branch's
// operands to a block's arguments, a yield) are alternatives after its ops, and a
// region with an edge back is a loop. arith.select (what canonicalize makes of an
// scf.if that yields values from outside) is the alternatives of binding its result to
// either choice. Other ops' results and block arguments (scf.parallel's reductions, a
// tensor.cast of a view) are not followed. The
// rewrite is in place: an allocation gets `window_buffer = <id>` (unique in its
// function), each view's pld.window the same id, and the host body moves into nested
// pld.comm_domain_scope ops listing ids as `slots`. Scopes hold symbolic device sets: the
// induction variable of `scf.for %r = %start to %ws step %step` over `%ws =
// pld.world_size()` (or `arith.subi %ws, %c`) gives a world-relative progression, kept
// in the scope's `progressions` attribute beside its ids. Signal synthesis (layer 4) is in
// place too: a signal-less pld.allreduce gets its window built from arith and pld ops
// just before it.
#pragma once

#include <commscope/mlir/dialect.hpp>
#include <commscope/traits.hpp>

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/IR/Builders.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/BuiltinTypes.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/Matchers.h>
#include <mlir/IR/SymbolTable.h>
#include <mlir/Interfaces/ControlFlowInterfaces.h>
#include <mlir/Interfaces/LoopLikeInterface.h>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PointerUnion.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::pld {

/// An op as an expression (`value` null), or one of its operands (kind variable).
struct expression {
  mlir::Operation* op = nullptr;
  mlir::Value value;
};

inline std::string_view string_attr(mlir::Operation* o, llvm::StringRef name) {
  auto a = o->getAttrOfType<mlir::StringAttr>(name);
  return a ? std::string_view(a.getValue()) : std::string_view();
}

/// A statement: an op; or, in a region of several blocks (a CFG, as in
/// scf.execute_region), a block whose terminator passes values along edges (a branch's
/// operands to a block's arguments, a yield to the region's results), standing after
/// its ops for the alternatives of which edge is taken, if any; or one such edge into a
/// block (a yield is its own edge), the assignment of the block's arguments; or one of
/// the two choices of an arith.select (the op: their alternatives), the assignment of
/// its result to that operand.
using statement =
    llvm::PointerUnion<mlir::Operation*, mlir::Block*, mlir::BlockOperand*, mlir::OpOperand*>;

/// How a block's terminator is presented: as a statement of its block (a yield or
/// scf.condition that forwards values in a region of one block; one with regions, such
/// as scf.reduce, which holds ops); as edges of its block's statement (it passes values
/// in a region of several blocks); or not at all.
enum class terminator_role : std::uint8_t { none, statement, edges };
inline terminator_role role_of(mlir::Operation* t, bool several_blocks) {
  bool forwards = false;
  if (mlir::isa<mlir::scf::YieldOp>(t))
    forwards = t->getNumOperands() > 0;
  else if (auto c = mlir::dyn_cast<mlir::scf::ConditionOp>(t))
    forwards = !c.getArgs().empty();
  else if (auto branch = mlir::dyn_cast<mlir::BranchOpInterface>(t))
    for (unsigned i = 0; i < t->getNumSuccessors() && !forwards; ++i)
      forwards = !branch.getSuccessorOperands(i).getForwardedOperands().empty();
  if (forwards)
    return several_blocks ? terminator_role::edges : terminator_role::statement;
  return t->getNumRegions() > 0 ? terminator_role::statement : terminator_role::none;
}

/// The statements of some of an op's regions (or of a function's body), in order: a lazy
/// forward range, so that a body of 300,000 ops is walked, never copied. Each block gives
/// its ops (its terminator as role_of says), then itself when its terminator's role is
/// edges. Or a range of one given statement (an alternative of a block's edges), or none.
class statements {
public:
  class iterator {
  public:
    using value_type = statement;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(mlir::Operation* owner, unsigned first, unsigned end) : owner_(owner), end_(end) {
      enter_region(first);
    }
    explicit iterator(statement only) : current_(only) {}
    statement operator*() const { return current_; }
    iterator& operator++() {
      if (!owner_) { // a range of one
        current_ = nullptr;
        return *this;
      }
      if (llvm::isa<mlir::Block*>(current_)) {
        next_block();
        return *this;
      }
      mlir::Operation* next = llvm::cast<mlir::Operation*>(current_)->getNextNode();
      if (next && next != skip_)
        current_ = next;
      else if (edges_)
        current_ = block_;
      else
        next_block();
      return *this;
    }
    iterator operator++(int) {
      iterator r = *this;
      ++*this;
      return r;
    }
    bool operator==(const iterator& o) const { return current_ == o.current_; }
    bool operator==(std::default_sentinel_t) const { return current_.isNull(); }

  private:
    /// Positions at a block's first statement; a terminator that is none ends it.
    bool enter_block(mlir::Block* b) {
      block_ = b;
      if (b->empty())
        return false;
      mlir::Operation* t = b->mightHaveTerminator() ? &b->back() : nullptr;
      const auto role = t ? role_of(t, several_) : terminator_role::statement;
      edges_ = role == terminator_role::edges;
      skip_ = role == terminator_role::statement ? nullptr : t;
      if (&b->front() != skip_)
        current_ = &b->front();
      else if (edges_)
        current_ = b;
      else
        return false;
      return true;
    }
    void enter_region(unsigned r) {
      for (region_ = r; region_ < end_; ++region_) {
        mlir::Region& region = owner_->getRegion(region_);
        several_ = !region.empty() && !region.hasOneBlock();
        for (auto& b : region)
          if (enter_block(&b))
            return;
      }
      current_ = nullptr;
    }
    void next_block() {
      for (auto* b = block_->getNextNode(); b; b = b->getNextNode())
        if (enter_block(b))
          return;
      enter_region(region_ + 1);
    }

    mlir::Operation* owner_ = nullptr; ///< null: a range of one
    mlir::Block* block_ = nullptr;
    statement current_;
    mlir::Operation* skip_ = nullptr; ///< the block's terminator, when it is no statement
    unsigned region_ = 0, end_ = 0;
    bool several_ = false; ///< the region has several blocks
    bool edges_ = false;   ///< the block ends in edges: it is a statement after its ops
  };

  /// The statements of all of owner's regions.
  explicit statements(mlir::Operation* owner) : statements(owner, 0, owner->getNumRegions()) {}
  /// The statements of owner's regions [first, end).
  statements(mlir::Operation* owner, unsigned first, unsigned end)
      : owner_(owner), first_(first), end_(end) {}
  /// The statements of one region.
  explicit statements(mlir::Region& r)
      : statements(r.getParentOp(), r.getRegionNumber(), r.getRegionNumber() + 1) {}
  /// One statement, or none.
  static statements only(statement s) {
    statements r(nullptr, 0, 0);
    r.only_ = s;
    return r;
  }
  iterator begin() const {
    if (!owner_)
      return only_.isNull() ? iterator() : iterator(only_);
    return first_ < end_ ? iterator(owner_, first_, end_) : iterator();
  }
  static std::default_sentinel_t end() { return {}; }

private:
  mlir::Operation* owner_;
  unsigned first_, end_;
  statement only_;
};
static_assert(std::forward_iterator<statements::iterator>);

/// An edge into a block: what the branch forwards to the block's arguments (after
/// those the branch produces itself).
inline mlir::SuccessorOperands edge_operands(mlir::BlockOperand* e) {
  return mlir::cast<mlir::BranchOpInterface>(e->getOwner())
      .getSuccessorOperands(e->getOperandNumber());
}

/// The operands a binding statement binds its targets (bound_by) to, and how many times
/// in a row: an scf.for's yield and entry give the same values to the next iteration's
/// block arguments and to the results, as scf.condition does to the after region's
/// arguments and the results. None for any other statement.
struct forwarding {
  mlir::ValueRange values;
  unsigned copies = 0;
};

/// Whether an op is scf.yield or scf.condition. Asked of every statement: isa (a call
/// into MLIR) only for an op without results, as a terminator is.
inline bool is_forwarding_terminator(mlir::Operation* s) {
  return s->getNumResults() == 0 && mlir::isa<mlir::scf::YieldOp, mlir::scf::ConditionOp>(s);
}

/// Whether an op is arith.select, whose result is one of its two choices (canonicalize
/// turns an scf.if that yields values from outside into one). The counts first: isa is
/// a call into MLIR.
inline bool is_select(mlir::Operation* s) {
  return s->getNumOperands() == 3 && s->getNumResults() == 1 && mlir::isa<mlir::arith::SelectOp>(s);
}

/// An op that binds its results to itself: no yield, scf.condition, arith.select or op
/// with regions.
inline bool binds_itself(mlir::Operation* s) {
  return s->getNumRegions() == 0 && !is_forwarding_terminator(s) && !is_select(s);
}

inline forwarding forwarded(statement st) {
  if (auto* edge = llvm::dyn_cast<mlir::BlockOperand*>(st))
    return {edge_operands(edge).getForwardedOperands(), 1};
  if (auto* choice = llvm::dyn_cast<mlir::OpOperand*>(st))
    return {choice->getOwner()->getOperands().slice(choice->getOperandNumber(), 1), 1};
  auto* s = llvm::dyn_cast<mlir::Operation*>(st);
  if (!s || binds_itself(s))
    return {};
  if (auto y = mlir::dyn_cast<mlir::scf::YieldOp>(s))
    return {y.getResults(), mlir::isa<mlir::scf::ForOp>(y->getParentOp()) ? 2u : 1u};
  if (auto c = mlir::dyn_cast<mlir::scf::ConditionOp>(s))
    return {c.getArgs(), 2};
  if (auto f = mlir::dyn_cast<mlir::scf::ForOp>(s))
    return {f.getInitArgs(), 2};
  if (auto w = mlir::dyn_cast<mlir::scf::WhileOp>(s))
    return {w.getInits(), 1};
  if (auto f = mlir::dyn_cast<mlir::scf::ForallOp>(s))
    return {f.getOutputs(), 2};
  if (auto p = mlir::dyn_cast<mlir::scf::ParallelOp>(s))
    return {p.getInitVals(), 1};
  return {};
}

/// The variables a statement binds: a yield, those its parent defines with it (the
/// results; an scf.for's next iteration's block arguments and results; an scf.while's
/// before region's arguments); scf.condition, the after region's arguments and the
/// results; a loop, its carried block arguments on entry (and the results of an scf.for
/// or scf.forall, for zero trips: an scf.parallel's results are its reductions' inits);
/// another op with regions nothing (its results come from its yields); any other op, its
/// results; an edge, its block's arguments; a select's choice, its result.
inline llvm::SmallVector<mlir::Value, 2> bound_by(statement st) {
  llvm::SmallVector<mlir::Value, 2> r;
  const auto add = [&](auto&& values) { r.append(values.begin(), values.end()); };
  if (auto* edge = llvm::dyn_cast<mlir::BlockOperand*>(st)) {
    add(edge->get()->getArguments().drop_front(edge_operands(edge).getProducedOperandCount()));
    return r;
  }
  if (auto* choice = llvm::dyn_cast<mlir::OpOperand*>(st)) {
    add(choice->getOwner()->getResults());
    return r;
  }
  auto* s = llvm::dyn_cast<mlir::Operation*>(st);
  if (!s)
    return r;
  if (binds_itself(s)) {
    add(s->getResults());
    return r;
  }
  mlir::Operation* parent = s->getParentOp();
  if (mlir::isa<mlir::scf::ConditionOp>(s)) {
    auto w = mlir::cast<mlir::scf::WhileOp>(parent);
    add(w.getAfterArguments());
    add(w->getResults());
  } else if (mlir::isa<mlir::scf::YieldOp>(s) && mlir::isa<mlir::scf::WhileOp>(parent)) {
    add(mlir::cast<mlir::scf::WhileOp>(parent).getBeforeArguments());
  } else if (mlir::isa<mlir::scf::YieldOp>(s)) {
    if (auto f = mlir::dyn_cast<mlir::scf::ForOp>(parent))
      add(f.getRegionIterArgs());
    add(parent->getResults());
  } else if (auto f = mlir::dyn_cast<mlir::scf::ForOp>(s)) {
    add(f.getRegionIterArgs());
    add(f->getResults());
  } else if (auto w = mlir::dyn_cast<mlir::scf::WhileOp>(s)) {
    add(w.getBeforeArguments());
  } else if (auto f = mlir::dyn_cast<mlir::scf::ForallOp>(s)) {
    add(f.getRegionOutArgs());
    add(f->getResults());
  } else if (mlir::isa<mlir::scf::ParallelOp>(s)) {
    add(s->getResults());
  }
  return r;
}

/// The op a statement is, or whose edges or choice it stands for.
inline mlir::Operation* op_of(statement s) {
  if (auto* op = llvm::dyn_cast<mlir::Operation*>(s))
    return op;
  if (auto* b = llvm::dyn_cast<mlir::Block*>(s))
    return b->getTerminator();
  if (auto* choice = llvm::dyn_cast<mlir::OpOperand*>(s))
    return choice->getOwner();
  return llvm::cast<mlir::BlockOperand*>(s)->getOwner();
}

/// The edges a block's terminator passes values along, each an alternative of one
/// statement (a yield, or a branch's edge into a block whose arguments it binds), and
/// one of none: the block may not run, or leave by an edge that passes nothing.
inline llvm::SmallVector<statements, 2> edges_of(mlir::Block& b) {
  llvm::SmallVector<statements, 2> edges;
  mlir::Operation* t = b.getTerminator();
  if (!mlir::isa<mlir::BranchOpInterface>(t))
    edges.push_back(statements::only(t));
  else
    for (mlir::BlockOperand& e : t->getBlockOperands())
      if (!edge_operands(&e).getForwardedOperands().empty())
        edges.push_back(statements::only(&e));
  edges.push_back(statements::only(nullptr));
  return edges;
}

/// Whether a region of several blocks has an edge that leads back, to its own block or
/// an earlier one: then a value reaches uses listed before the edge, on a later trip.
inline bool loops_back(mlir::Region& r) {
  llvm::SmallPtrSet<mlir::Block*, 8> seen;
  for (mlir::Block& b : r) {
    seen.insert(&b);
    if (!b.empty() && b.mightHaveTerminator())
      for (mlir::Block* next : b.back().getSuccessors())
        if (seen.contains(next))
          return true;
  }
  return false;
}

inline llvm::SmallVector<expression, 6> operands_of(mlir::Operation* o, unsigned skip = 0) {
  llvm::SmallVector<expression, 6> r;
  for (auto v : o->getOperands().drop_front(std::min(skip, o->getNumOperands())))
    r.push_back({o, v});
  return r;
}

/// scf.for runs from its lower bound up to its upper bound with a positive step; a
/// constant step <= 0 is no loop Python's range rules describe.
inline bool positive_step(mlir::scf::ForOp f) {
  llvm::APInt step;
  return !mlir::matchPattern(f.getStep(), mlir::m_ConstantInt(&step)) || step.isStrictlyPositive();
}

/// The value of an integer arith.constant (not i1) that fits an int64.
inline std::optional<std::int64_t> constant_of(mlir::Value v) {
  auto c = v.getDefiningOp<mlir::arith::ConstantOp>();
  auto i = c ? mlir::dyn_cast<mlir::IntegerAttr>(c.getValue()) : nullptr;
  if (!i || i.getType().isInteger(1) || i.getValue().getSignificantBits() > 64)
    return std::nullopt;
  return i.getValue().getSExtValue();
}

/// The window_buffer id of an allocation or a view.
inline std::optional<std::int64_t> window_buffer_id(mlir::Operation* o) {
  mlir::IntegerAttr id;
  if (auto a = mlir::dyn_cast_or_null<alloc_window_buffer>(o))
    id = a.getWindowBufferAttr();
  else if (auto w = mlir::dyn_cast_or_null<window>(o))
    id = w.getWindowBufferAttr();
  return id ? std::optional<std::int64_t>(id.getInt()) : std::nullopt;
}

} // namespace commscope::pld

template <> struct commscope::ir_traits<mlir::ModuleOp> {
  using program = mlir::ModuleOp;
  using function = mlir::func::FuncOp;
  using statement = pld::statement;
  using expression = pld::expression;
  using variable = mlir::Value;
  using location = mlir::LocationAttr;    // mlir::Location has no empty state
  using window_buffer = mlir::Operation*; // the allocation op

  // ---- program and functions
  static llvm::SmallVector<function, 8> functions(const program& p) {
    return llvm::to_vector<8>(mlir::ModuleOp(p).getOps<function>());
  }
  static function_info describe(function f) {
    const auto what = pld::string_attr(f, "pld.level"), type = pld::string_attr(f, "pld.type");
    return {std::string_view(f.getSymName()),
            what == "host"   ? level::host
            : what == "chip" ? level::chip
                             : level::other,
            pld::string_attr(f, "pld.role") == "orchestrator" || type == "orchestration",
            type == "graph"};
  }
  static pld::statements body(function f) { return pld::statements(f); }
  /// The rewrite nests one block: a body with a CFG (several blocks) cannot be wrapped.
  static bool can_wrap_body(function f) { return f.getBody().hasOneBlock(); }
  /// One nested region per domain: MLIR prints and verifies regions recursively, and
  /// its printer overflows an 8 MB stack between 6,000 and 8,000 levels (and the verifier
  /// and printer are quadratic in the depth): stay an order of magnitude below.
  static constexpr std::size_t scope_nesting_limit = 512;

  // ---- statements
  // Asked of every statement: an op without regions, the common case, is tested first.
  static statement_kind statement_kind_of(statement st) {
    using namespace mlir::scf;
    auto* s = llvm::dyn_cast<mlir::Operation*>(st);
    if (s && s->getNumRegions() == 0)
      return pld::is_select(s) ? statement_kind::other
             : s->getNumResults() > 0 || pld::is_forwarding_terminator(s)
                 ? statement_kind::assignment
                 : statement_kind::evaluation;
    if (!s)
      return llvm::isa<mlir::Block*>(st) ? statement_kind::other : statement_kind::assignment;
    return mlir::isa<pld::comm_domain_scope>(s)          ? statement_kind::scope
           : mlir::isa<ForOp>(s)                         ? statement_kind::for_loop
           : mlir::isa<WhileOp, ParallelOp, ForallOp>(s) ? statement_kind::while_loop
                                                         : statement_kind::other;
  }
  static location location_of(statement s) { return pld::op_of(s)->getLoc(); }
  /// An op's regions; a block's edges and a select's choices are its branches only.
  static pld::statements children(statement s) {
    auto* op = llvm::dyn_cast<mlir::Operation*>(s);
    return op ? pld::statements(op) : pld::statements::only(nullptr);
  }
  /// An op with a region of several blocks (scf.execute_region's CFG) whose edges lead
  /// back repeats. An op of another dialect runs its regions at most once unless it says
  /// it is a loop.
  static control_flow control_of(statement st) {
    auto* s = llvm::dyn_cast<mlir::Operation*>(st);
    if (s && s->getNumRegions() == 0)
      return pld::is_select(s) ? control_flow::alternatives : control_flow::block;
    if (!s) // a block's edges, or an edge (no children)
      return llvm::isa<mlir::Block*>(st) ? control_flow::alternatives : control_flow::block;
    if (mlir::isa<mlir::scf::IfOp, mlir::scf::IndexSwitchOp>(s))
      return control_flow::alternatives;
    if (llvm::any_of(s->getRegions(), [](mlir::Region& r) {
          return !r.empty() && !r.hasOneBlock() && pld::loops_back(r);
        }))
      return control_flow::repeat;
    if (mlir::isa<pld::comm_domain_scope, mlir::scf::ExecuteRegionOp>(s))
      return control_flow::block;
    if (mlir::isa<mlir::LoopLikeOpInterface, mlir::scf::ReduceOp>(s))
      return control_flow::repeat; // scf.reduce: its regions combine every iteration's values
    return control_flow::may_skip;
  }
  /// scf.if: then, else (empty when absent); scf.index_switch: the cases, then default; a
  /// block of a CFG: its edges; arith.select: its two choices.
  static llvm::SmallVector<pld::statements, 2> branches(statement st) {
    if (auto* block = llvm::dyn_cast<mlir::Block*>(st))
      return pld::edges_of(*block);
    auto* s = llvm::cast<mlir::Operation*>(st);
    llvm::SmallVector<pld::statements, 2> r;
    if (s->getNumRegions() == 0) { // arith.select
      r.push_back(pld::statements::only(&s->getOpOperand(1)));
      r.push_back(pld::statements::only(&s->getOpOperand(2)));
    } else if (auto sw = mlir::dyn_cast<mlir::scf::IndexSwitchOp>(s)) {
      for (mlir::Region& c : sw.getCaseRegions())
        r.emplace_back(c);
      r.emplace_back(sw.getDefaultRegion());
    } else {
      for (mlir::Region& b : s->getRegions())
        r.emplace_back(b);
    }
    return r;
  }
  static llvm::SmallVector<variable, 2> targets(statement s) {
    if (auto* op = llvm::dyn_cast<mlir::Operation*>(s); op && pld::binds_itself(op))
      return llvm::SmallVector<variable, 2>(op->getResults().begin(), op->getResults().end());
    return pld::bound_by(s);
  }
  /// A yield, an edge of one value or a select's choice is a copy; any other binding
  /// statement is the op itself (and its targets are in values()).
  static expression value(statement s) {
    auto* op = llvm::dyn_cast<mlir::Operation*>(s);
    const bool copies = !op || mlir::isa<mlir::scf::YieldOp>(op);
    if (!copies) // an op, an scf.condition or a loop
      return {op, {}};
    if (const auto f = pld::forwarded(s); copies && f.copies == 1 && f.values.size() == 1)
      return {pld::op_of(s), f.values.front()};
    return {pld::op_of(s), {}};
  }
  /// The value of each target (targets()) of a yield, an scf.condition, an edge or a
  /// loop's entry; none for an op, which binds its results to itself (value()).
  static llvm::SmallVector<expression, 6> values(statement s) {
    llvm::SmallVector<expression, 6> r;
    const auto f = pld::forwarded(s);
    for (unsigned i = 0; i < f.copies; ++i)
      for (mlir::Value v : f.values)
        r.push_back({pld::op_of(s), v});
    return r;
  }
  static llvm::SmallVector<expression, 6> expressions(statement s) {
    auto* op = llvm::dyn_cast<mlir::Operation*>(s);
    return op ? pld::operands_of(op) : llvm::SmallVector<expression, 6>{};
  }
  static variable loop_variable(statement s) {
    return mlir::cast<mlir::scf::ForOp>(llvm::cast<mlir::Operation*>(s)).getInductionVar();
  }
  /// A non-positive constant step is given as the loop op itself, an expression of
  /// kind other: the devices of such a loop are `unsupported-device`.
  static commscope::loop_bounds<expression> loop_bounds(statement st) {
    auto* s = llvm::cast<mlir::Operation*>(st);
    auto f = mlir::cast<mlir::scf::ForOp>(s);
    const expression step = pld::positive_step(f) ? expression{s, f.getStep()} : expression{s, {}};
    return {{s, f.getLowerBound()}, {s, f.getUpperBound()}, step};
  }

  // ---- expressions
  static expression_kind expression_kind_of(expression e) {
    if (e.value)
      return expression_kind::variable;
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(e.op)) {
      // i1 is a boolean, and a wider constant may not fit an int64.
      auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue());
      const bool fits = i && !i.getType().isInteger(1) && i.getValue().getSignificantBits() <= 64;
      return fits ? expression_kind::integer : expression_kind::other;
    }
    const bool call = pld::recognised::classify(e.op) != operation::none ||
                      mlir::isa<pld::dispatch, mlir::func::CallOp>(e.op);
    return call ? expression_kind::call : expression_kind::other;
  }
  static location location_of(expression e) { return e.op->getLoc(); }
  static std::int64_t integer_value(expression e) {
    auto c = mlir::cast<mlir::arith::ConstantOp>(e.op);
    return mlir::cast<mlir::IntegerAttr>(c.getValue()).getValue().getSExtValue();
  }
  static variable variable_of(expression e) { return e.value; }
  /// The symbol table of the module being analysed, when the caller built one (the
  /// passes do: `analyze(m, ir_traits<mlir::ModuleOp>{&table})`): a callee is then found
  /// in O(1), where lookupNearestSymbolFrom scans the module for every dispatch
  /// (quadratic in the number of functions). A default-constructed traits object falls
  /// back to that scan.
  const mlir::SymbolTable* symbols = nullptr;
  /// Without a table the lookup scans: a default-constructed object works.
  static constexpr bool usable_by_default = true;

  /// A dispatch's (or func.call's) callee, looked up in the module's symbol table.
  call_target call_target_of(expression e) const {
    if (auto op = pld::recognised::classify(e.op); op != operation::none)
      return call_target::of(op);
    auto callee = e.op->getAttrOfType<mlir::FlatSymbolRefAttr>("callee");
    if (!callee)
      return call_target::unresolved("");
    const auto f =
        symbols ? symbols->lookup<function>(callee.getAttr())
            : mlir::SymbolTable::lookupNearestSymbolFrom<function>(e.op, callee.getAttr());
    if (f)
      return call_target::of(describe(f));
    return call_target::unresolved(std::string_view(callee.getValue()));
  }
  static llvm::SmallVector<expression, 6> arguments(expression e) {
    return pld::operands_of(e.op, mlir::isa<pld::dispatch>(e.op) ? 1 : 0);
  }
  static std::optional<expression> device_of(expression e) {
    if (mlir::isa<pld::dispatch>(e.op) && e.op->getNumOperands() > 0)
      return expression{e.op, e.op->getOperand(0)};
    return std::nullopt;
  }
  static std::string_view allocation_name(expression e) { return pld::string_attr(e.op, "name"); }

  // ---- symbolic device sets: scopes hold world-relative progressions
  static constexpr bool symbolic_device_sets = true;
  /// `arith.subi %x, %c`, `arith.addi %x, %c` or `arith.addi %c, %x` with %c an integer
  /// arith.constant: %x and C (the negated constant of an addition).
  static std::optional<std::pair<expression, std::int64_t>> minus_constant(expression e) {
    if (e.value || !mlir::isa<mlir::arith::SubIOp, mlir::arith::AddIOp>(e.op))
      return std::nullopt;
    const mlir::Value l = e.op->getOperand(0), r = e.op->getOperand(1);
    if (mlir::isa<mlir::arith::SubIOp>(e.op)) {
      if (const auto c = pld::constant_of(r))
        return std::pair{expression{e.op, l}, *c};
      return std::nullopt;
    }
    if (const auto c = pld::constant_of(r); c && *c > INT64_MIN)
      return std::pair{expression{e.op, l}, -*c};
    if (const auto c = pld::constant_of(l); c && *c > INT64_MIN)
      return std::pair{expression{e.op, r}, -*c};
    return std::nullopt;
  }
  static llvm::SmallVector<expression, 6> subexpressions(expression e) {
    return e.value ? llvm::SmallVector<expression, 6>{} : pld::operands_of(e.op);
  }
  static const void* variable_key(variable v) { return v.getAsOpaquePointer(); }

  // ---- reading materialized scopes
  static std::string_view scope_name(statement s) {
    return pld::string_attr(llvm::cast<mlir::Operation*>(s), "name");
  }
  static llvm::ArrayRef<std::int64_t> scope_devices(statement s) {
    auto a = llvm::cast<mlir::Operation*>(s)->getAttrOfType<mlir::DenseI64ArrayAttr>("devices");
    return a ? a.asArrayRef() : llvm::ArrayRef<std::int64_t>();
  }
  /// A symbolic set's progressions; none for a plain list.
  static llvm::ArrayRef<device_progression> scope_progressions(statement s) {
    auto a = llvm::cast<mlir::Operation*>(s)->getAttrOfType<pld::progressions_attr>("progressions");
    return a ? a.getProgressions() : llvm::ArrayRef<device_progression>();
  }
  /// The allocations inside the scope that `slots` names; an id none carries is null
  /// (as is a hand-written allocation without its one operand and result).
  static llvm::SmallVector<window_buffer, 4> scope_slots(statement st) {
    auto* s = llvm::cast<mlir::Operation*>(st);
    llvm::DenseMap<std::int64_t, window_buffer> inside;
    s->walk([&](pld::alloc_window_buffer a) {
      auto id = pld::window_buffer_id(a);
      if (id && a->getNumOperands() == 1 && a->getNumResults() == 1)
        inside.try_emplace(*id, a);
    });
    llvm::SmallVector<window_buffer, 4> r;
    if (auto ids = s->getAttrOfType<mlir::DenseI64ArrayAttr>("slots"))
      for (auto id : ids.asArrayRef())
        r.push_back(inside.lookup(id));
    return r;
  }
  /// A view's window buffer is its pointer's allocation, when both carry the same id.
  static window_buffer view_window_buffer(statement, variable v) {
    auto w = mlir::dyn_cast_or_null<pld::window>(v.getDefiningOp());
    if (!w || w->getNumOperands() == 0 || !pld::window_buffer_id(w))
      return nullptr;
    auto* a = w->getOperand(0).getDefiningOp();
    const bool same = mlir::isa_and_present<pld::alloc_window_buffer>(a) &&
                      pld::window_buffer_id(a) == pld::window_buffer_id(w);
    return same ? a : nullptr;
  }
  static std::string_view window_buffer_name(window_buffer w) {
    return pld::string_attr(w, "name");
  }
  static variable window_buffer_base(window_buffer w) { return w->getResult(0); }
  static expression window_buffer_size(window_buffer w) { return {w, w->getOperand(0)}; }

  // ---- the rewrite, in place
  struct rewriter {
    std::int64_t next_id = 0; ///< of the function being rewritten
  };
  static rewriter begin_rewrite(program&) { return {}; }
  /// window_buffer is an inherent attribute (dialect.td), kept in the op's properties:
  /// setting it builds no attribute dictionary.
  static window_buffer make_window_buffer(rewriter& rw, const window_buffer_spec<ir_traits>& s) {
    auto a = mlir::cast<pld::alloc_window_buffer>(s.base.getDefiningOp());
    a.setWindowBufferAttr(mlir::Builder(a->getContext()).getI64IntegerAttr(rw.next_id++));
    return a;
  }
  static void retype_view(rewriter&, const view_spec<ir_traits>& v) {
    mlir::cast<pld::window>(v.variable.getDefiningOp())
        .setWindowBufferAttr(
            mlir::cast<pld::alloc_window_buffer>(v.window_buffer).getWindowBufferAttr());
  }
  /// Nests the scopes before the terminator, outermost first, moves the body into the
  /// innermost, and forwards the values the function returns out through pld.yield.
  static void wrap_body(rewriter& rw, function f, std::span<const scope_spec<ir_traits>> scopes) {
    rw.next_id = 0;
    mlir::Block& entry = f.getBody().front();
    mlir::Operation* ret = entry.getTerminator();
    const mlir::Location at = &entry.front() != ret ? entry.front().getLoc() : f.getLoc();
    mlir::OpBuilder b(ret);
    mlir::Operation* outer = nullptr;
    for (const auto& s : scopes) {
      llvm::SmallVector<std::int64_t, 4> ids;
      for (auto* w : s.slots)
        ids.push_back(*pld::window_buffer_id(w));
      auto scope = b.create<pld::comm_domain_scope>(
          at, ret->getOperandTypes(),
          b.getStringAttr(llvm::StringRef(s.name.data(), s.name.size())),
          b.getDenseI64ArrayAttr({s.devices.data(), s.devices.size()}), b.getDenseI64ArrayAttr(ids),
          s.progressions.empty()
              ? pld::progressions_attr()
              : pld::progressions_attr::get(b.getContext(),
                                            {s.progressions.data(), s.progressions.size()}));
      scope.getBody().emplaceBlock();
      if (outer) // appended to the enclosing scope's block: forward the results outwards
        b.create<pld::yield>(at, scope->getResults());
      outer = outer ? outer : scope.getOperation();
      b.setInsertionPointToEnd(&scope->getRegion(0).front());
    }
    mlir::Block* inner = b.getInsertionBlock();
    inner->getOperations().splice(inner->begin(), entry.getOperations(), entry.begin(),
                                  outer->getIterator());
    b.create<pld::yield>(ret->getLoc(), ret->getOperands());
    ret->setOperands(outer->getResults());
  }
  static void commit(rewriter&, program&) {}

  // ---- signal synthesis, in place (the hook runs only for a program the analysis
  // accepted, so nothing is inserted into a program that is then rejected)
  /// Every name the module carries: symbol names (functions, nested modules), `name`
  /// attributes (allocations, scopes) and the names of named locations (`loc("x")`,
  /// which front ends use for variable names, and the synthesized ops' own).
  static std::vector<std::string_view> names_in_use(const program& p) {
    std::vector<std::string_view> names;
    const auto add_location = [&](mlir::Location where) {
      where->walk([&](mlir::Location l) {
        if (auto named = mlir::dyn_cast<mlir::NameLoc>(l))
          names.emplace_back(named.getName().getValue());
        return mlir::WalkResult::advance();
      });
    };
    mlir::ModuleOp(p)->walk([&](mlir::Operation* o) {
      for (llvm::StringRef attr : {mlir::SymbolTable::getSymbolAttrName(), llvm::StringRef("name")})
        if (auto a = o->getAttrOfType<mlir::StringAttr>(attr))
          names.emplace_back(a.getValue());
      add_location(o->getLoc());
      for (auto& region : o->getRegions())
        for (auto& block : region)
          for (auto arg : block.getArguments())
            add_location(arg.getLoc());
    });
    return names;
  }
  /// The allreduce's `core_num` attribute: 1 when absent, its value when it is an integer
  /// attribute (not i1) that fits, else 0: the library reports malformed-op.
  static std::int64_t core_num_of(expression e) {
    const mlir::Attribute a = e.op->getAttr("core_num");
    if (!a)
      return 1;
    auto i = mlir::dyn_cast<mlir::IntegerAttr>(a);
    if (!i || i.getType().isInteger(1))
      return 0;
    const llvm::APInt& v = i.getValue();
    if (i.getType().isUnsignedInteger())
      return v.getActiveBits() < 64 ? static_cast<std::int64_t>(v.getZExtValue()) : 0;
    return v.getSignificantBits() <= 64 ? v.getSExtValue() : 0;
  }
  /// Before the allreduce:
  ///   %ws = pld.world_size() : () -> index
  ///   %cores = arith.constant CORES : index
  ///   %0 = arith.muli %ws, %cores : index
  ///   %c4 = arith.constant 4 : index            (the bytes of i32)
  ///   %size = arith.muli %0, %c4 : index
  ///   %buf = pld.alloc_window_buffer(%size) {name = "__allreduce_signal_buf_N"} : (index) -> i64
  ///   %sig = pld.window(%buf, %ws, %cores) {dtype = i32}
  ///            : (i64, index, index) -> tensor<?xCORESxi32>
  /// then %sig becomes the allreduce's second operand. SSA values have no names: the ops
  /// carry the spec's names as named locations around the call's (so that no new op
  /// shares the call's location, which diagnostics find ops by).
  static void insert_signal(const signal_spec<ir_traits>& s) {
    mlir::Operation* call = s.call.op;
    mlir::OpBuilder b(call);
    const auto named = [&](std::string_view n) {
      return mlir::NameLoc::get(b.getStringAttr(llvm::StringRef(n.data(), n.size())),
                                call->getLoc());
    };
    const mlir::Location ws_at = named(s.world_size_name), buf_at = named(s.buffer_name),
                         sig_at = named(s.signal_name);
    const mlir::Type index = b.getIndexType();
    const mlir::Value ws =
        b.create<pld::world_size>(ws_at, mlir::TypeRange{index}, mlir::ValueRange{})->getResult(0);
    const mlir::Value cores = b.create<mlir::arith::ConstantIndexOp>(buf_at, s.cores);
    const mlir::Value width = b.create<mlir::arith::ConstantIndexOp>(buf_at, 4);
    const mlir::Value size = b.create<mlir::arith::MulIOp>(
        buf_at, b.create<mlir::arith::MulIOp>(buf_at, ws, cores), width);
    auto buffer_name = b.getStringAttr(llvm::StringRef(s.buffer_name.data(), s.buffer_name.size()));
    auto alloc = b.create<pld::alloc_window_buffer>(buf_at, mlir::TypeRange{b.getI64Type()},
                                                    mlir::ValueRange{size}, buffer_name,
                                                    mlir::IntegerAttr());
    const auto tensor =
        mlir::RankedTensorType::get({mlir::ShapedType::kDynamic, s.cores}, b.getI32Type());
    auto signal = b.create<pld::window>(sig_at, mlir::TypeRange{tensor},
                                        mlir::ValueRange{alloc->getResult(0), ws, cores},
                                        mlir::TypeAttr::get(b.getI32Type()), mlir::IntegerAttr());
    call->insertOperands(call->getNumOperands(), mlir::ValueRange{signal->getResult(0)});
  }
};
