// A builder that keeps reference-IR test programs short:
//
//   program_builder pb;
//   auto chip = pb.chip_orchestrator("chip_orch");
//   auto& h = pb.host_orchestrator("host_orch");
//   auto buf = h.alloc("buf", h.mul(256, 4));
//   auto data = h.window("data", buf);
//   auto r = h.for_world("r");
//   h.dispatch(chip, {data}, r);
//   h.end();
//   program_ptr p = pb.finish();
//
// Every binding the builder makes is a variable of its own (its own name_id, ir.hpp),
// which later uses name by its handle, as an IR that renames each binding would; bind
// one variable again with assign_to (a program that rebinds, as Python does).
//
// Blocks are opened and closed explicitly (for_range/for_world/begin_while/begin_if ...
// end), so building a deep program does not recurse. Statements get increasing line
// numbers in the order they are added and a column from their depth, so diagnostics of
// built programs come out in a checkable source order.
//
// Nodes go to the builder's arena, which every program finish() makes shares. An `ex`
// made without a builder (an integer, a variable's use, the static helpers) is written
// where it is first needed: into the builder that takes it, or into an arena of its own.
#pragma once

#include <commscope/detail/operations.hpp>
#include <commscope/reference/ir.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::reference {

class function_builder;
class program_builder;

/// An expression argument: an integer, a variable (a use of it) or any expression.
class ex {
public:
  ex(int v) : ex(static_cast<std::int64_t>(v)) {}
  ex(std::int64_t v) : form_(form::integer), value_(v) {}
  ex(const variable_ptr& v) : form_(form::use), var_(v) {}
  ex(expression_ptr e) : e_(e) {}
  ex(expression_ptr e, std::vector<std::shared_ptr<const node_arena>> arenas)
      : e_(e), arenas_(std::move(arenas)) {}

  /// The expression (an integer or a use made now, in an arena of its own, the first time
  /// it is asked for).
  [[nodiscard]] const expression_ptr& get() const {
    if (!e_ && form_ != form::node) {
      auto f = std::make_shared<node_arena>(256);
      node_factory w(f);
      e_ = make(w);
      arenas_.push_back(f);
    }
    return e_;
  }

  /// The expression written by `w` when it is not made yet; the arenas it lives in are
  /// added to `keep` (those other than w's own).
  expression_ptr in(node_factory& w, std::vector<std::shared_ptr<const node_arena>>& keep) const {
    if (!e_ && form_ != form::node) {
      e_ = make(w);
      arenas_.push_back(w.arena()); // wherever it is used next, this arena must live
    }
    for (const auto& a : arenas_)
      if (a.get() != w.arena().get())
        keep.push_back(a);
    return e_;
  }
  [[nodiscard]] const std::vector<std::shared_ptr<const node_arena>>& arenas() const {
    return arenas_;
  }
  [[nodiscard]] bool made() const { return e_ != nullptr || form_ == form::node; }

private:
  enum class form : std::uint8_t { node, integer, use };
  expression_ptr make(node_factory& w) const {
    expression_spec s;
    if (form_ == form::integer) {
      s.what = expression::kind::integer;
      s.value = value_;
    } else {
      s.what = expression::kind::name;
      s.var = var_;
    }
    return w.make(s);
  }

  form form_ = form::node;
  std::int64_t value_ = 0;
  variable_ptr var_;
  mutable expression_ptr e_;
  mutable std::vector<std::shared_ptr<const node_arena>> arenas_;
};

