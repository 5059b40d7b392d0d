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
// Blocks are opened and closed explicitly (for_range/for_world/begin_while/begin_if ...
// end), so building a deep program does not recurse. Statements get increasing line
// numbers in the order they are added and a column from their depth, so diagnostics of
// built programs come out in a checkable source order.
#pragma once

#include <commscope/reference/ir.hpp>

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace commscope::reference {

/// An expression argument: an integer, a variable (a use of it) or any expression.
class ex {
public:
  ex(int v) : ex(static_cast<std::int64_t>(v)) {}
  ex(std::int64_t v) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::integer;
    e->value = v;
    e_ = std::move(e);
  }
  ex(const variable_ptr& v) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::name;
    e->var = v;
    e->text = v->name;
    e_ = std::move(e);
  }
  ex(expression_ptr e) : e_(std::move(e)) {}
  [[nodiscard]] const expression_ptr& get() const { return e_; }

private:
  expression_ptr e_;
};

class program_builder;

class function_builder {
public:
  // ---- expressions
  [[nodiscard]] static ex name(std::string n) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::name;
    e->text = std::move(n);
    return expression_ptr(std::move(e));
  }
  [[nodiscard]] static ex binary(std::string op, const ex& a, const ex& b) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::binary;
    e->text = std::move(op);
    e->args = {a.get(), b.get()};
    return expression_ptr(std::move(e));
  }
  [[nodiscard]] static ex mul(const ex& a, const ex& b) { return binary("*", a, b); }
  [[nodiscard]] static ex add(const ex& a, const ex& b) { return binary("+", a, b); }
  [[nodiscard]] static ex list(std::vector<ex> items) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::list;
    for (auto& i : items)
      e->args.push_back(i.get());
    return expression_ptr(std::move(e));
  }
  /// A recognised operation, spelled as in the DSL's long form.
  [[nodiscard]] ex operation(commscope::operation op, std::vector<ex> args,
                             std::vector<keyword_argument> keywords = {}) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::operation;
    e->op = op;
    e->text = spelling(op);
    if (op == commscope::operation::alloc_window_buffer)
      e->name = e->text; // as the parser names an allocation not assigned to a variable
    e->where = next_call_location();
    for (auto& a : args)
      e->args.push_back(a.get());
    e->keywords = std::move(keywords);
    return expression_ptr(std::move(e));
  }
  [[nodiscard]] ex world_size() { return operation(commscope::operation::world_size, {}); }
  /// self.NAME(args..., device=device): a dispatch when the callee is a chip orchestrator.
  [[nodiscard]] ex call(const signature_ptr& callee, std::vector<ex> args,
                        std::optional<ex> device = std::nullopt) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::function_call;
    e->callee = callee;
    e->text = callee ? callee->name : std::string("unknown");
    e->where = next_call_location();
    for (auto& a : args)
      e->args.push_back(a.get());
    if (device)
      e->keywords.push_back({"device", device->get()});
    return expression_ptr(std::move(e));
  }
  /// A call of a function the program does not have.
  [[nodiscard]] ex call_unknown(std::string callee, std::vector<ex> args) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::function_call;
    e->text = std::move(callee);
    e->where = next_call_location();
    for (auto& a : args)
      e->args.push_back(a.get());
    return expression_ptr(std::move(e));
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
    std::vector<keyword_argument> kw;
    if (name)
      kw.push_back({"name", string_literal(*name)});
    auto call = operation(commscope::operation::alloc_window_buffer, std::move(args), kw);
    std::const_pointer_cast<expression>(call.get())->name = name ? *name : var;
    return assign_statement(std::move(var), call);
  }
  /// var = pld.tensor.window(ptr, [shape...], dtype=pl.DTYPE)
  variable_ptr window(std::string var, const ex& ptr, std::vector<std::int64_t> shape = {256},
                      std::string dtype = "FP32") {
    begin_statement(var);
    std::vector<ex> dims;
    for (auto d : shape)
      dims.emplace_back(d);
    const ex shape_e = list(std::move(dims));
    const ex dtype_e = attribute(name("pl"), dtype);
    auto call = operation(commscope::operation::window, {ptr, shape_e},
                          {{"dtype", dtype_e.get()}});
    auto v = assign_statement(std::move(var), call);
    auto t = std::make_shared<type>();
    t->shape = shape_e.get();
    t->dtype = dtype_e.get();
    std::const_pointer_cast<variable>(v)->var_type = std::move(t);
    return v;
  }
  /// var = value (a copy, a constant, a collective result, any expression)
  variable_ptr assign(std::string var, const ex& value) {
    begin_statement(var);
    return assign_statement(std::move(var), value);
  }
  /// target = value, binding an existing variable again: for hand-made programs with a
  /// variable bound twice or copy cycles (`a = b` ... `b = a`).
  void assign_to(const variable_ptr& target, const ex& value) {
    begin_statement(target->name);
    auto s = new_statement_placing(statement::kind::assign, {value});
    s->targets = {target};
    s->value = value.get();
    append(std::move(s));
  }
  /// var = pld.tensor.<collective>(args...)
  variable_ptr collective(std::string var, commscope::operation op, std::vector<ex> args) {
    begin_statement(var);
    return assign_statement(std::move(var), operation(op, std::move(args)));
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
    auto s = new_statement_placing(statement::kind::for_loop, {start, stop, step});
    s->start = start.get();
    s->stop = stop.get();
    s->step = step.get();
    s->range_arity = arity;
    auto v = new_variable(std::move(var));
    s->loop_var = v;
    open(std::move(s));
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
    auto s = new_statement_placing(statement::kind::while_loop, {condition});
    s->value = condition.get();
    open(std::move(s));
  }
  void begin_if(const ex& condition) {
    auto s = new_statement_placing(statement::kind::if_else, {condition});
    s->value = condition.get();
    open(std::move(s));
  }
  /// Switches the innermost open `if` to its else branch.
  void begin_else() { frames_.back().in_else = true; }
  /// Closes the innermost open block.
  void end() {
    auto s = std::move(frames_.back().s);
    frames_.pop_back();
    append(std::move(s));
  }
  void return_value(std::vector<ex> values) {
    auto s = new_statement_placing(statement::kind::return_, values);
    for (auto& v : values)
      s->values.push_back(v.get());
    append(std::move(s));
  }

  /// A fresh variable bound by no statement (for parameters and hand-made statements).
  variable_ptr new_variable(std::string n) {
    auto v = std::make_shared<variable>();
    v->id = (*ids_)++;
    v->name = std::move(n);
    return v;
  }

