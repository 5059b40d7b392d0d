// The MLIR adapter: `commscope::ir_traits<mlir::ModuleOp>`, an ordinary client of
// ../traits.hpp. The MLIR form of a host program is in tests/mlir/*.mlir.
// Levels and roles are attributes of func.func: pld.level ("host", "chip", ...), pld.role
// ("orchestrator", ...), pld.type ("orchestration", "graph", ...), their values checked by
// the dialect (dialect.td). Statements are ops; an op is the value of its assignment (its
// results the targets), its operands are variables.
//
// Every use of a view is followed or refused. Followed, whatever dialect holds it:
//   - transfers the IR describes through interfaces, never a list of ops: a region
//     branch op (RegionBranchOpInterface: scf.if, scf.index_switch, scf.execute_region,
//     affine.if, ...) runs the regions it may enter as alternatives (or once: one region,
//     the only entry); what a terminator passes on (RegionBranchTerminatorOpInterface:
//     scf.yield, scf.condition, affine.yield) is a statement, the parallel assignment of
//     the successors' inputs (the op's results, a loop's next iteration's block
//     arguments); a loop (LoopLikeOpInterface, or a region branch op whose regions
//     cycle: scf.while) repeats, binding on entry what its interface says it passes
//     (an scf.for's iter_args, and its results when it may run zero times; else its
//     loop-carried values: scf.forall's shared_outs, which the
//     tensor.parallel_insert_slice ops of its scf.forall.in_parallel write into its
//     results: combined_results); a counted loop (one induction variable, bounds that
//     are values or constants: scf.for, affine.for) has exact
//     devices; a branch (BranchOpInterface: cf.br, cf.cond_br, cf.switch, any dialect's)
//     passes its successor operands to block arguments, the edges that pass values being
//     alternatives after its block's ops;
//   - a region of several blocks (a CFG) by its edges: its blocks in reverse post-order,
//     a cycle (a strongly connected component, whatever the text order) makes its op
//     repeat (a function body that cycles is the function op, a statement that
//     repeats), and a block that does not post-dominate the entry (PostDominanceInfo)
//     may not run: its dispatches are guarded;
//   - arith.select (what canonicalize makes of an scf.if that yields values from outside)
//     is the alternatives of binding its result to either choice;
//   - the results of an op that cannot dispatch anything (isMemoryEffectFree,
//     CastOpInterface, ViewLikeOpInterface: tensor.cast, tensor.extract_slice,
//     builtin.unrealized_conversion_cast, ...) may be views of its operands (flow_of:
//     derived); so may its region arguments, and its results what its regions'
//     terminators yield, when it has regions no interface describes and none of its ops
//     has side effects (is_pure_holder: tensor.pad, tensor.generate, linalg.generic on
//     tensors); so may the results of such an op with side effects be views of what
//     its regions use from above (a closure's handle: captured_values); a view
//     returned by func.return (of a function no op of the module names), a comparison
//     whose result goes nowhere and a func.call of a chip orchestrator (no device: it
//     runs nowhere the pass counts) are no escape.
// Refused, `view-escapes` at the use (flow_of: escapes): an operand of a call
// (CallOpInterface: func.call of a function that is no chip orchestrator, named by its
// callee: inline it first; func.call_indirect), of an op that may have side effects (an
// op of an unregistered dialect, memref.store), of an op with regions no interface
// describes that may have side effects (its region arguments are not followed; a
// terminator with regions and operands, scf.reduce, is one), of a terminator that
// passes values where no interface says, and of the func.return of a function that the
// module calls (returns_to_callers: its caller may dispatch what it returns).
//
// The rewrite is in place: an allocation gets `window_buffer = <id>` (unique in its
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
#include <mlir/IR/Dominance.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/Matchers.h>
#include <mlir/IR/RegionGraphTraits.h>
#include <mlir/IR/SymbolTable.h>
#include <mlir/Interfaces/CallInterfaces.h>
#include <mlir/Interfaces/CastInterfaces.h>
#include <mlir/Interfaces/ControlFlowInterfaces.h>
#include <mlir/Interfaces/FunctionInterfaces.h>
#include <mlir/Interfaces/LoopLikeInterface.h>
#include <mlir/Interfaces/SideEffectInterfaces.h>
#include <mlir/Interfaces/ViewLikeInterface.h>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PointerUnion.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SCCIterator.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::pld {

/// A constant bound of a loop whose bounds are attributes (affine.for), read again from
/// the loop op when its value is asked.
enum class bound_part : std::uint8_t { none, lower, upper, step };

/// An op as an expression (`value` null), one of its operands (kind variable), or a
/// constant bound of a loop op (`part`, kind integer).
struct expression {
  mlir::Operation* op = nullptr;
  mlir::Value value;
  bound_part part = bound_part::none;
};

inline std::string_view string_attr(mlir::Operation* o, llvm::StringRef name) {
  auto a = o->getAttrOfType<mlir::StringAttr>(name);
  return a ? std::string_view(a.getValue()) : std::string_view();
}

/// A statement: an op (a branch that passes values along its edges stands after its
/// block's ops for the alternatives of which edge is taken); or a block of a region of
/// several blocks that may not run (it does not post-dominate the region's entry), whose
/// ops are its children; or one edge into a block, the assignment of the block's
/// arguments; or one of the two choices of an arith.select (the op: their alternatives),
/// the assignment of its result to that operand.
using statement =
    llvm::PointerUnion<mlir::Operation*, mlir::Block*, mlir::BlockOperand*, mlir::OpOperand*>;

/// Whether an op is arith.select, whose result is one of its two choices (canonicalize
/// turns an scf.if that yields values from outside into one). The counts first: isa is
/// a call into MLIR.
inline bool is_select(mlir::Operation* s) {
  return s->getNumOperands() == 3 && s->getNumResults() == 1 && mlir::isa<mlir::arith::SelectOp>(s);
}

/// Whether an op is an integer cast whose result is its operand's value wherever that is a
/// device or a world size the analysis accepts (in [0, device_limit): 21 bits): an
/// arith.index_cast, index_castui, extsi, extui or trunci to `index` or 32 bits or more.
/// Such a cast is a copy. A value outside that range is reported where it is used as a
/// device whatever the cast makes of it.
inline bool keeps_device_values(mlir::Operation* s) {
  if (s->getNumOperands() != 1 || s->getNumResults() != 1 ||
      !mlir::isa<mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp, mlir::arith::ExtSIOp,
                 mlir::arith::ExtUIOp, mlir::arith::TruncIOp>(s))
    return false;
  const mlir::Type t = s->getResult(0).getType();
  const auto i = mlir::dyn_cast<mlir::IntegerType>(t);
  return t.isIndex() || (i && i.getWidth() >= 32);
}

