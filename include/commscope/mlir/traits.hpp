// The MLIR adapter: `commscope::ir_traits<mlir::ModuleOp>`, an ordinary client of
// ../traits.hpp, nothing more. The MLIR form of a host program:
//
//   func.func @host() attributes {pld.level = "host", pld.role = "orchestrator"} {
//     %size = arith.constant 1024 : index
//     %buf = "pld.alloc_window_buffer"(%size) {name = "buf"} : (index) -> i64
//     %data = "pld.window"(%buf, %size) {dtype = f32} : (i64, index) -> tensor<?xf32>
//     %n = "pld.world_size"() : () -> index
//     scf.for %r = %c0 to %n step %c1 {
//       "pld.dispatch"(%r, %data) {callee = @chip} : (index, tensor<?xf32>) -> ()
//     }
//     return
//   }
//
// A function's level is `pld.level` ("host", "chip"); it is an orchestrator when
// `pld.role = "orchestrator"` or `pld.type = "orchestration"`, a graph when
// `pld.type = "graph"`. Statements are ops (a block's terminator is not one: it only
// forwards values); an op's operand is an expression of kind variable, the op itself is
// the value of its assignment (its results are the targets). The rewrite is in place:
// each allocation gets `window_buffer = <id>` (unique in its function), each view's
// `pld.window` the id of its allocation, and the host body moves into nested
// `pld.comm_domain_scope` ops whose `slots` list ids. Host orchestrators are single-block.
#pragma once

#include <commscope/mlir/dialect.hpp>
#include <commscope/traits.hpp>

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/IR/Builders.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/SymbolTable.h>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace commscope::pld {

/// An op as an expression (`value` null), or one of its operands (kind variable).
struct expression {
  ::mlir::Operation* op = nullptr;
  ::mlir::Value value;
};

inline std::string_view string_attr(::mlir::Operation* o, ::llvm::StringRef name) {
  auto a = o ? o->getAttrOfType<::mlir::StringAttr>(name) : nullptr;
  return a ? std::string_view(a.getValue()) : std::string_view();
}

/// The statements of an op's regions (or a function's body), terminators left out.
inline ::llvm::SmallVector<::mlir::Operation*, 8> statements_of(::mlir::Operation* o) {
  ::llvm::SmallVector<::mlir::Operation*, 8> r;
  for (auto& region : o->getRegions())
    for (auto& block : region)
      for (auto& s : block.without_terminator())
        r.push_back(&s);
  return r;
}

inline ::llvm::SmallVector<expression, 6> operands_of(::mlir::Operation* o, unsigned skip = 0) {
  ::llvm::SmallVector<expression, 6> r;
  for (auto v : o->getOperands().drop_front(std::min(skip, o->getNumOperands())))
    r.push_back({o, v});
  return r;
}

inline constexpr ::llvm::StringLiteral window_buffer_attr = "window_buffer";

inline std::optional<std::int64_t> window_buffer_id(::mlir::Operation* o) {
  if (auto a = o->getAttrOfType<::mlir::IntegerAttr>(window_buffer_attr))
    return a.getInt();
  return std::nullopt;
}

/// The allocations below `o` by window-buffer id.
inline ::llvm::DenseMap<std::int64_t, ::mlir::Operation*> allocations_below(::mlir::Operation* o) {
  ::llvm::DenseMap<std::int64_t, ::mlir::Operation*> r;
  o->walk([&](alloc_window_buffer a) {
    if (auto id = window_buffer_id(a))
      r.try_emplace(*id, a.getOperation());
  });
  return r;
}

inline void make_yield(::mlir::OpBuilder& b, ::mlir::Location at, ::mlir::ValueRange values) {
  ::mlir::OperationState st(at, yield::getOperationName());
  st.addOperands(values);
  b.create(st);
}

/// The rewrite's state: the next window-buffer id of the function being rewritten.
struct rewriter {
  std::int64_t next_id = 0;
};

} // namespace commscope::pld