class function_builder {
public:
  // ---- expressions
  [[nodiscard]] static ex name(std::string_view n) {
    standalone w({});
    expression_spec s;
    s.what = expression::kind::name;
    s.text = w.f.intern(n);
    return w.done(w.f.make(s));
  }
  [[nodiscard]] static ex binary(std::string_view op, const ex& a, const ex& b) {
    standalone w({&a, &b});
    const expression_ptr args[] = {w.use(a), w.use(b)};
    expression_spec s;
    s.what = expression::kind::binary;
    s.text = w.f.intern(op);
    s.args = args;
    return w.done(w.f.make(s));
  }
  [[nodiscard]] static ex mul(const ex& a, const ex& b) { return binary("*", a, b); }
  [[nodiscard]] static ex add(const ex& a, const ex& b) { return binary("+", a, b); }
  [[nodiscard]] static ex list(const std::vector<ex>& items) {
    std::vector<const ex*> in;
    for (const auto& i : items)
      in.push_back(&i);
    standalone w(in);
    std::vector<expression_ptr> args;
    for (const auto& i : items)
      args.push_back(w.use(i));
    expression_spec s;
    s.what = expression::kind::list;
    s.args = args;
    return w.done(w.f.make(s));
  }
  /// A recognized operation, spelled as in the DSL's long form.
  [[nodiscard]] ex operation(commscope::operation op, std::vector<ex> args,
                             std::vector<std::pair<std::string_view, ex>> keywords = {}) {
    std::vector<expression_ptr> a;
    for (auto& x : args)
      a.push_back(use(x));
    std::vector<keyword_argument> kw;
    for (auto& [n, v] : keywords)
      kw.push_back({w_.intern(n), use(v)});
    expression_spec s;
    s.what = expression::kind::operation;
    s.op = op;
    s.text = w_.intern(spelling(op));
    if (op == commscope::operation::alloc_window_buffer)
      s.name = s.text; // as the parser names an allocation not assigned to a variable
    s.where = next_call_location();
    s.args = a;
    s.keywords = kw;
    return expression_ptr(w_.make(s));
  }
  [[nodiscard]] ex world_size() { return operation(commscope::operation::world_size, {}); }
  /// self.NAME(args..., device=device): a dispatch when the callee is a chip orchestrator.
  [[nodiscard]] ex call(const signature_ptr& callee, std::vector<ex> args,
                        std::optional<ex> device = std::nullopt) {
    std::vector<expression_ptr> a;
    for (auto& x : args)
      a.push_back(use(x));
    std::vector<keyword_argument> kw;
    if (device)
      kw.push_back({w_.intern("device"), use(*device)});
    expression_spec s;
    s.what = expression::kind::function_call;
    s.callee = callee;
    if (!callee)
      s.text = w_.intern("unknown");
    s.where = next_call_location();
    s.args = a;
    s.keywords = kw;
    return expression_ptr(w_.make(s));
  }
  /// A call of a function the program does not have.
  [[nodiscard]] ex call_unknown(std::string_view callee, std::vector<ex> args) {
    std::vector<expression_ptr> a;
    for (auto& x : args)
      a.push_back(use(x));
    expression_spec s;
    s.what = expression::kind::function_call;
    s.text = w_.intern(callee);
    s.where = next_call_location();
    s.args = a;
    return expression_ptr(w_.make(s));
  }
  /// Gives an allocation call its name, as the front end does (the name= keyword or the
  /// assigned variable).
  void name_allocation(const ex& call, std::string_view name) {
    auto* e = const_cast<expression*>(use(call).get()); // made by a builder, not published
    e->set_name(w_.intern(name));
  }