/// Whether an op ends its block as its terminator. The cheap tests first.
inline bool is_terminator(mlir::Operation* s) {
  return !s->getNextNode() && s->getBlock() && s->mightHaveTrait<mlir::OpTrait::IsTerminator>();
}

/// Pairs of a value bound and the value it is bound to.
struct transfer {
  llvm::SmallVector<mlir::Value, 4> targets;
  llvm::SmallVector<mlir::Value, 4> sources;
  /// Adds what one successor receives: the operands pair with the last inputs (those
  /// before them, such as an induction variable, the successor produces itself).
  void add(mlir::ValueRange inputs, mlir::ValueRange operands) {
    if (operands.empty() || operands.size() > inputs.size())
      return;
    inputs = inputs.take_back(operands.size());
    targets.append(inputs.begin(), inputs.end());
    sources.append(operands.begin(), operands.end());
  }
};

/// What a terminator of a region of a RegionBranchOpInterface op passes to each region
/// or result that may follow (RegionBranchTerminatorOpInterface: scf.yield,
/// scf.condition, affine.yield, ...): an scf.for's yield binds the next iteration's block
/// arguments and the results, scf.condition the after region's arguments and the results.
inline transfer region_transfer(mlir::Operation* t) {
  transfer r;
  // A scope's yield: the scope's results are what it yields (a materialized body whose
  // values are used after it).
  if (mlir::isa<pld::yield>(t) && mlir::isa_and_present<pld::comm_domain_scope>(t->getParentOp())) {
    r.add(t->getParentOp()->getResults(), t->getOperands());
    return r;
  }
  auto term = mlir::dyn_cast<mlir::RegionBranchTerminatorOpInterface>(t);
  auto parent = mlir::dyn_cast_or_null<mlir::RegionBranchOpInterface>(t->getParentOp());
  if (!term || !parent)
    return r;
  llvm::SmallVector<mlir::RegionSuccessor, 2> successors;
  parent.getSuccessorRegions(*t->getParentRegion(), successors);
  for (const mlir::RegionSuccessor& s : successors)
    r.add(s.getSuccessorInputs(), term.getSuccessorOperands(s));
  return r;
}

/// The regions (or the op's results: isParent) a RegionBranchOpInterface op may enter
/// first, whatever its operands' values.
inline llvm::SmallVector<mlir::RegionSuccessor, 2>
entry_successors(mlir::RegionBranchOpInterface b) {
  llvm::SmallVector<mlir::Attribute, 4> unknown(b->getNumOperands());
  llvm::SmallVector<mlir::RegionSuccessor, 2> r;
  b.getEntrySuccessorRegions(unknown, r);
  return r;
}

/// Whether an op repeats its regions: a loop (LoopLikeOpInterface), or a region branch op
/// whose regions may follow each other in a cycle (scf.while).
inline bool is_loop(mlir::Operation* op) {
  if (mlir::isa<mlir::LoopLikeOpInterface>(op))
    return true;
  auto b = mlir::dyn_cast<mlir::RegionBranchOpInterface>(op);
  return b && b.hasLoop();
}

/// A loop's results that pair with its inits (LoopLikeOpInterface's, else the op's own
/// when there are as many: scf.forall's), or none.
inline mlir::ValueRange loop_results(mlir::LoopLikeOpInterface loop) {
  if (auto results = loop.getLoopResults())
    return *results;
  if (loop->getNumResults() == loop.getInits().size())
    return loop->getResults();
  return {};
}

/// What a loop binds before its first iteration: what its RegionBranchOpInterface says
/// it passes on entry (an scf.for's iter_args and, for zero trips, its results; an
/// scf.while's before arguments), else the loop-carried values of LoopLikeOpInterface
/// (the region's iter_args and the results, for zero trips, bound to the inits:
/// scf.forall's shared_outs).
inline transfer entry_transfer(mlir::Operation* op) {
  transfer r;
  if (auto b = mlir::dyn_cast<mlir::RegionBranchOpInterface>(op))
    for (const mlir::RegionSuccessor& s : entry_successors(b))
      r.add(s.getSuccessorInputs(), b.getEntrySuccessorOperands(s));
  if (!r.sources.empty())
    return r;
  if (auto loop = mlir::dyn_cast<mlir::LoopLikeOpInterface>(op)) {
    const mlir::ValueRange inits = loop.getInits();
    r.add(loop.getRegionIterArgs(), inits);
    if (const mlir::ValueRange results = loop_results(loop); !results.empty())
      r.add(results, inits);
  }
  return r;
}

/// An edge into a block: what the branch forwards to the block's arguments (after
/// those the branch produces itself).
inline mlir::SuccessorOperands edge_operands(mlir::BlockOperand* e) {
  return mlir::cast<mlir::BranchOpInterface>(e->getOwner())
      .getSuccessorOperands(e->getOperandNumber());
}

/// Whether an op has regions that no interface describes and no side effects, in them
/// either (isMemoryEffectFree: tensor.pad, tensor.generate, linalg.generic on tensors):
/// like any op without side effects, its results, and what its regions receive, may be
/// views of its operands; what its regions' terminators yield may be its results.
inline bool is_pure_holder(mlir::Operation* op) {
  return op->getNumRegions() > 0 && !is_terminator(op) &&
         !mlir::isa<pld::comm_domain_scope, mlir::RegionBranchOpInterface,
                    mlir::LoopLikeOpInterface, mlir::FunctionOpInterface>(op) &&
         mlir::isMemoryEffectFree(op);
}

/// Whether the values a function returns reach code of the module that the pass does not
/// follow: the function is named in its module (a func.call of it). A host orchestrator
/// that nobody calls returns to the runtime; one that another function calls hands its
/// views to that caller, which may dispatch them on devices its allocations never get.
inline bool returns_to_callers(mlir::Operation* f) {
  mlir::Operation* table = f->getParentOp();
  return table && mlir::isa<mlir::SymbolOpInterface>(f) &&
         !mlir::SymbolTable::symbolKnownUseEmpty(f, table);
}