private:
  friend class program_builder;
  struct frame {
    std::shared_ptr<statement> s;
    bool in_else = false;
  };

  function_builder(std::shared_ptr<function> f, std::uint32_t* ids, std::uint32_t* line)
      : f_(std::move(f)), ids_(ids), line_(line) {}

  static std::string spelling(commscope::operation op) {
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
  static expression_ptr string_literal(std::string s) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::string;
    e->text = std::move(s);
    return e;
  }
  static ex attribute(const ex& base, std::string attr) {
    auto e = std::make_shared<expression>();
    e->what = expression::kind::attribute;
    e->base = base.get();
    e->text = std::move(attr);
    return expression_ptr(std::move(e));
  }

  std::uint32_t column() const { return 9 + 4 * static_cast<std::uint32_t>(frames_.size()); }
  /// Starts a statement's line; its calls are located after `target = `.
  void begin_statement(const std::string& target) {
    ++*line_;
    pending_line_ = *line_;
    call_column_ = column() + (target.empty() ? 0 : static_cast<std::uint32_t>(target.size()) + 3);
  }
  source_location next_call_location() const { return {pending_line_, call_column_}; }

  std::shared_ptr<statement> new_statement(statement::kind k) {
    if (pending_line_ != *line_ || k == statement::kind::return_ || k == statement::kind::while_loop ||
        k == statement::kind::if_else)
      begin_statement({});
    auto s = std::make_shared<statement>();
    s->what = k;
    s->where = {pending_line_, column()};
    pending_line_ = 0; // the next statement starts a new line
    return s;
  }
  /// new_statement, then place() the calls of `values` that have no location yet.
  std::shared_ptr<statement> new_statement_placing(statement::kind k, const std::vector<ex>& values) {
    const bool begun = pending_line_ == *line_ && k != statement::kind::return_ &&
                       k != statement::kind::while_loop && k != statement::kind::if_else;
    auto s = new_statement(k);
    const source_location at = begun ? source_location{s->where.line, call_column_} : s->where;
    for (const auto& v : values)
      place(v, at);
    return s;
  }
  /// A call made between statements (e.g. `h.assign("y", h.operation(...))`, whose
  /// argument is evaluated before assign() begins the statement) was given line 0; it is
  /// located at `at`, the start of the statement's value. Iterative: no recursion.
  static void place(const ex& value, source_location at) {
    std::vector<const expression*> todo{value.get().get()};
    while (!todo.empty()) {
      const expression* e = todo.back();
      todo.pop_back();
      if (!e)
        continue;
      if ((e->what == expression::kind::operation || e->what == expression::kind::function_call) &&
          e->where.line == 0)
        const_cast<expression*>(e)->where = at; // made by this builder, not yet published
      todo.push_back(e->base.get());
      for (const auto& a : e->args)
        todo.push_back(a.get());
      for (const auto& k : e->keywords)
        todo.push_back(k.value.get());
    }
  }
  variable_ptr assign_statement(std::string var, const ex& value) {
    auto s = new_statement_placing(statement::kind::assign, {value});
    auto v = new_variable(std::move(var));
    s->targets = {v};
    s->value = value.get();
    append(std::move(s));
    return v;
  }
  void evaluate_statement(const ex& value) {
    auto s = new_statement_placing(statement::kind::evaluate, {value});
    s->value = value.get();
    append(std::move(s));
  }
  void open(std::shared_ptr<statement> s) { frames_.push_back({std::move(s), false}); }
  void append(std::shared_ptr<statement> s) {
    if (frames_.empty())
      f_->body.push_back(std::move(s));
    else if (frames_.back().in_else)
      frames_.back().s->orelse.push_back(std::move(s));
    else
      frames_.back().s->body.push_back(std::move(s));
  }

  std::shared_ptr<function> f_;
  std::uint32_t* ids_;
  std::uint32_t* line_;
  std::uint32_t pending_line_ = 0;
  std::uint32_t call_column_ = 0;
  std::vector<frame> frames_;
};