template <>
struct commscope::ir_traits<mlir::ModuleOp> {
  using program = mlir::ModuleOp;
  using function = mlir::func::FuncOp;
  using statement = mlir::Operation*;
  using expression = pld::expression;
  using variable = mlir::Value;
  using location = mlir::LocationAttr; // mlir::Location has no empty state
  using window_buffer = mlir::Operation*; // the allocation op

  // ---- program and functions
  static llvm::SmallVector<function, 8> functions(const program& p) {
    return llvm::to_vector<8>(mlir::ModuleOp(p).getOps<function>());
  }
  static function_info describe(function f) {
    const auto what = pld::string_attr(f, "pld.level");
    const auto type = pld::string_attr(f, "pld.type");
    return {std::string_view(f.getSymName()),
            what == "host" ? level::host : what == "chip" ? level::chip : level::other,
            pld::string_attr(f, "pld.role") == "orchestrator" || type == "orchestration",
            type == "graph"};
  }
  static llvm::SmallVector<statement, 8> body(function f) { return pld::statements_of(f); }

  // ---- statements
  static statement_kind statement_kind_of(statement s) {
    if (mlir::isa<pld::comm_domain_scope>(s))
      return statement_kind::scope;
    if (mlir::isa<mlir::scf::ForOp>(s))
      return statement_kind::for_loop;
    if (mlir::isa<mlir::scf::WhileOp>(s))
      return statement_kind::while_loop;
    if (s->getNumRegions() > 0)
      return statement_kind::other;
    return s->getNumResults() > 0 ? statement_kind::assignment : statement_kind::evaluation;
  }
  static location statement_location(statement s) { return s->getLoc(); }
  static llvm::SmallVector<statement, 8> children(statement s) { return pld::statements_of(s); }
  static llvm::SmallVector<variable, 2> targets(statement s) {
    return llvm::to_vector<2>(llvm::map_range(s->getResults(), [](mlir::Value v) { return v; }));
  }
  static expression value(statement s) { return {s, {}}; }
  static llvm::SmallVector<expression, 6> expressions(statement s) { return pld::operands_of(s); }
  static variable loop_variable(statement s) {
    return mlir::cast<mlir::scf::ForOp>(s).getInductionVar();
  }
  static commscope::loop_bounds<expression> loop_bounds(statement s) {
    auto f = mlir::cast<mlir::scf::ForOp>(s);
    return {{s, f.getLowerBound()}, {s, f.getUpperBound()}, {s, f.getStep()}};
  }