/// How a block's terminator is presented.
enum class terminator_role : std::uint8_t {
  none,    ///< not at all: it passes nothing (or returns from the function, or ends a scope)
  binding, ///< a statement binding what it passes to regions or results (region_transfer)
  derives, ///< a statement binding its op's results to what they may be (is_pure_holder)
  edges,   ///< a branch (BranchOpInterface) that passes values: the alternatives of its edges
  holder,  ///< a statement holding ops in its regions (scf.reduce)
  escapes, ///< a statement whose operands go where the pass cannot follow (flow_of)
};
inline terminator_role role_of(mlir::Operation* t) {
  if (t->getNumRegions() > 0)
    return terminator_role::holder;
  if (t->getNumSuccessors() > 0) {
    if (auto branch = mlir::dyn_cast<mlir::BranchOpInterface>(t)) {
      for (unsigned i = 0; i < t->getNumSuccessors(); ++i)
        if (!branch.getSuccessorOperands(i).getForwardedOperands().empty())
          return terminator_role::edges;
      return terminator_role::none;
    }
    return t->getNumOperands() > 0 ? terminator_role::escapes : terminator_role::none;
  }
  if (t->getNumOperands() == 0)
    return terminator_role::none;
  // An op of an unregistered dialect may end a block without being a return: what it is
  // passed escapes, as at any of its kind.
  if (!t->isRegistered())
    return terminator_role::escapes;
  if (mlir::isa<mlir::RegionBranchTerminatorOpInterface>(t) &&
      mlir::isa_and_present<mlir::RegionBranchOpInterface>(t->getParentOp()))
    return region_transfer(t).sources.empty() ? terminator_role::none : terminator_role::binding;
  if (mlir::isa<pld::yield>(t))
    return mlir::isa_and_present<pld::comm_domain_scope>(t->getParentOp()) &&
                   t->getParentOp()->getNumResults() > 0
               ? terminator_role::binding
               : terminator_role::none;
  if (mlir::isa_and_present<mlir::FunctionOpInterface>(t->getParentOp()))
    return returns_to_callers(t->getParentOp()) ? terminator_role::escapes : terminator_role::none;
  if (t->getParentOp() && is_pure_holder(t->getParentOp()))
    return terminator_role::derives;
  return terminator_role::escapes;
}

/// Whether the pass follows what flows into and out of an op's regions: a region branch
/// op or a loop (what the interfaces describe; a region branch op that is no loop binds
/// what it passes on entry at its statement: entry_inputs), a function, a scope, a
/// terminator without operands (scf.forall.in_parallel). A
/// terminator with regions and operands passes them where no interface says (scf.reduce
/// into its regions' arguments and the scf.parallel's results; an unregistered op that
/// merely ends its block, into its regions).
inline bool follows_regions(mlir::Operation* op) {
  if (mlir::isa<pld::comm_domain_scope, mlir::LoopLikeOpInterface, mlir::FunctionOpInterface>(op))
    return true;
  if (is_terminator(op))
    return op->getNumOperands() == 0;
  return mlir::isa<mlir::RegionBranchOpInterface>(op);
}

/// The loop results an op writes into, when it is a step of a parallel loop's combining
/// terminator (tensor.parallel_insert_slice in scf.forall.in_parallel: an op without
/// results in the region of a loop's terminator without operands): the results tied to
/// the loop's region iter_args among its operands (scf.forall's shared_outs). What it
/// writes into them may be (part of) any view among its operands.
inline llvm::SmallVector<mlir::Value, 2> combined_results(mlir::Operation* op) {
  llvm::SmallVector<mlir::Value, 2> r;
  if (op->getNumResults() != 0 || op->getNumRegions() != 0 || op->getNumOperands() == 0)
    return r;
  // An op of an unregistered dialect there may do more than combine: it escapes.
  if (!op->isRegistered())
    return r;
  mlir::Operation* holder = op->getParentOp();
  if (!holder || holder->getNumOperands() != 0 || !is_terminator(holder))
    return r;
  auto loop = mlir::dyn_cast_or_null<mlir::LoopLikeOpInterface>(holder->getParentOp());
  if (!loop)
    return r;
  const auto iter_args = loop.getRegionIterArgs();
  const mlir::ValueRange results = loop_results(loop);
  for (mlir::Value v : op->getOperands())
    if (const auto* it = llvm::find(iter_args, v);
        it != iter_args.end() && static_cast<std::size_t>(it - iter_args.begin()) < results.size())
      r.push_back(results[static_cast<std::size_t>(it - iter_args.begin())]);
  return r;
}

/// Whether an op has regions that the pass follows as if they ran in place, though they
/// may also hand what they use from above to its results (a closure of an unregistered
/// dialect, whose handle is dispatched): regions no interface describes, with side
/// effects. Its results may be views of what its regions use from above.
inline bool captures(mlir::Operation* op) {
  return op->getNumRegions() > 0 && !is_terminator(op) && !follows_regions(op) &&
         !is_pure_holder(op);
}

/// The values an op's regions use that are defined outside the op, each once.
inline llvm::SmallVector<mlir::Value, 4> captured_values(mlir::Operation* op) {
  llvm::SmallVector<mlir::Value, 4> r;
  llvm::SmallPtrSet<void*, 8> seen;
  for (mlir::Region& region : op->getRegions())
    region.walk([&](mlir::Operation* inner) {
      for (mlir::Value v : inner->getOperands())
        if (!op->isAncestor(v.getParentRegion()->getParentOp()) &&
            seen.insert(v.getAsOpaquePointer()).second)
          r.push_back(v);
    });
  return r;
}

/// What a region branch op that is no loop passes on entry (async.execute's body
/// operands to its body's arguments; operands passed straight to its results): bound at
/// its statement, each to what any of its operands may be.
inline llvm::SmallVector<mlir::Value, 4> entry_inputs(mlir::RegionBranchOpInterface b) {
  llvm::SmallVector<mlir::Value, 4> r;
  if (b->getNumOperands() == 0)
    return r;
  for (const mlir::RegionSuccessor& s : entry_successors(b)) {
    const auto operands = b.getEntrySuccessorOperands(s);
    const auto inputs = s.getSuccessorInputs();
    if (!operands.empty() && operands.size() <= inputs.size())
      llvm::append_range(r, inputs.take_back(operands.size()));
  }
  return r;
}

/// Whether a region's blocks may run in a cycle (found by the CFG's edges, whatever the
/// text order of its blocks: its strongly connected components).
inline bool cyclic(mlir::Region& r) {
  if (r.empty())
    return false;
  if (r.hasOneBlock()) {
    mlir::Block& b = r.front();
    return !b.empty() && b.mightHaveTerminator() &&
           llvm::is_contained(b.back().getSuccessors(), &b);
  }
  for (auto it = llvm::scc_begin(&r); !it.isAtEnd(); ++it)
    if (it.hasCycle())
      return true;
  return false;
}