  // ---- statements
  /// var = pld.tensor.alloc_window_buffer(size[, name=...])
  variable_ptr alloc(std::string var, const ex& size, std::optional<std::string> name = {}) {
    return alloc_with(std::move(var), {size}, std::move(name));
  }
  /// An allocation with any positional arguments (for malformed-op tests).
  variable_ptr alloc_with(std::string var, std::vector<ex> args,
                          std::optional<std::string> name = {}) {
    begin_statement(var);
    std::vector<std::pair<std::string_view, ex>> kw;
    if (name)
      kw.emplace_back("name", string_literal(*name));
    auto call = operation(commscope::operation::alloc_window_buffer, std::move(args), kw);
    name_allocation(call, name ? *name : var);
    return assign_statement(var, call);
  }
  /// var = pld.tensor.window(ptr, [shape...], dtype=pl.DTYPE)
  variable_ptr window(std::string var, const ex& ptr, std::vector<std::int64_t> shape = {256},
                      std::string_view dtype = "FP32") {
    begin_statement(var);
    std::vector<ex> dims;
    for (auto d : shape)
      dims.emplace_back(d);
    const ex shape_e = made_list(dims);
    const ex dtype_e = attribute(name_here("pl"), dtype);
    auto call = operation(commscope::operation::window, {ptr, shape_e}, {{"dtype", dtype_e}});
    auto t = w_.make_node(type{{}, shape_e.get(), dtype_e.get(), {}});
    return assign_statement(var, call, t);
  }
  /// var = value (a copy, a constant, a collective result, any expression)
  variable_ptr assign(std::string var, const ex& value) {
    begin_statement(var);
    return assign_statement(var, value);
  }
  /// target = value, binding an existing variable again: for hand-made programs with a
  /// variable bound twice or copy cycles (`a = b` ... `b = a`).
  void assign_to(const variable_ptr& target, const ex& value) {
    begin_statement(target->name);
    const expression_ptr v = use(value);
    statement_spec s = new_statement_placing(statement::kind::assign, {v});
    s.targets = {&target, 1};
    s.value = v;
    append(w_.make(s));
  }
  /// var = pld.tensor.<collective>(args...)
  variable_ptr collective(std::string var, commscope::operation op, std::vector<ex> args) {
    begin_statement(var);
    return assign_statement(var, operation(op, std::move(args)));
  }
  /// pld.tensor.<collective>(args...) as an expression statement.
  void collective(commscope::operation op, std::vector<ex> args) {
    begin_statement({});
    evaluate_statement(operation(op, std::move(args)));
  }
  /// self.callee(args..., device=device)
  void dispatch(const signature_ptr& callee, std::vector<ex> args, std::optional<ex> device) {
    begin_statement({});
    evaluate_statement(call(callee, std::move(args), std::move(device)));
  }
  /// Any expression statement. Calls inside `e` that were made before the statement
  /// began are located at the start of the statement's value (see place()).
  void evaluate(const ex& e) {
    begin_statement({});
    evaluate_statement(e);
  }
  /// Opens `for var in pl.range(start, stop, step):`; close with end().
  variable_ptr for_range(std::string var, const ex& start, const ex& stop, const ex& step,
                         std::uint8_t arity = 3) {
    const expression_ptr b[] = {use(start), use(stop), use(step)};
    statement_spec s = new_statement_placing(statement::kind::for_loop, b);
    auto v = new_variable(var);
    open(s.what, s.where);
    auto& f = frames_.back();
    f.loop_var = v;
    f.start = b[0];
    f.stop = b[1];
    f.step = b[2];
    f.arity = arity;
    return v;
  }
  /// Opens `for var in pl.range(stop):`.
  variable_ptr for_range(std::string var, const ex& stop) {
    return for_range(std::move(var), ex(0), stop, ex(1), 1);
  }
  /// Opens `for var in pl.range(pld.world_size()):`.
  variable_ptr for_world(std::string var) {
    begin_statement(var);
    return for_range(std::move(var), ex(0), world_size(), ex(1), 1);
  }
  void begin_while(const ex& condition) {
    const expression_ptr c = use(condition);
    statement_spec s = new_statement_placing(statement::kind::while_loop, {&c, 1});
    open(s.what, s.where);
    frames_.back().value = c;
  }
  void begin_if(const ex& condition) {
    const expression_ptr c = use(condition);
    statement_spec s = new_statement_placing(statement::kind::if_else, {&c, 1});
    open(s.what, s.where);
    frames_.back().value = c;
  }
  /// Switches the innermost open `if` to its else branch.
  void begin_else() {
    if (frames_.empty() || frames_.back().what != statement::kind::if_else)
      throw std::logic_error("function_builder::begin_else: no open if");
    frames_.back().in_else = true;
  }
  /// Closes the innermost open block.
  void end() {
    if (frames_.empty()) // a misused builder is a programming error, never undefined behavior
      throw std::logic_error("function_builder::end: no open block");
    frame f = std::move(frames_.back());
    frames_.pop_back();
    statement_spec s;
    s.what = f.what;
    s.where = f.where;
    s.value = f.value;
    s.loop_var = f.loop_var;
    s.start = f.start;
    s.stop = f.stop;
    s.step = f.step;
    s.range_arity = f.arity;
    s.body = f.body;
    s.orelse = f.orelse;
    append(w_.make(s));
  }
  /// `break` (or `continue`) of the innermost loop.
  void jump(bool is_break = true) {
    statement_spec s = new_statement(statement::kind::verbatim);
    s.text = w_.intern(is_break ? "break" : "continue");
    s.jump = true;
    append(w_.make(s));
  }
  void return_value(std::vector<ex> values) {
    std::vector<expression_ptr> v;
    for (auto& x : values)
      v.push_back(use(x));
    statement_spec s = new_statement_placing(statement::kind::return_, v);
    s.values = v;
    append(w_.make(s));
  }