  // ---- expressions
  static expression_kind expression_kind_of(expression e) {
    if (e.value)
      return expression_kind::variable;
    if (!e.op)
      return expression_kind::other;
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(e.op)) {
      auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue());
      // i1 is a boolean, and wider constants may not fit the library's int64.
      return i && !i.getType().isInteger(1) && i.getValue().getSignificantBits() <= 64
                 ? expression_kind::integer
                 : expression_kind::other;
    }
    return pld::recognised::classify(e.op) != operation::none ||
                   mlir::isa<pld::dispatch, mlir::func::CallOp>(e.op)
               ? expression_kind::call
               : expression_kind::other;
  }
  static location expression_location(expression e) { return e.op->getLoc(); }
  static std::int64_t integer_value(expression e) {
    return mlir::cast<mlir::IntegerAttr>(mlir::cast<mlir::arith::ConstantOp>(e.op).getValue())
        .getValue()
        .getSExtValue();
  }
  static variable variable_of(expression e) { return e.value; }
  static call_target call_target_of(expression e) {
    if (auto op = pld::recognised::classify(e.op); op != operation::none)
      return call_target::of(op);
    auto callee = e.op->getAttrOfType<mlir::FlatSymbolRefAttr>("callee");
    if (!callee)
      return call_target::unresolved("");
    if (auto f = mlir::SymbolTable::lookupNearestSymbolFrom<function>(e.op, callee.getAttr()))
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
  /// The allocations the `slots` ids name; an id no allocation below carries is null.
  static llvm::SmallVector<window_buffer, 4> scope_slots(statement s) {
    llvm::SmallVector<window_buffer, 4> r;
    auto ids = s->getAttrOfType<mlir::DenseI64ArrayAttr>("slots");
    if (!ids)
      return r;
    const auto below = pld::allocations_below(s);
    for (auto id : ids.asArrayRef())
      r.push_back(below.lookup(id));
    return r;
  }
  static window_buffer view_window_buffer(variable v) {
    auto w = mlir::dyn_cast_or_null<pld::window>(v.getDefiningOp());
    auto id = w ? pld::window_buffer_id(w) : std::nullopt;
    if (!id)
      return nullptr;
    // Usually the view's own pointer operand; otherwise search its function.
    if (auto* a = w->getNumOperands() ? w->getOperand(0).getDefiningOp() : nullptr)
      if (mlir::isa<pld::alloc_window_buffer>(a) && pld::window_buffer_id(a) == id)
        return a;
    auto f = w->getParentOfType<function>();
    return f ? pld::allocations_below(f).lookup(*id) : nullptr;
  }
  static std::string_view window_buffer_name(window_buffer w) { return pld::string_attr(w, "name"); }
  static variable window_buffer_base(window_buffer w) {
    return w->getNumResults() ? w->getResult(0) : variable();
  }
  static expression window_buffer_size(window_buffer w) {
    return {w, w->getNumOperands() ? w->getOperand(0) : variable()};
  }

  // ---- the rewrite, in place
  using rewriter = pld::rewriter;
  static rewriter begin_rewrite(program&) { return {}; }
  static window_buffer make_window_buffer(rewriter& rw, const window_buffer_spec<ir_traits>& s) {
    auto* a = s.base.getDefiningOp();
    a->setAttr(pld::window_buffer_attr,
               mlir::IntegerAttr::get(mlir::IntegerType::get(a->getContext(), 64), rw.next_id++));
    return a;
  }
  static void retype_view(rewriter&, variable v, window_buffer w) {
    v.getDefiningOp()->setAttr(pld::window_buffer_attr, w->getAttr(pld::window_buffer_attr));
  }
  /// Nests the scopes before the terminator, outermost first, moves the body into the
  /// innermost, and forwards the returned values out through pld.yield.
  static void wrap_body(rewriter& rw, function f, std::span<const scope_spec<ir_traits>> scopes) {
    rw.next_id = 0;
    mlir::Block& entry = f.getBody().front();
    mlir::Operation* ret = entry.getTerminator();
    const mlir::Location at = entry.begin() != ret->getIterator() ? entry.front().getLoc() : f.getLoc();
    mlir::OpBuilder b(ret);
    mlir::Operation* outer = nullptr;
    mlir::Block* inner = nullptr;
    for (const auto& s : scopes) {
      mlir::OperationState st(at, pld::comm_domain_scope::getOperationName());
      st.addTypes(ret->getOperandTypes());
      st.addRegion();
      st.addAttribute("name", b.getStringAttr(llvm::StringRef(s.name.data(), s.name.size())));
      st.addAttribute("devices", b.getDenseI64ArrayAttr({s.devices.data(), s.devices.size()}));
      llvm::SmallVector<std::int64_t, 4> ids;
      for (auto* w : s.slots)
        ids.push_back(*pld::window_buffer_id(w));
      st.addAttribute("slots", b.getDenseI64ArrayAttr(ids));
      mlir::Operation* scope = b.create(st);
      if (outer) {
        b.setInsertionPointAfter(scope);
        pld::make_yield(b, at, scope->getResults());
      } else {
        outer = scope;
      }
      inner = &scope->getRegion(0).emplaceBlock();
      b.setInsertionPointToEnd(inner);
    }
    inner->getOperations().splice(inner->begin(), entry.getOperations(), entry.begin(),
                                  outer->getIterator());
    pld::make_yield(b, ret->getLoc(), ret->getOperands());
    ret->setOperands(outer->getResults());
  }
  static void commit(rewriter&, program&) {}
};