/// A region of several blocks: the blocks the entry reaches, in reverse post-order (a
/// block after every block that reaches it other than along an edge back), and whether
/// each may not run (it does not post-dominate the entry: some path avoids it).
struct cfg_blocks {
  llvm::SmallVector<mlir::Block*, 8> blocks;
  llvm::SmallVector<bool, 8> guarded;
};
inline std::shared_ptr<const cfg_blocks> cfg_of(mlir::Region& r) {
  auto c = std::make_shared<cfg_blocks>();
  mlir::PostDominanceInfo post(r.getParentOp());
  mlir::Block* entry = &r.front();
  for (mlir::Block* b : llvm::ReversePostOrderTraversal<mlir::Block*>(entry)) {
    c->blocks.push_back(b);
    c->guarded.push_back(b != entry && !post.postDominates(b, entry));
  }
  return c;
}

/// The statements of some of an op's regions (or of a function's body), in order: a lazy
/// forward range, so that a body of 300,000 ops is walked, never copied. A region of one
/// block gives its ops (its terminator as role_of says); a region of several blocks its
/// blocks in reverse post-order, each such block's ops, or the block itself when it may
/// not run. Or the ops of one block, or a range of one given statement, or none.
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
    explicit iterator(mlir::Block* b) : block_only_(true) {
      if (!enter_ops(b))
        current_ = nullptr;
    }
    explicit iterator(statement only) : current_(only) {}
    statement operator*() const { return current_; }
    iterator& operator++() {
      auto* op = llvm::dyn_cast<mlir::Operation*>(current_);
      if (op && (owner_ || block_only_)) {
        mlir::Operation* next = op->getNextNode();
        if (next && next != skip_)
          current_ = next;
        else if (block_only_)
          current_ = nullptr;
        else
          next_block();
      } else if (owner_) { // a block that may not run
        next_block();
      } else { // a range of one
        current_ = nullptr;
      }
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
    /// Positions at a block's first op; a terminator that is none ends it.
    bool enter_ops(mlir::Block* b) {
      if (b->empty())
        return false;
      mlir::Operation* t = b->mightHaveTerminator() ? &b->back() : nullptr;
      skip_ = t && role_of(t) == terminator_role::none ? t : nullptr;
      if (&b->front() == skip_)
        return false;
      current_ = &b->front();
      return true;
    }
    /// Positions at the i-th block of a CFG: itself when it may not run, else its ops.
    bool enter_block(std::size_t i) {
      if (cfg_->guarded[i]) {
        current_ = cfg_->blocks[i];
        return true;
      }
      return enter_ops(cfg_->blocks[i]);
    }
    void enter_region(unsigned r) {
      for (region_ = r; region_ < end_; ++region_) {
        mlir::Region& region = owner_->getRegion(region_);
        if (region.empty())
          continue;
        if (region.hasOneBlock()) {
          cfg_.reset();
          if (enter_ops(&region.front()))
            return;
          continue;
        }
        cfg_ = cfg_of(region);
        for (pos_ = 0; pos_ < cfg_->blocks.size(); ++pos_)
          if (enter_block(pos_))
            return;
      }
      cfg_.reset();
      current_ = nullptr;
    }
    void next_block() {
      if (cfg_)
        while (++pos_ < cfg_->blocks.size())
          if (enter_block(pos_))
            return;
      enter_region(region_ + 1);
    }

    mlir::Operation* owner_ = nullptr;      ///< null: the ops of one block, or a range of one
    std::shared_ptr<const cfg_blocks> cfg_; ///< the region's, when it has several blocks
    statement current_;
    mlir::Operation* skip_ = nullptr; ///< the block's terminator, when it is no statement
    std::size_t pos_ = 0;             ///< in cfg_
    unsigned region_ = 0, end_ = 0;
    bool block_only_ = false; ///< the ops of one block
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
  /// The ops of one block (a block that may not run).
  static statements of_block(mlir::Block* b) {
    statements r(nullptr, 0, 0);
    r.block_ = b;
    return r;
  }
  iterator begin() const {
    if (block_)
      return iterator(block_);
    if (!owner_)
      return only_.isNull() ? iterator() : iterator(only_);
    return first_ < end_ ? iterator(owner_, first_, end_) : iterator();
  }
  static std::default_sentinel_t end() { return {}; }

private:
  mlir::Operation* owner_;
  unsigned first_, end_;
  statement only_;
  mlir::Block* block_ = nullptr;
};
static_assert(std::forward_iterator<statements::iterator>);

/// What a statement binds, and to what: an edge the block's arguments to what the branch
/// forwards; a select's choice the result to that operand; a binding terminator what it
/// passes on (region_transfer); a loop what it binds on entry (entry_transfer). Nothing
/// for another statement (an op binds its results to itself).
inline transfer transfer_of(statement st) {
  transfer r;
  if (auto* edge = llvm::dyn_cast<mlir::BlockOperand*>(st)) {
    const auto operands = edge_operands(edge);
    r.add(edge->get()->getArguments(), operands.getForwardedOperands());
  } else if (auto* choice = llvm::dyn_cast<mlir::OpOperand*>(st)) {
    r.add(choice->getOwner()->getResults(), choice->get());
  } else if (auto* op = llvm::dyn_cast<mlir::Operation*>(st)) {
    if (op->getNumRegions() > 0) {
      if (is_loop(op))
        r = entry_transfer(op);
    } else if (op->getNumResults() == 0 && op->getNumOperands() > 0 && is_terminator(op) &&
               role_of(op) == terminator_role::binding) {
      r = region_transfer(op);
    }
  }
  return r;
}

/// The op a statement is, or whose edges or choice it stands for (a block: its first).
inline mlir::Operation* op_of(statement s) {
  if (auto* op = llvm::dyn_cast<mlir::Operation*>(s))
    return op;
  if (auto* b = llvm::dyn_cast<mlir::Block*>(s))
    return &b->front();
  if (auto* choice = llvm::dyn_cast<mlir::OpOperand*>(s))
    return choice->getOwner();
  return llvm::cast<mlir::BlockOperand*>(s)->getOwner();
}

/// The edges a branch passes values along, each an alternative of one statement (an
/// edge into a block whose arguments it binds), and one of none: the branch may take an
/// edge that passes nothing.
inline llvm::SmallVector<statements, 2> edges_of(mlir::Operation* t) {
  llvm::SmallVector<statements, 2> edges;
  for (mlir::BlockOperand& e : t->getBlockOperands())
    if (!edge_operands(&e).getForwardedOperands().empty())
      edges.push_back(statements::only(&e));
  edges.push_back(statements::only(nullptr));
  return edges;
}