  /// Another function of the program calls this one: what it returns reaches a caller
  /// the pass does not follow (function::returns_to_callers).
  void called_by_others() { returns_to_callers_ = true; }

  /// A fresh variable bound by no statement (for parameters and hand-made statements).
  variable_ptr new_variable(std::string_view n) { return w_.make_variable((*ids_)++, w_.intern(n)); }

private:
  friend class program_builder;
  struct frame {
    statement::kind what;
    source_location where;
    expression_ptr value;
    variable_ptr loop_var;
    expression_ptr start, stop, step;
    std::uint8_t arity = 1;
    std::vector<statement_ptr> body;
    std::vector<statement_ptr> orelse;
    bool in_else = false;
  };

  /// An arena for the static helpers: that of the first operand made in one, else a new
  /// one; the result keeps every operand's arenas alive.
  struct standalone {
    std::vector<std::shared_ptr<const node_arena>> keep;
    std::shared_ptr<node_arena> own;
    node_factory f;
    explicit standalone(const std::vector<const ex*>& operands) : f(pick(operands, own)) {
      for (const ex* o : operands)
        for (const auto& a : o->arenas())
          keep.push_back(a);
    }
    static std::shared_ptr<node_arena> pick(const std::vector<const ex*>& operands,
                                            std::shared_ptr<node_arena>& own) {
      for (const ex* o : operands)
        for (const auto& a : o->arenas())
          return std::const_pointer_cast<node_arena>(a); // appended to, never rewritten
      own = std::make_shared<node_arena>(256);
      return own;
    }
    expression_ptr use(const ex& e) { return e.in(f, keep); }
    ex done(expression_ptr e) {
      std::vector<std::shared_ptr<const node_arena>> arenas{f.arena()};
      for (auto& a : keep)
        if (std::find(arenas.begin(), arenas.end(), a) == arenas.end())
          arenas.push_back(std::move(a));
      return ex(e, std::move(arenas));
    }
  };

  function_builder(node_factory& w, std::vector<std::shared_ptr<const node_arena>>& keep,
                   std::uint32_t* ids, std::uint32_t* line)
      : w_(w), keep_(keep), ids_(ids), line_(line) {}

  expression_ptr use(const ex& e) { return e.in(w_, keep_); }

  static std::string_view spelling(commscope::operation op) {
    switch (op) {
    case commscope::operation::alloc_window_buffer:
      return "pld.tensor.alloc_window_buffer";
    case commscope::operation::window:
      return "pld.tensor.window";
    case commscope::operation::world_size:
      return "pld.system.world_size";
    case commscope::operation::allreduce:
      return "pld.tensor.allreduce";
    case commscope::operation::broadcast:
      return "pld.tensor.broadcast";
    case commscope::operation::reduce_scatter:
      return "pld.tensor.reduce_scatter";
    case commscope::operation::barrier:
      return "pld.tensor.barrier";
    case commscope::operation::allgather:
      return "pld.tensor.allgather";
    case commscope::operation::all_to_all:
      return "pld.tensor.all_to_all";
    case commscope::operation::all_to_all_v:
      return "pld.tensor.all_to_all_v";
    case commscope::operation::none:
      break;
    }
    return "pld.tensor.unknown";
  }
  ex string_literal(std::string_view s) {
    expression_spec e;
    e.what = expression::kind::string;
    e.text = w_.string(s);
    return expression_ptr(w_.make(e));
  }
  ex name_here(std::string_view n) {
    expression_spec e;
    e.what = expression::kind::name;
    e.text = w_.intern(n);
    return expression_ptr(w_.make(e));
  }
  ex attribute(const ex& base, std::string_view attr) {
    expression_spec e;
    e.what = expression::kind::attribute;
    e.base = use(base);
    e.text = w_.intern(attr);
    return expression_ptr(w_.make(e));
  }
  ex made_list(const std::vector<ex>& items) {
    std::vector<expression_ptr> a;
    for (const auto& i : items)
      a.push_back(use(i));
    expression_spec e;
    e.what = expression::kind::list;
    e.args = a;
    return expression_ptr(w_.make(e));
  }