class program_builder {
public:
  explicit program_builder(std::string name = "P") : name_(std::move(name)) {}

  /// Declares a chip orchestrator `NAME(self, data: pld.DistributedTensor[...])`.
  signature_ptr chip_orchestrator(std::string n) {
    return declare(std::move(n), level::chip, true, false, "Orchestration");
  }
  /// Declares a function of another kind (an InCore kernel, a Graph, ...).
  signature_ptr other_function(std::string n, commscope::level lv, bool orchestrator,
                               bool graph) {
    return declare(std::move(n), lv, orchestrator, graph, graph ? "Graph" : "InCore");
  }
  /// Opens a host orchestrator; add statements through the returned builder.
  function_builder& host_orchestrator(std::string n) {
    auto sig = std::make_shared<signature>();
    sig->name = std::move(n);
    sig->level = level::host;
    sig->orchestrator = true;
    auto f = std::make_shared<function>();
    f->sig = sig;
    f->where = {++line_, 5};
    functions_.push_back(f);
    builders_.push_back(function_builder(f, &ids_, &line_));
    return builders_.back();
  }

  [[nodiscard]] program_ptr finish() {
    auto p = std::make_shared<program>();
    p->name = name_;
    for (auto& f : functions_)
      p->functions.push_back(f);
    p->variable_bound = ids_;
    return p;
  }

private:
  signature_ptr declare(std::string n, commscope::level lv, bool orchestrator, bool graph,
                        const char* type_name) {
    auto sig = std::make_shared<signature>();
    sig->name = std::move(n);
    sig->level = lv;
    sig->orchestrator = orchestrator;
    sig->graph = graph;
    auto type_attr = std::make_shared<expression>();
    type_attr->what = expression::kind::name;
    type_attr->text = std::string("pl.FunctionType.") + type_name;
    sig->decorator.push_back({"type", type_attr});
    auto f = std::make_shared<function>();
    f->sig = sig;
    f->where = {++line_, 5};
    auto param = std::make_shared<variable>();
    param->id = ids_++;
    param->name = "data";
    auto t = std::make_shared<type>();
    auto ann = std::make_shared<expression>();
    ann->what = expression::kind::name;
    ann->text = "pld.DistributedTensor[[256], pl.FP32]";
    t->annotation = ann;
    param->var_type = t;
    f->params.push_back({param});
    auto ret = std::make_shared<statement>();
    ret->what = statement::kind::return_;
    ret->where = {++line_, 9};
    f->body.push_back(ret);
    functions_.push_back(f);
    return sig;
  }

  std::string name_;
  std::uint32_t ids_ = 0;
  std::uint32_t line_ = 0;
  std::vector<std::shared_ptr<function>> functions_;
  std::deque<function_builder> builders_;
};

} // namespace commscope::reference