/// How a region branch op that is no loop runs its regions: once (one region, the only
/// entry: scf.execute_region), exactly one of them or none (scf.if, scf.index_switch,
/// affine.if: alternatives), or some other way (regions that follow one another: may_skip).
inline control_flow region_control(mlir::RegionBranchOpInterface b) {
  for (mlir::Region& r : b->getRegions()) {
    llvm::SmallVector<mlir::RegionSuccessor, 2> next;
    b.getSuccessorRegions(r, next);
    if (llvm::any_of(next, [](const mlir::RegionSuccessor& s) { return !s.isParent(); }))
      return control_flow::may_skip;
  }
  const auto entry = entry_successors(b);
  if (b->getNumRegions() == 1 && entry.size() == 1 && !entry.front().isParent())
    return control_flow::block;
  return control_flow::alternatives;
}

/// The regions of successors (null for the op's results), in the order they are written
/// when each begins with an op at a file position (scf.index_switch writes its default
/// region, its region 0, last), else as given: the walk's order is the source order.
inline llvm::SmallVector<mlir::Region*, 4>
in_source_order(llvm::ArrayRef<mlir::RegionSuccessor> successors) {
  llvm::SmallVector<mlir::Region*, 4> regions;
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4> at;
  bool placed = true;
  for (const mlir::RegionSuccessor& s : successors) {
    mlir::Region* r = s.getSuccessor();
    regions.push_back(r);
    auto loc = r && !r->empty() && !r->front().empty()
                   ? mlir::dyn_cast<mlir::FileLineColLoc>(r->front().front().getLoc())
                   : mlir::FileLineColLoc();
    placed = placed && (!r || loc);
    at.emplace_back(loc ? loc.getLine() : ~0u, loc ? loc.getColumn() : ~0u);
  }
  if (!placed)
    return regions;
  llvm::SmallVector<unsigned, 4> order(regions.size());
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return std::pair(at[a], a) < std::pair(at[b], b); // stable: equal places keep their order
  });
  llvm::SmallVector<mlir::Region*, 4> sorted;
  for (unsigned i : order)
    sorted.push_back(regions[i]);
  return sorted;
}

inline llvm::SmallVector<expression, 6> operands_of(mlir::Operation* o, unsigned skip = 0) {
  llvm::SmallVector<expression, 6> r;
  for (auto v : o->getOperands().drop_front(std::min(skip, o->getNumOperands())))
    r.push_back({o, v});
  return r;
}

/// The operands of a loop or region branch op that no interface places: neither a bound
/// nor an init of a loop nor an entry operand of a region. scf.parallel's init values
/// are such: they reach its scf.reduce's regions and its results.
inline llvm::SmallVector<mlir::Value, 4> unplaced_operands(mlir::Operation* op) {
  llvm::SmallVector<mlir::Value, 8> placed;
  if (auto loop = mlir::dyn_cast<mlir::LoopLikeOpInterface>(op)) {
    for (const auto& bounds :
         {loop.getLoopLowerBounds(), loop.getLoopUpperBounds(), loop.getLoopSteps()})
      if (bounds)
        for (mlir::OpFoldResult f : *bounds)
          if (auto v = llvm::dyn_cast<mlir::Value>(f))
            placed.push_back(v);
    llvm::append_range(placed, loop.getInits());
  }
  if (auto b = mlir::dyn_cast<mlir::RegionBranchOpInterface>(op))
    for (const mlir::RegionSuccessor& s : entry_successors(b))
      llvm::append_range(placed, b.getEntrySuccessorOperands(s));
  llvm::SmallVector<mlir::Value, 4> r;
  for (mlir::Value v : op->getOperands())
    if (!llvm::is_contained(placed, v))
      r.push_back(v);
  return r;
}

/// An integer attribute (not i1) that fits an int64.
inline std::optional<std::int64_t> integer_of(mlir::Attribute a) {
  auto i = mlir::dyn_cast_or_null<mlir::IntegerAttr>(a);
  if (!i || i.getType().isInteger(1) || i.getValue().getSignificantBits() > 64)
    return std::nullopt;
  return i.getValue().getSExtValue();
}

/// The value of an integer arith.constant (not i1) that fits an int64.
inline std::optional<std::int64_t> constant_of(mlir::Value v) {
  auto c = v.getDefiningOp<mlir::arith::ConstantOp>();
  return c ? integer_of(c.getValue()) : std::nullopt;
}

/// A loop bound: an SSA value, or an integer attribute.
inline bool is_bound(const std::optional<mlir::OpFoldResult>& f) {
  return f && (llvm::isa<mlir::Value>(*f) || integer_of(llvm::cast<mlir::Attribute>(*f)));
}

/// A counted loop (LoopLikeOpInterface): one induction variable from its lower bound up
/// to its upper bound by its step, each an SSA value or a constant (scf.for, affine.for
/// with constant bounds, a one-dimensional scf.forall or scf.parallel).
inline bool is_counted(mlir::Operation* op) {
  auto loop = mlir::dyn_cast<mlir::LoopLikeOpInterface>(op);
  return loop && loop.getSingleInductionVar() && is_bound(loop.getSingleLowerBound()) &&
         is_bound(loop.getSingleUpperBound()) && is_bound(loop.getSingleStep());
}

/// The constant bound `part` of a counted loop.
inline std::int64_t bound_value(mlir::Operation* op, bound_part part) {
  auto loop = mlir::cast<mlir::LoopLikeOpInterface>(op);
  const auto f = part == bound_part::lower   ? loop.getSingleLowerBound()
                 : part == bound_part::upper ? loop.getSingleUpperBound()
                                             : loop.getSingleStep();
  return *integer_of(llvm::cast<mlir::Attribute>(*f));
}

/// A counted loop runs from its lower bound up to its upper bound with a positive step;
/// a constant step <= 0 is no loop Python's range rules describe.
inline bool positive_step(mlir::OpFoldResult step) {
  if (auto v = llvm::dyn_cast<mlir::Value>(step)) {
    llvm::APInt s;
    return !mlir::matchPattern(v, mlir::m_ConstantInt(&s)) || s.isStrictlyPositive();
  }
  return *integer_of(llvm::cast<mlir::Attribute>(step)) > 0;
}