  std::uint32_t column() const { return 9 + 4 * static_cast<std::uint32_t>(frames_.size()); }
  /// Starts a statement's line; its calls are located after `target = `.
  void begin_statement(std::string_view target) {
    ++*line_;
    pending_line_ = *line_;
    call_column_ = column() + (target.empty() ? 0 : static_cast<std::uint32_t>(target.size()) + 3);
  }
  source_location next_call_location() const { return {pending_line_, call_column_}; }

  statement_spec new_statement(statement::kind k) {
    if (pending_line_ != *line_ || k == statement::kind::return_ ||
        k == statement::kind::while_loop || k == statement::kind::if_else)
      begin_statement({});
    statement_spec s;
    s.what = k;
    s.where = {pending_line_, column()};
    pending_line_ = 0; // the next statement starts a new line
    return s;
  }
  /// new_statement, then place() the calls of `values` that have no location yet.
  statement_spec new_statement_placing(statement::kind k, std::span<const expression_ptr> values) {
    const bool begun = pending_line_ == *line_ && k != statement::kind::return_ &&
                       k != statement::kind::while_loop && k != statement::kind::if_else;
    statement_spec s = new_statement(k);
    const source_location at = begun ? source_location{s.where.line, call_column_} : s.where;
    for (const auto& v : values)
      place(v, at);
    return s;
  }
  statement_spec new_statement_placing(statement::kind k,
                                       std::initializer_list<expression_ptr> values) {
    return new_statement_placing(k, std::span<const expression_ptr>(values.begin(), values.size()));
  }
  /// A call made between statements (e.g. `h.assign("y", h.operation(...))`, whose
  /// argument is evaluated before assign() begins the statement) was given line 0; it is
  /// located at `at`, the start of the statement's value. Iterative: no recursion.
  static void place(expression_ptr value, source_location at) {
    std::vector<const expression*> todo{value.get()};
    while (!todo.empty()) {
      const expression* e = todo.back();
      todo.pop_back();
      if (!e)
        continue;
      if ((e->what == expression::kind::operation ||
           e->what == expression::kind::function_call) &&
          e->where.line == 0)
        const_cast<expression*>(e)->where = at; // made by a builder, not yet published
      todo.push_back(e->base().get());
      for (const auto& a : e->args())
        todo.push_back(a.get());
      for (const auto& k : e->keywords())
        todo.push_back(k.value.get());
    }
  }
  variable_ptr assign_statement(std::string_view var, const ex& value, type_ptr t = {}) {
    const expression_ptr v = use(value);
    statement_spec s = new_statement_placing(statement::kind::assign, {v});
    variable_ptr target = w_.make_variable((*ids_)++, w_.intern(var), t);
    s.targets = {&target, 1};
    s.value = v;
    append(w_.make(s));
    return target;
  }
  void evaluate_statement(const ex& value) {
    const expression_ptr v = use(value);
    statement_spec s = new_statement_placing(statement::kind::evaluate, {v});
    s.value = v;
    append(w_.make(s));
  }
  void open(statement::kind k, source_location where) {
    frames_.push_back({});
    frames_.back().what = k;
    frames_.back().where = where;
  }
  void append(statement_ptr s) {
    if (frames_.empty())
      body_.push_back(s);
    else if (frames_.back().in_else)
      frames_.back().orelse.push_back(s);
    else
      frames_.back().body.push_back(s);
  }

