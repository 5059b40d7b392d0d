// The MLIR adapter: `commscope::ir_traits<mlir::ModuleOp>`, an ordinary client of
// ../traits.hpp. The MLIR form of a host program is in tests/mlir/*.mlir.
// Levels and roles are attributes of func.func: pld.level ("host", "chip", ...), pld.role
// ("orchestrator", ...), pld.type ("orchestration", "graph", ...), their values checked by
// the dialect (dialect.td). Statements are ops, a block's
// terminator excepted; an op is the value of its assignment (its results the targets),
// its operands are variables. The rewrite is in place: an allocation gets
// `window_buffer = <id>` (unique in its function), each view's pld.window the same id,
// and the host body moves into nested pld.comm_domain_scope ops listing ids as `slots`.
// Signal synthesis (layer 4) is in place too: a signal-less pld.allreduce gets its
// window built from arith and pld ops just before it.
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

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
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

/// The statements of an op's regions (or a function's body), terminators left out, in
/// order: a lazy forward range, so that a body of 300,000 ops is walked, never copied.
class statements {
public:
  class iterator {
  public:
    using value_type = mlir::Operation*;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(mlir::Operation* owner) : owner_(owner) { enter_region(0); }
    mlir::Operation* operator*() const { return op_; }
    iterator& operator++() {
      op_ = op_->getNextNode();
      if (!op_ || op_ == last_)
        next_block();
      return *this;
    }
    iterator operator++(int) {
      iterator r = *this;
      ++*this;
      return r;
    }
    bool operator==(const iterator& o) const { return op_ == o.op_; }
    bool operator==(std::default_sentinel_t) const { return op_ == nullptr; }

  private:
    /// Positions at a block's first statement; its terminator (if any) ends it.
    bool enter_block(mlir::Block* b) {
      block_ = b;
      if (b->empty())
        return false;
      last_ = b->mightHaveTerminator() ? &b->back() : nullptr;
      op_ = &b->front() != last_ ? &b->front() : nullptr;
      return op_ != nullptr;
    }
    void enter_region(unsigned r) {
      for (region_ = r; region_ < owner_->getNumRegions(); ++region_)
        for (auto& b : owner_->getRegion(region_))
          if (enter_block(&b))
            return;
      op_ = nullptr;
    }
    void next_block() {
      for (auto* b = block_->getNextNode(); b; b = b->getNextNode())
        if (enter_block(b))
          return;
      enter_region(region_ + 1);
    }

    mlir::Operation* owner_ = nullptr;
    mlir::Block* block_ = nullptr;
    mlir::Operation* op_ = nullptr;
    mlir::Operation* last_ = nullptr;
    unsigned region_ = 0;
  };

  explicit statements(mlir::Operation* owner) : owner_(owner) {}
  iterator begin() const { return owner_->getNumRegions() ? iterator(owner_) : iterator(); }
  static std::default_sentinel_t end() { return {}; }

private:
  mlir::Operation* owner_;
};
static_assert(std::forward_iterator<statements::iterator>);

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
  using statement = mlir::Operation*;
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
  static statement_kind statement_kind_of(statement s) {
    return mlir::isa<pld::comm_domain_scope>(s) ? statement_kind::scope
           : mlir::isa<mlir::scf::ForOp>(s)     ? statement_kind::for_loop
           : mlir::isa<mlir::scf::WhileOp>(s)   ? statement_kind::while_loop
           : s->getNumRegions() > 0             ? statement_kind::other
           : s->getNumResults() > 0             ? statement_kind::assignment
                                                : statement_kind::evaluation;
  }
  static location statement_location(statement s) { return s->getLoc(); }
  static pld::statements children(statement s) { return pld::statements(s); }
  static llvm::SmallVector<variable, 2> targets(statement s) {
    return llvm::SmallVector<variable, 2>(s->getResults().begin(), s->getResults().end());
  }
  static expression value(statement s) { return {s, {}}; }
  static llvm::SmallVector<expression, 6> expressions(statement s) { return pld::operands_of(s); }
  static variable loop_variable(statement s) {
    return mlir::cast<mlir::scf::ForOp>(s).getInductionVar();
  }
  /// A non-positive constant step is given as the loop op itself, an expression of
  /// kind other: the devices of such a loop are `unsupported-device`.
  static commscope::loop_bounds<expression> loop_bounds(statement s) {
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
  static location expression_location(expression e) { return e.op->getLoc(); }
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
  static llvm::SmallVector<expression, 6> subexpressions(expression e) {
    return e.value ? llvm::SmallVector<expression, 6>{} : pld::operands_of(e.op);
  }
  static const void* variable_key(variable v) { return v.getAsOpaquePointer(); }

  // ---- reading materialized scopes
  static std::string_view scope_name(statement s) { return pld::string_attr(s, "name"); }
  static llvm::ArrayRef<std::int64_t> scope_devices(statement s) {
    auto a = s->getAttrOfType<mlir::DenseI64ArrayAttr>("devices");
    return a ? a.asArrayRef() : llvm::ArrayRef<std::int64_t>();
  }
  /// The allocations inside the scope that `slots` names; an id none carries is null
  /// (as is a hand-written allocation without its one operand and result).
  static llvm::SmallVector<window_buffer, 4> scope_slots(statement s) {
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
  static window_buffer view_window_buffer(variable v) {
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
  static void retype_view(rewriter&, variable v, window_buffer w) {
    mlir::cast<pld::window>(v.getDefiningOp())
        .setWindowBufferAttr(mlir::cast<pld::alloc_window_buffer>(w).getWindowBufferAttr());
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
          b.getDenseI64ArrayAttr({s.devices.data(), s.devices.size()}),
          b.getDenseI64ArrayAttr(ids));
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
  ///   %sig = pld.window(%buf, %ws, %cores) {dtype = i32} : (i64, index, index) -> tensor<?xCORESxi32>
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