/// Whether a counted loop's induction variable may pass its type's maximum before it
/// reaches the upper bound: scf.for steps with an arith.addi that wraps (i8 from 100 to
/// 127 by 20 runs 100, 120, -116, ... forever; i64 from 3 to 4 by 2^63 - 1 runs 3, then
/// a negative value, then 1), while the bounds describe only 100 and 120. A bound or step
/// that is no constant (the world size) is taken at `limit`, the largest world the
/// analysis handles: the others make the loop's devices unsupported anyway. An `index`
/// is taken at 64 bits, as MLIR's default data layout has it.
inline bool may_wrap(mlir::LoopLikeOpInterface loop, std::int64_t limit) {
  const mlir::Type iv = loop.getSingleInductionVar()->getType();
  unsigned width = 0;
  if (auto type = mlir::dyn_cast<mlir::IntegerType>(iv))
    width = type.getWidth();
  else if (iv.isIndex())
    width = 64;
  if (width == 0)
    return false;
  const auto value = [&](mlir::OpFoldResult f) {
    auto v = llvm::dyn_cast<mlir::Value>(f);
    return (v ? constant_of(v) : integer_of(llvm::cast<mlir::Attribute>(f))).value_or(limit);
  };
  const std::int64_t upper = value(*loop.getSingleUpperBound());
  const std::int64_t step = value(*loop.getSingleStep());
  const std::int64_t max = llvm::APInt::getSignedMaxValue(std::min(width, 64u)).getSExtValue();
  // The last value below the upper bound, plus the step, past max (steps are positive:
  // max - step cannot overflow).
  return upper > max || step > max || (upper > INT64_MIN && step > 0 && upper - 1 > max - step);
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
  /// A body whose blocks may run in a cycle is presented as the function op itself, a
  /// statement that repeats them.
  static pld::statements body(function f) {
    return pld::cyclic(f.getBody()) ? pld::statements::only(f.getOperation()) : pld::statements(f);
  }
  /// The rewrite nests one block: a body with a CFG (several blocks) cannot be wrapped.
  static bool can_wrap_body(function f) { return f.getBody().hasOneBlock(); }
  /// One nested region per domain: MLIR prints and verifies regions recursively, and
  /// its printer overflows an 8 MB stack between 6,000 and 8,000 levels (and the verifier
  /// and printer are quadratic in the depth): stay an order of magnitude below.
  static constexpr std::size_t scope_nesting_limit = 512;

  // ---- statements
  // Asked of every statement: an op without regions, the common case, is tested first.
  static statement_kind statement_kind_of(statement st) {
    auto* s = llvm::dyn_cast<mlir::Operation*>(st);
    if (s && s->getNumRegions() == 0) {
      if (s->getNumResults() > 0)
        return pld::is_select(s) || returns_arguments(s) ? statement_kind::other
                                                         : statement_kind::assignment;
      if (s->getNumOperands() == 0 || !pld::is_terminator(s))
        return pld::combined_results(s).empty() ? statement_kind::evaluation
                                                : statement_kind::assignment;
      switch (pld::role_of(s)) {
      case pld::terminator_role::binding:
      case pld::terminator_role::derives:
        return statement_kind::assignment;
      case pld::terminator_role::edges:
        return statement_kind::other;
      default:
        return statement_kind::evaluation;
      }
    }
    if (!s) // an edge or a choice binds; a block that may not run holds ops
      return llvm::isa<mlir::Block*>(st) ? statement_kind::other : statement_kind::assignment;
    if (mlir::isa<pld::comm_domain_scope>(s))
      return statement_kind::scope;
    if (pld::is_counted(s))
      return statement_kind::for_loop;
    return pld::is_loop(s) ? statement_kind::while_loop : statement_kind::other;
  }
  static location location_of(statement s) { return pld::op_of(s)->getLoc(); }
  /// An op that may end the run in some worlds and not in others, as the DSL's `assert`
  /// and calls of functions it does not know do: cf.assert; a call, whose callee may
  /// exit (func.call @exit) or check the world's size; an op of a dialect that is not
  /// registered, which may do either. No dispatch after one surely runs.
  static bool may_end_run(statement st) {
    auto* s = llvm::dyn_cast<mlir::Operation*>(st);
    if (!s)
      return false;
    if (!s->isRegistered() || mlir::isa<mlir::CallOpInterface>(s))
      return true;
    return s->getNumResults() == 0 && s->getNumRegions() == 0 &&
           s->getName().getStringRef() == "cf.assert";
  }
  /// An op's regions; a block that may not run, its ops; a branch's edges and a select's
  /// choices are its branches only.
  static pld::statements children(statement s) {
    if (auto* op = llvm::dyn_cast<mlir::Operation*>(s))
      return pld::statements(op);
    if (auto* block = llvm::dyn_cast<mlir::Block*>(s))
      return pld::statements::of_block(block);
    return pld::statements::only(nullptr);
  }
  /// An op whose regions' blocks may run in a cycle, or a loop, repeats; a region branch
  /// op that is no loop runs its regions as its interface says (region_control); a block
  /// that may not run runs at most once. An op of another kind, which no interface says
  /// how often runs its regions (tensor.generate and linalg.generic once per element,
  /// gpu.launch per thread), repeats: a collective there is in a loop, and nothing
  /// bound there is taken to hold in a single run.
  static control_flow control_of(statement st) {
    auto* s = llvm::dyn_cast<mlir::Operation*>(st);
    if (s && s->getNumRegions() == 0)
      return pld::is_select(s) || (pld::is_terminator(s) && s->getNumSuccessors() > 0)
                 ? control_flow::alternatives
                 : control_flow::block;
    if (!s) // a block that may not run, or an edge or a choice (no children)
      return llvm::isa<mlir::Block*>(st) ? control_flow::may_skip : control_flow::block;
    if (mlir::isa<pld::comm_domain_scope>(s))
      return control_flow::block;
    if (llvm::any_of(s->getRegions(), [](mlir::Region& r) { return pld::cyclic(r); }) ||
        pld::is_loop(s))
      return control_flow::repeat;
    if (auto b = mlir::dyn_cast<mlir::RegionBranchOpInterface>(s))
      return pld::region_control(b);
    return control_flow::repeat;
  }
  /// A region branch op: the regions it may enter, in source order (none when it may
  /// enter none: scf.if without else, last); a branch: its edges;
  /// arith.select: its two choices.
  static llvm::SmallVector<pld::statements, 2> branches(statement st) {
    auto* s = llvm::cast<mlir::Operation*>(st);
    llvm::SmallVector<pld::statements, 2> r;
    if (pld::is_select(s)) {
      r.push_back(pld::statements::only(&s->getOpOperand(1)));
      r.push_back(pld::statements::only(&s->getOpOperand(2)));
    } else if (s->getNumRegions() == 0) {
      return pld::edges_of(s);
    } else {
      for (mlir::Region* region : pld::in_source_order(
               pld::entry_successors(mlir::cast<mlir::RegionBranchOpInterface>(s))))
        r.push_back(region ? pld::statements(*region) : pld::statements::only(nullptr));
    }
    return r;
  }
  /// An op's results; an op without side effects whose regions no interface describes
  /// (pld::is_pure_holder), also its regions' arguments, and its terminator its results;
  /// a region branch op that is no loop what it passes on entry (pld::entry_inputs);
  /// else what the statement binds (pld::transfer_of).
  static llvm::SmallVector<variable, 4> targets(statement s) {
    auto* op = llvm::dyn_cast<mlir::Operation*>(s);
    if (op && op->getNumRegions() == 0 && op->getNumResults() > 0 && !pld::is_select(op))
      return llvm::SmallVector<variable, 4>(op->getResults().begin(), op->getResults().end());
    // An op without results binds nothing, unless it writes into a loop's results.
    if (op && op->getNumRegions() == 0 && op->getNumResults() == 0 && !pld::is_terminator(op))
      return pld::combined_results(op);
    if (op && op->getNumRegions() > 0 && pld::is_pure_holder(op)) {
      llvm::SmallVector<variable, 4> r(op->getResults().begin(), op->getResults().end());
      for (mlir::Region& region : op->getRegions())
        if (!region.empty())
          llvm::append_range(r, region.front().getArguments());
      return r;
    }
    if (op && op->getNumRegions() == 0 && op->getNumOperands() > 0 && pld::is_terminator(op) &&
        pld::role_of(op) == pld::terminator_role::derives) {
      const auto results = op->getParentOp()->getResults();
      return llvm::SmallVector<variable, 4>(results.begin(), results.end());
    }
    if (op && op->getNumRegions() > 0 && !pld::is_loop(op))
      if (auto b = mlir::dyn_cast<mlir::RegionBranchOpInterface>(op))
        return pld::entry_inputs(b);
    // Its results may be views of what its regions use from above (flow_of).
    if (op && op->getNumResults() > 0 && pld::captures(op))
      return llvm::SmallVector<variable, 4>(op->getResults().begin(), op->getResults().end());
    return pld::transfer_of(s).targets;
  }
  /// A binding terminator, an edge of one value, a select's choice or an integer cast
  /// that keeps devices (pld::keeps_device_values) is a copy; any other statement is the
  /// op itself (and what it binds is in values()).
  static expression value(statement s) {
    auto* op = llvm::dyn_cast<mlir::Operation*>(s);
    if (op && op->getNumResults() > 0 && op->getNumRegions() == 0 && pld::keeps_device_values(op))
      return {op, op->getOperand(0)};
    if (op && (op->getNumResults() > 0 || op->getNumRegions() > 0 || !pld::is_terminator(op)))
      return {op, {}};
    if (const auto t = pld::transfer_of(s); t.sources.size() == 1)
      return {pld::op_of(s), t.sources.front()};
    return {pld::op_of(s), {}};
  }
  /// The value of each target (targets()) of a binding terminator, an edge or a loop's
  /// entry; none for an op, which binds its results to itself (value()).
  static llvm::SmallVector<expression, 6> values(statement s) {
    llvm::SmallVector<expression, 6> r;
    for (mlir::Value v : pld::transfer_of(s).sources)
      r.push_back({pld::op_of(s), v});
    return r;
  }
  /// An op's operands; an op with regions whose transfers the pass does not follow
  /// (pld::follows_regions), the op itself, which flow_of judges.
  static llvm::SmallVector<expression, 6> expressions(statement s) {
    auto* op = llvm::dyn_cast<mlir::Operation*>(s);
    if (!op)
      return {};
    if (op->getNumRegions() == 0 && returns_arguments(op)) {
      auto r = pld::operands_of(op);
      r.insert(r.begin(), expression{op, {}});
      return r;
    }
    if (op->getNumRegions() == 0 || pld::follows_regions(op))
      return pld::operands_of(op);
    return {expression{op, {}}};
  }
  /// Whether an op is a call with results whose callee may return an argument it is given
  /// (a tensor in destination-passing style), which the library takes for no view: a
  /// pld.dispatch, or a call (CallOpInterface). Such a call is a statement of its own
  /// kind, whose expressions are the call (a dispatch, or an escape of its view operands)
  /// and its operands, so that its results may be any view among those. A call of
  /// anything but a chip orchestrator makes its view operands view-escapes already, so
  /// what its results derive from changes nothing there; asking which function it calls
  /// would cost a scan of the module for every call (no symbol table reaches a static
  /// member).
  static bool returns_arguments(mlir::Operation* op) {
    return op->getNumResults() > 0 && op->getNumOperands() > 0 &&
           mlir::isa<pld::dispatch, mlir::CallOpInterface>(op);
  }
  static variable loop_variable(statement s) {
    return *mlir::cast<mlir::LoopLikeOpInterface>(llvm::cast<mlir::Operation*>(s))
                .getSingleInductionVar();
  }
  /// Each bound an SSA value, or a constant of the loop (affine.for). A non-positive
  /// constant step, or a step of an induction variable that may wrap (pld::may_wrap), is
  /// given as the loop op itself, an expression of kind other: the devices of such a
  /// loop are `unsupported-device`.
  static commscope::loop_bounds<expression> loop_bounds(statement st) {
    auto* s = llvm::cast<mlir::Operation*>(st);
    auto loop = mlir::cast<mlir::LoopLikeOpInterface>(s);
    const auto bound = [&](mlir::OpFoldResult f, pld::bound_part part) {
      auto v = llvm::dyn_cast<mlir::Value>(f);
      return v ? expression{s, v} : expression{s, {}, part};
    };
    const mlir::OpFoldResult step = *loop.getSingleStep();
    return {bound(*loop.getSingleLowerBound(), pld::bound_part::lower),
            bound(*loop.getSingleUpperBound(), pld::bound_part::upper),
            pld::positive_step(step) &&
                    !pld::may_wrap(loop, contract::device_limit::of<ir_traits>())
                ? bound(step, pld::bound_part::step)
                : expression{s, {}}};
  }

  // ---- expressions
  static expression_kind expression_kind_of(expression e) {
    if (e.value)
      return expression_kind::variable;
    if (e.part != pld::bound_part::none)
      return expression_kind::integer;
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(e.op)) {
      // i1 is a boolean, and a wider constant may not fit an int64.
      auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue());
      const bool fits = i && !i.getType().isInteger(1) && i.getValue().getSignificantBits() <= 64;
      return fits ? expression_kind::integer : expression_kind::other;
    }
    const bool call = pld::recognized::classify(e.op) != operation::none ||
                      mlir::isa<pld::dispatch, mlir::func::CallOp>(e.op);
    return call ? expression_kind::call : expression_kind::other;
  }
  static location location_of(expression e) { return e.op->getLoc(); }
  static std::int64_t integer_value(expression e) {
    if (e.part != pld::bound_part::none)
      return pld::bound_value(e.op, e.part);
    auto c = mlir::cast<mlir::arith::ConstantOp>(e.op);
    return mlir::cast<mlir::IntegerAttr>(c.getValue()).getValue().getSExtValue();
  }
  static variable variable_of(expression e) { return e.value; }
  /// The symbol table of the module being analyzed, when the caller built one (the
  /// passes do: `analyze(m, ir_traits<mlir::ModuleOp>{&table})`): a callee is then found
  /// in O(1), where lookupNearestSymbolFrom scans the module for every dispatch
  /// (quadratic in the number of functions). A default-constructed traits object falls
  /// back to that scan.
  const mlir::SymbolTable* symbols = nullptr;
  /// Without a table the lookup scans: a default-constructed object works.
  static constexpr bool usable_by_default = true;

  /// A dispatch's (or func.call's) callee, looked up in the module's symbol table.
  call_target call_target_of(expression e) const {
    if (auto op = pld::recognized::classify(e.op); op != operation::none)
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
  /// An op's operands; for a terminator with regions and operands (scf.reduce, which
  /// the pass does not follow), also what the op it ends passes into them where no
  /// interface says (pld::unplaced_operands: scf.parallel's init values), so that a view
  /// among those is view-escapes there too.
  static llvm::SmallVector<expression, 6> subexpressions(expression e) {
    if (e.value || e.part != pld::bound_part::none)
      return {};
    auto r = pld::operands_of(e.op);
    mlir::Operation* parent = e.op->getParentOp();
    // The terminator of an op without side effects whose regions no interface describes
    // binds the op's results (targets) to what they may be: what it yields, and what they
    // already may be (the op's operands, another terminator's yield).
    if (e.op->getNumRegions() == 0 && !r.empty() && pld::is_terminator(e.op) &&
        pld::role_of(e.op) == pld::terminator_role::derives) {
      for (mlir::Value v : parent->getOperands())
        r.push_back({e.op, v});
      for (mlir::Value v : parent->getResults())
        r.push_back({e.op, v});
      return r;
    }
    if (e.op->getNumRegions() > 0 && e.op->getNumOperands() > 0 && pld::is_terminator(e.op) &&
        mlir::isa_and_present<mlir::LoopLikeOpInterface, mlir::RegionBranchOpInterface>(parent))
      for (mlir::Value v : pld::unplaced_operands(parent))
        r.push_back({e.op, v});
    // What an op's regions use from above comes first: its receivers (flow_of).
    if (pld::captures(e.op)) {
      llvm::SmallVector<expression, 6> captured;
      for (mlir::Value v : pld::captured_values(e.op))
        captured.push_back({e.op, v});
      r.insert(r.begin(), captured.begin(), captured.end());
    }
    return r;
  }

  // ---- every use of a view is followed or refused
  /// What an op the pass does not recognize does with the views among its operands.
  /// Derived: an op without side effects (isMemoryEffectFree: pure ops, casts, view-like
  /// ops, tensor.extract_slice, builtin.unrealized_conversion_cast, ...; tensor.pad and
  /// others whose regions no interface describes: pld::is_pure_holder), a transfer the
  /// IR describes (a region branch op or loop, a region terminator that passes values
  /// on, a branch, func.return, pld.yield), an op without operands, a call of a chip
  /// orchestrator without a device. Escapes: a call (CallOpInterface) of another
  /// function, named by its callee (inline it first; a declaration, whose body is
  /// elsewhere, is external: no inlining it), any other op that may have
  /// side effects (an op of an unregistered dialect, memref.store, func.call_indirect),
  /// an op with regions the pass does not follow and side effects, a terminator that
  /// passes values where no interface says (the return of a function the module calls).
  expression_flow flow_of(expression e) const {
    constexpr expression_flow derived{operand_flow::derived, {}, false};
    if (e.value || e.part != pld::bound_part::none ||
        (e.op->getNumOperands() == 0 && !pld::captures(e.op)))
      return derived;
    mlir::Operation* op = e.op;
    const auto named = [](llvm::StringRef n, bool call) {
      return expression_flow{operand_flow::escapes, std::string_view(n.data(), n.size()), call};
    };
    if (auto call = mlir::dyn_cast<mlir::CallOpInterface>(op)) {
      auto callee = llvm::dyn_cast<mlir::SymbolRefAttr>(call.getCallableForCallee());
      if (!callee)
        return named(op->getName().getStringRef(), false);
      // A chip orchestrator called without a device runs nowhere the pass counts: its
      // operands are no escape.
      auto flat = mlir::dyn_cast<mlir::FlatSymbolRefAttr>(callee);
      const function f =
          !flat     ? function()
          : symbols ? symbols->lookup<function>(flat.getAttr())
                    : mlir::SymbolTable::lookupNearestSymbolFrom<function>(op, flat.getAttr());
      if (f && describe(f).is_chip_orchestrator())
        return derived;
      auto flow = named(callee.getLeafReference().getValue(), true);
      flow.external = f && function(f).isDeclaration(); // no body to inline
      return flow;
    }
    if (auto d = mlir::dyn_cast<pld::dispatch>(op)) // of a function that is no chip orchestrator
      return named(d.getCallee(), true);
    if (op->getNumRegions() == 0 && pld::is_terminator(op))
      return pld::role_of(op) == pld::terminator_role::escapes
                 ? named(op->getName().getStringRef(), false)
                 : derived;
    if (op->getNumRegions() > 0) {
      if (pld::follows_regions(op) || pld::is_pure_holder(op))
        return derived;
      // What its regions use from above, they use where the pass follows them, and its
      // results may hold it (a closure's handle): its receivers.
      auto flow = named(op->getName().getStringRef(), false);
      if (pld::captures(op))
        flow.receivers = static_cast<std::uint32_t>(pld::captured_values(op).size());
      return flow;
    }
    if (mlir::isa<mlir::CastOpInterface, mlir::ViewLikeOpInterface>(op) ||
        mlir::isMemoryEffectFree(op) || mlir::isa<pld::comm_domain_scope, pld::yield>(op) ||
        !pld::combined_results(op).empty())
      return derived;
    return named(op->getName().getStringRef(), false);
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
  /// A view's window buffer is its pointer's allocation (through casts of it: an op of
  /// one operand and one result that is a cast or has no side effects), when both carry
  /// the same id.
  static window_buffer view_window_buffer(statement, variable v) {
    auto w = mlir::dyn_cast_or_null<pld::window>(v.getDefiningOp());
    if (!w || w->getNumOperands() == 0 || !pld::window_buffer_id(w))
      return nullptr;
    auto* a = w->getOperand(0).getDefiningOp();
    while (a && !mlir::isa<pld::alloc_window_buffer>(a) && a->getNumOperands() == 1 &&
           a->getNumResults() == 1 && a->getNumRegions() == 0 &&
           (mlir::isa<mlir::CastOpInterface>(a) || mlir::isMemoryEffectFree(a)))
      a = a->getOperand(0).getDefiningOp();
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