  node_factory& w_;
  std::vector<std::shared_ptr<const node_arena>>& keep_;
  std::uint32_t* ids_;
  std::uint32_t* line_;
  std::uint32_t pending_line_ = 0;
  std::uint32_t call_column_ = 0;
  std::vector<frame> frames_;
  // the function
  signature_ptr sig_;
  source_location where_{};
  std::vector<statement_ptr> body_;
  bool returns_to_callers_ = false;
};

class program_builder {
public:
  explicit program_builder(std::string name = "P") : name_(std::move(name)) {}
  program_builder(const program_builder&) = delete;
  program_builder& operator=(const program_builder&) = delete;

  /// Declares a chip orchestrator `NAME(self, data: pld.DistributedTensor[...])`.
  signature_ptr chip_orchestrator(std::string_view n) {
    return declare(n, level::chip, true, false, "Orchestration");
  }
  /// Declares a function of another kind (an InCore kernel, a Graph, ...).
  signature_ptr other_function(std::string_view n, commscope::level lv, bool orchestrator,
                               bool graph) {
    return declare(n, lv, orchestrator, graph, graph ? "Graph" : "InCore");
  }
  /// Opens a host orchestrator; add statements through the returned builder.
  function_builder& host_orchestrator(std::string_view n) {
    auto* sig = w_.make_node(signature{});
    sig->name = w_.intern(n);
    sig->level = level::host;
    sig->orchestrator = true;
    builders_.push_back(function_builder(w_, keep_, &ids_, &line_));
    auto& b = builders_.back();
    b.sig_ = sig;
    b.where_ = {++line_, 5};
    order_.push_back({nullptr, &b});
    return b;
  }

  /// The program as built so far (blocks still open are left out). Every program made
  /// shares the builder's nodes.
  [[nodiscard]] program_ptr finish() {
    auto p = std::make_shared<program>();
    p->name = name_;
    for (const auto& [fn, b] : order_) {
      if (fn) {
        p->functions.push_back(fn);
        continue;
      }
      auto* f = w_.make_node(function{});
      f->sig = b->sig_;
      f->where = b->where_;
      f->body = w_.list(b->body_);
      f->returns_to_callers = b->returns_to_callers_;
      p->functions.push_back(f);
    }
    p->variable_bound = ids_;
    std::sort(keep_.begin(), keep_.end());
    keep_.erase(std::unique(keep_.begin(), keep_.end()), keep_.end());
    p->arenas.push_back(w_.arena());
    for (const auto& a : keep_)
      if (a != p->arenas.front())
        p->arenas.push_back(a);
    return p;
  }

private:
  signature_ptr declare(std::string_view n, commscope::level lv, bool orchestrator, bool graph,
                        std::string_view type_name) {
    auto* sig = w_.make_node(signature{});
    sig->name = w_.intern(n);
    sig->level = lv;
    sig->orchestrator = orchestrator;
    sig->graph = graph;
    expression_spec type_attr;
    type_attr.what = expression::kind::name;
    type_attr.text = w_.string(std::string("pl.FunctionType.") + std::string(type_name));
    const keyword_argument deco{w_.intern("type"), w_.make(type_attr)};
    sig->decorator = w_.list({deco});
    expression_spec ann;
    ann.what = expression::kind::name;
    ann.text = w_.intern("pld.DistributedTensor[[256], pl.FP32]");
    auto* t = w_.make_node(type{w_.make(ann), {}, {}, {}});
    const parameter param{w_.make_variable(ids_++, w_.intern("data"), t)};
    auto* f = w_.make_node(function{});
    f->sig = sig;
    f->where = {++line_, 5};
    f->params = w_.list({param});
    statement_spec ret;
    ret.what = statement::kind::return_;
    ret.where = {++line_, 9};
    const statement_ptr body[] = {w_.make(ret)};
    f->body = w_.list(std::span<const statement_ptr>(body));
    order_.push_back({f, nullptr});
    return sig;
  }

  std::string name_;
  std::uint32_t ids_ = 0;
  std::uint32_t line_ = 0;
  node_factory w_;
  std::vector<std::shared_ptr<const node_arena>> keep_; ///< arenas of exs made elsewhere
  std::vector<std::pair<function_ptr, function_builder*>> order_;
  std::deque<function_builder> builders_;
};

} // namespace commscope::reference
