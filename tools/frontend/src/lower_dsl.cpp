// The DSL parser: what the DSL means: signatures, comm domains, allocations, windows,
// the devices of collectives, loop-carried values.
#include "edit_distance.hpp"
#include "parser.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

signature* dsl_parser::make_signature(const definition& d) {
  signature* sig = make_signature_of_decorators(d);
  if (sig->level == commscope::level::chip && sig->orchestrator) {
    std::optional<returned_parameter_table>& returned = tables().returned;
    if (!returned)
      returned.emplace(ts_, scan_);
    const auto& r = returned->of(static_cast<std::uint32_t>(&d - scan_.definitions.data()));
    std::vector<str> names;
    names.reserve(r.names.size());
    for (const auto n : r.names)
      names.push_back(w_.intern(n));
    sig->parameters = w_.list(names);
    sig->returned = r.mask;
    // Defined twice in its scope (`if FAST: @pl.jit def f` / `else: @pl.jit def f`):
    // which one runs is not read, so it may return any argument.
    auto& by_name = tables().definitions_by_name;
    if (!by_name) {
      by_name.emplace();
      for (const auto& other : scan_.definitions)
        if (!other.is_class)
          ++(*by_name)[{other.scope, text(t_[other.name])}];
    }
    const std::uint32_t same = (*by_name)[{d.scope, text(t_[d.name])}]; // d among them
    // So may one of a module that rebinds its names where no statement names them
    // (`globals()["chip"] = alt.chip`, `exec(...)`): a module-level def alone.
    if (same > 1 || (d.scope == 0 && scan_.dynamic_globals))
      sig->returned = ~std::uint64_t{0};
  }
  return sig;
}

signature* dsl_parser::make_signature_of_decorators(const definition& d) {
  auto* sig = w_.make_node(signature{});
  sig->name = w_.intern(text(t_[d.name]));
  using r = definition::dsl;
  switch (d.role) {
  case r::jit_host:
    sig->level = commscope::level::host;
    sig->orchestrator = true;
    return sig;
  case r::jit_chip:
    sig->level = commscope::level::chip;
    sig->orchestrator = true;
    return sig;
  case r::jit_kernel:
    sig->level = commscope::level::other;
    return sig;
  default:
    break;
  }
  bool explicit_level = false, level_known = true;
  resolving_ = false;
  std::vector<keyword_argument> decorator;
  for (const auto& [b, e] : d.decorators) {
    i_ = b;
    const expression* deco = parse_test();
    // `NAME = pl.function(...)(F)`: the decorator is the callee of the call of F, which
    // the expression goes on to read (module_scan::wrapping).
    const bool wrapping = d.name != d.keyword + 1 && b == d.decorators.back().first;
    if (wrapping && deco->what == expression::kind::call && deco->base() && i_ == e + 3)
      deco = deco->base().get();
    else if (i_ != e)
      unexpected("end of the decorator");
    const expression& ex = *deco;
    const bool call = ex.what == expression::kind::call;
    const expression* callee = call ? ex.base().get() : &ex;
    // (or an alias of it that another module binds, module_scan::adopt)
    if (!callee || (spelling(*callee) != "pl.function" && b != d.adopted_decorator))
      continue;
    for (const auto& k : ex.keywords())
      decorator.push_back(k);
    std::uint32_t open = b;
    while (open < e && !t_[open].is_op("("))
      ++open;
    if (!call || open == e)
      continue;
    // Read from the tokens: a `**` dict read exactly passes keywords too.
    for (const auto& k : read_decorator_keywords(ts_, scan_, open, e).keywords) {
      const std::string v = scan_.names.canonical(dotted_name(ts_, k.value_begin, k.value_end));
      if (k.name == "level") {
        explicit_level = true;
        if (v == "pl.Level.HOST")
          sig->level = commscope::level::host;
        else if (v == "pl.Level.CHIP")
          sig->level = commscope::level::chip;
        else
          level_known = false;
      } else if (k.name == "role" && v == "pl.Role.Orchestrator") {
        sig->orchestrator = true;
      } else if (k.name == "type") {
        if (v == "pl.FunctionType.Orchestration")
          sig->orchestrator = true;
        else if (v == "pl.FunctionType.Graph")
          sig->graph = true;
      }
    }
  }
  sig->decorator = w_.list(decorator);
  if (!explicit_level) // an orchestrator without a level is a chip orchestrator
                       // (docs/commscope-opt.md, "Function kinds")
    sig->level = commscope::level::chip;
  else if (!level_known)
    sig->level = commscope::level::other;
  return sig;
}

void dsl_parser::bind_slot(const variable& v, const expression& alloc) {
  if (alloc.args().size() != 1)
    return;
  window_buffer* w = nullptr;
  const std::string_view name = alloc.name();
  // In every enclosing scope, the first slot of that name not taken yet.
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    const auto slot = it->first_open.find(name);
    if (slot == it->first_open.end())
      continue;
    const std::uint32_t i = slot->second;
    if (!w) {
      w = w_.make_node(window_buffer{&v, alloc.args()[0], false, false, alloc.name()});
      windows_[v.id] = w;
    }
    it->found[i] = w;
    if (it->next_same[i] == open_scope::no_slot)
      it->first_open.erase(slot);
    else
      slot->second = it->next_same[i];
  }
}

void dsl_parser::open_scope::index_slots() {
  first_open.clear();
  next_same.assign(names.size(), no_slot);
  // From the last slot back: a name's entry ends at its first slot, each chained to the
  // one after it.
  for (auto i = static_cast<std::uint32_t>(names.size()); i-- > 0;)
    if (const auto [at, added] = first_open.try_emplace(names[i], i); !added) {
      next_same[i] = at->second;
      at->second = i;
    }
}

bool dsl_parser::is_yield(const statement& st, std::size_t n) const {
  const expression_ptr call = st.value();
  return call && call->what == expression::kind::call && call->base() &&
         spelling(*call->base()) == "pl.yield_" && call->keywords().empty() &&
         are_values(call->args(), n) &&
         (st.what != statement::kind::assign || st.targets().size() == n);
}

void dsl_parser::yield_as_assignment(const node_list<statement_ptr>& body,
                                     node_span<variable_ptr> carried,
                                     std::span<const variable_ptr> results) {
  const statement& last = *body.back();
  if ((last.what != statement::kind::evaluate && last.what != statement::kind::assign) ||
      !is_yield(last, carried.size()))
    return;
  const expression_ptr call = last.value();
  std::vector<variable_ptr> targets;
  for (const auto& c : carried)
    targets.push_back(w_.make_binding(next_id_++, *c));
  statement_spec y;
  y.what = statement::kind::assign;
  y.where = last.where;
  y.origin = last.origin();
  y.value = call;
  y.parallel = true;
  if (last.what == statement::kind::assign) {
    // The carried names and the results both take the yielded values: each may hold any
    // of them (one value, the usual case, is exact).
    targets.insert(targets.end(), results.begin(), results.end());
    expression_spec t;
    t.what = expression::kind::tuple;
    t.where = call->where;
    t.args = call->args();
    y.value = w_.make(t);
    y.parallel = false;
  }
  y.targets = targets;
  body.mutable_data()[body.size() - 1] = w_.make(y);
}

void dsl_parser::yield_as_parallel(const node_list<statement_ptr>& body) {
  if (body.empty() || body.back()->what != statement::kind::assign)
    return;
  const statement& last = *body.back();
  if (!is_yield(last, last.targets().size()))
    return;
  statement_spec y;
  y.what = statement::kind::assign;
  y.where = last.where;
  y.origin = last.origin();
  y.value = last.value();
  y.targets = last.targets();
  y.parallel = true;
  body.mutable_data()[body.size() - 1] = w_.make(y);
}

std::optional<commscope::device_progression> dsl_parser::device_range(const expression& e) const {
  const auto constant = [](const expression_ptr& x) -> std::optional<std::int64_t> {
    if (x->what == expression::kind::integer && !x->overflow())
      return x->value();
    return std::nullopt;
  };
  const auto world = [](const expression_ptr& x) {
    return x->what == expression::kind::operation && x->op == commscope::operation::world_size &&
           x->args().empty() && x->keywords().empty();
  };
  if (e.what != expression::kind::call || !e.base() || spelling(*e.base()) != "range" ||
      !e.keywords().empty() || e.args().size() < 2 || e.args().size() > 3)
    return std::nullopt;
  const auto start = constant(e.args()[0]);
  const auto step = e.args().size() == 3 ? constant(e.args()[2]) : std::optional<std::int64_t>(1);
  const expression_ptr& stop = e.args()[1];
  std::optional<std::int64_t> offset;
  if (world(stop))
    offset = 0;
  else if (stop->what == expression::kind::binary && stop->text() == "-" &&
           stop->args().size() == 2 && world(stop->args()[0]))
    offset = constant(stop->args()[1]);
  if (!start || !step || !offset || *start < 0 || *step < 1 || *offset < 0)
    return std::nullopt;
  return commscope::device_progression{*start, *step, *offset};
}

std::optional<dsl_parser::open_scope> dsl_parser::comm_domain(const expression& e,
                                                              source_location at) {
  if (e.args().size() != 1 || e.args()[0]->what != expression::kind::string) {
    front_end_error(at, "pld.comm_domain takes one positional argument, the scope name");
    return std::nullopt;
  }
  open_scope sc;
  for (const auto& k : e.keywords()) {
    const expression& v = *k.value;
    if (k.name == "devices") {
      if (v.what == expression::kind::string && v.text() == "all")
        continue;
      if (v.what != expression::kind::list) {
        front_end_error(at, "devices= of pld.comm_domain must be \"all\" or a list of integers");
        return std::nullopt;
      }
      for (const auto& d : v.args())
        if ((d->what != expression::kind::integer || d->overflow()) && !device_range(*d)) {
          front_end_error(at, "a device of pld.comm_domain must be an integer or "
                              "range(START, pld.world_size() [- C] [, STEP])");
          return std::nullopt;
        }
    } else if (k.name == "slots") {
      if (v.what != expression::kind::list) {
        front_end_error(at, "slots= of pld.comm_domain must be a list of allocation names");
        return std::nullopt;
      }
      for (const auto& n : v.args()) {
        if (n->what == expression::kind::string)
          sc.names.emplace_back(n->text().view());
        else if (n->what == expression::kind::name)
          sc.names.emplace_back(n->var() ? n->var()->name.view() : n->text().view());
        else if (n->what == expression::kind::integer && !n->name().empty())
          sc.names.emplace_back(n->name().view());
        else {
          front_end_error(at, "a slot of pld.comm_domain must be an allocation name");
          return std::nullopt;
        }
      }
    } else {
      front_end_error(at,
                      "unknown keyword '" + std::string(k.name.view()) + "' of pld.comm_domain");
      return std::nullopt;
    }
  }
  sc.found.resize(sc.names.size());
  return sc;
}

void dsl_parser::note_open_device_names(const expression& call) {
  for (const auto& k : call.keywords()) {
    if (k.name != "device")
      continue;
    const expression& d = *k.value;
    if (d.what == expression::kind::integer && d.overflow())
      unit_->huge_devices.emplace_back(call.where, std::string(d.text().view()));
    std::vector<std::string> open;
    std::vector<std::string> called; // `int(r)`: a function, which no -D binds
    const auto open_name = [](const expression& n) {
      return n.what == expression::kind::name && !n.var() && !n.text().empty() &&
             is_plain_name(n.text()) && n.text() != "pld" && n.text() != "pl";
    };
    auto collect = [&](const expression& root) {
      std::vector<const expression*> stack{&root};
      while (!stack.empty()) {
        const expression* x = stack.back();
        stack.pop_back();
        if (open_name(*x))
          open.emplace_back(x->text().view());
        if (late_reads_.contains(x))
          unit_->late_device_names.emplace_back(call.where, std::string(x->text().view()));
        if (x->what == expression::kind::attribute)
          continue; // pld.world_size: not a name of the file
        for (const auto& a : x->args())
          if (a)
            stack.push_back(a.get());
        if (x->what == expression::kind::call && x->base() && open_name(*x->base())) {
          if (std::find(called.begin(), called.end(), x->base()->text().view()) == called.end())
            called.emplace_back(x->base()->text().view());
          continue;
        }
        if (x->base())
          stack.push_back(x->base().get());
      }
    };
    if (d.what == expression::kind::name && d.var()) {
      auto it = loop_of_.find(d.var().get());
      if (it != loop_of_.end())
        for (const auto& bnd : it->second)
          if (bnd)
            collect(*bnd);
    } else {
      collect(d);
    }
    for (auto& n : open) {
      if (std::find(shadow_.begin(), shadow_.end(), n) != shadow_.end()) {
        unit_->local_device_names.emplace_back(call.where, std::move(n));
        continue;
      }
      if (const auto near = nearby_name(n, call.where); !near.empty())
        unit_->name_suggestions.push_back({call.where, n, std::string(near)});
      unit_->open_names.emplace_back(call.where, std::move(n));
    }
    for (auto& n : called)
      unit_->device_calls.emplace_back(call.where, std::move(n));
  }
}

std::string_view dsl_parser::nearby_name(std::string_view name, source_location at) const {
  std::string_view best;
  std::size_t best_distance = 3;
  // Failing a near spelling, a name of the function that the open name spells out
  // (`device=rank` in `for r in ...`): the abbreviation it most likely stands for.
  std::string_view abbreviation;
  // A name that the file binds (to something other than a constant) is no misspelling.
  bool bound = false;
  const auto consider = [&](const py_scope::record& r, bool own) {
    const std::string_view n = text(t_[r.name]);
    if (n == name) {
      bound = true;
      return;
    }
    const std::size_t d = edit_distance(name, n, 2);
    if (d < best_distance) { // ties keep the earlier: the more recent, the inner
      best_distance = d;
      best = n;
    }
    if (own && abbreviation.empty() && !n.empty() && n.size() < name.size() && name.starts_with(n))
      abbreviation = n;
  };
  const auto before = [&](const py_scope::record& r) {
    const source_location w = ts_.where(t_[r.name]);
    return w.line != at.line ? w.line < at.line : w.column < at.column;
  };
  for (std::int32_t s = function_scope_;
       s >= 0 && static_cast<std::size_t>(s) < scan_.scopes.size();
       s = scan_.scopes[static_cast<std::size_t>(s)].parent) {
    const auto& sc = scan_.scopes[static_cast<std::size_t>(s)];
    if (sc.what == py_scope::kind::class_body)
      continue; // not an enclosing scope, as in Python
    for (auto it = sc.records.rbegin(); it != sc.records.rend(); ++it)
      if (s != function_scope_ || before(*it)) // the function's own: bound before the call
        consider(*it, s == function_scope_);
  }
  if (bound)
    return {};
  return best.empty() ? abbreviation : best;
}

void dsl_parser::note_undispatched(const expression& call, std::string_view callee) {
  const signature* sig = call.callee().get();
  if (!sig || sig->level != commscope::level::chip || !sig->orchestrator ||
      has_device_keyword(call.keywords()))
    return;
  for (const auto& a : call.args())
    if (a && a->what == expression::kind::name && a->var())
      undispatched_.push_back({a->var().get(), call.where, callee});
}

void dsl_parser::resolve_undispatched() {
  if (!undispatched_.empty()) {
    std::sort(view_statements_.begin(), view_statements_.end(),
              [](const auto& x, const auto& y) { return std::less<>{}(x.first, y.first); });
    for (const auto& u : undispatched_) {
      const auto it = std::lower_bound(
          view_statements_.begin(), view_statements_.end(), u.var,
          [](const auto& x, const variable* v) { return std::less<>{}(x.first, v); });
      if (it != view_statements_.end() && it->first == u.var)
        unit_->undispatched_views.push_back({it->second, u.call, std::string(u.callee)});
    }
  }
  undispatched_.clear();
  view_statements_.clear();
}

std::optional<std::int64_t> dsl_parser::fold_integer(const expression& root) const {
  // Post-order on an explicit stack: an expression nests as deep as the input makes it.
  // The stacks are the parser's, reused: every allocation of a file is folded.
  auto& stack = fold_stack_;
  auto& values = fold_values_;
  stack.assign(1, {&root, false});
  values.clear();
  const auto is_power = [&](const expression* e) { return powers_.count(e) != 0; };
  while (!stack.empty()) {
    const fold_frame f = stack.back();
    stack.pop_back();
    const expression& e = *f.e;
    using k = expression::kind;
    if (e.what == k::integer) {
      if (e.overflow())
        return std::nullopt;
      values.push_back(e.value());
      continue;
    }
    const bool unary = e.what == k::unary && e.text() == "-" && e.args().size() == 1;
    const bool binary = (e.what == k::binary && e.args().size() == 2 &&
                         (e.text() == "+" || e.text() == "-" || e.text() == "*" ||
                          e.text() == "//" || e.text() == "%")) ||
                        (e.what == k::opaque && e.args().size() == 2 && is_power(&e));
    if (!unary && !binary)
      return std::nullopt;
    if (!f.expanded) {
      stack.push_back({&e, true});
      for (auto it = e.args().rbegin(); it != e.args().rend(); ++it) {
        if (!*it)
          return std::nullopt;
        stack.push_back({it->get(), false});
      }
      continue;
    }
    if (unary) {
      const std::int64_t v = values.back();
      if (v == std::numeric_limits<std::int64_t>::min())
        return std::nullopt;
      values.back() = -v;
      continue;
    }
    const std::int64_t r = values.back();
    values.pop_back();
    std::int64_t& l = values.back();
    if (e.what == k::opaque) { // l ** r
      const auto p = constants::power(l, r);
      if (!p)
        return std::nullopt;
      l = *p;
    } else {
      const std::string_view o = e.text().view();
      const auto v = constants::arithmetic(l, o == "//" ? '/' : o[0], r);
      if (!v)
        return std::nullopt;
      l = *v;
    }
  }
  return values.size() == 1 ? std::optional<std::int64_t>(values.back()) : std::nullopt;
}

mutable_expr dsl_parser::integer_of(const expression& e) {
  if (e.what != expression::kind::binary && e.what != expression::kind::unary &&
      !(e.what == expression::kind::opaque && powers_.count(&e) != 0))
    return nullptr;
  const auto v = fold_integer(e);
  if (!v)
    return nullptr;
  expression_spec c;
  c.what = expression::kind::integer;
  c.value = *v;
  c.where = e.where;
  return w_.make(c);
}

expression_ptr dsl_parser::folded(const expression_ptr& e) {
  if (auto* c = integer_of(*e))
    return c;
  return e;
}

bool dsl_parser::shape_allocation(expression& e) {
  const auto args = e.args();
  if (args.size() != 1 ||
      (args[0]->what != expression::kind::list && args[0]->what != expression::kind::tuple))
    return true;
  const expression_ptr shape = args[0];
  std::int64_t width = 0;
  for (const auto& k : e.keywords())
    if (k.name == "dtype") {
      const std::string sp = spelling(*k.value);
      if (sp.starts_with("pl."))
        width = dtype_byte_width(std::string_view(sp).substr(3));
    }
  if (width == 0) {
    front_end_error(e.where, "allocation by shape needs dtype=pl.<DTYPE> with a known width");
    e.set_kind(expression::kind::call);
    e.op = commscope::operation::none;
    expression_spec callee;
    callee.what = expression::kind::name;
    callee.where = e.where;
    callee.text = e.text();
    e.set_base(w_.make(callee));
    return false;
  }
  expression_ptr size;
  for (const auto& d : shape->args()) {
    if (!size) {
      size = d;
      continue;
    }
    size = binary(size, "*", d);
  }
  expression_spec ws;
  ws.what = expression::kind::integer;
  ws.where = shape->where;
  ws.value = width;
  const expression_ptr w = w_.make(ws);
  mutable_expr total = size ? binary(size, "*", w) : const_cast<expression*>(w.get());
  total->where = shape->where;
  e.mutable_args()[0] = total;
  e.set_base(shape);
  return true;
}

} // namespace commscope::frontend::detail

namespace commscope::frontend::detail {

std::string dsl_parser::dotted_module(const import_record& rec, const dotted& d) const {
  std::string module = module_of_use(rec);
  for (std::uint32_t k = 0; k + 1 < d.attrs; ++k) {
    module += '.';
    module += text(t_[d.attribute(k)]);
  }
  return module;
}

std::optional<dsl_parser::imported_use> dsl_parser::use_of(const dotted* d, std::string_view last,
                                                           bool is_attribute) {
  imported_use u;
  if (!is_attribute) {
    if (signatures_.find(last)) // a function of the file's own
      return std::nullopt;
    u.record = import_of(scan_, last, scope_);
    if (!u.record)
      u.record = star_import_of(last);
    else if (u.record->name.empty() || !binds_last(*u.record, last))
      return std::nullopt;
    if (!u.record)
      return std::nullopt;
    u.module = u.record->module;
    u.level = u.record->level;
    u.name = u.record->name;
    return u;
  }
  if (!d || d->attrs == 0)
    return std::nullopt;
  u.record = import_of(scan_, text(t_[d->root]), scope_);
  if (!u.record || !binds_last(*u.record, text(t_[d->root])))
    return std::nullopt;
  if (imports_the_dsl(*u.record))
    return std::nullopt;
  u.module = dotted_module(*u.record, *d);
  if (!u.record->name.empty() && loader_) {
    // `from pkg import kernels`: the attribute pkg/__init__.py binds, if it binds one.
    if (auto a = loader_->package_attribute(importer_, u.record->module, u.record->level,
                                            u.record->name)) {
      if (a->empty())
        return std::nullopt; // bound to what the front end does not read
      for (std::uint32_t k = 0; k + 1 < d->attrs; ++k)
        *a += "." + std::string(text(t_[d->attribute(k)]));
      u.module = std::move(*a);
    }
  }
  u.level = u.record->level;
  u.name = last;
  return u;
}

const import_record* dsl_parser::star_import_of(std::string_view name) {
  // Python allows `import *` at a module's level only; a name the module binds itself
  // is its own.
  if (!loader_ || scan_.star_modules.empty() || final_binding(0, name) != no_binding)
    return nullptr;
  for (std::size_t k = scan_.star_modules.size(); k-- > 0;) {
    const auto& [module, level] = scan_.star_modules[k];
    // The last that binds the name, or may, binds it (to something else than a DSL
    // function, the call's diagnostic says).
    const auto r = loader_->function(importer_, module, level, name);
    if (r.what != resolution::status::found && r.what != resolution::status::broken &&
        !loader_->star_may_bind(importer_, module, level, name))
      continue;
    for (const auto& rec : star_records_)
      if (rec.local == name && rec.module == module && rec.level == level)
        return &rec;
    import_record& rec = star_records_.emplace_back();
    rec.token = scan_.star_tokens[k];
    rec.local = name;
    rec.module = module;
    rec.level = level;
    rec.name = std::string(name);
    return &rec;
  }
  return nullptr;
}

bool dsl_parser::library_function(const dotted& d) {
  const import_record* rec = import_of(scan_, text(t_[d.root]), scope_);
  if (!rec)
    return false;
  if (imports_the_dsl(*rec))
    return true;
  if (!loader_ || rec->level > 0) // a relative import is of the program's own package
    return false;
  std::string module = dotted_module(*rec, d);
  if (const auto it = library_modules_.find(module); it != library_modules_.end())
    return it->second;
  // `np.linalg.norm`: neither numpy/linalg nor numpy is a file the run can read.
  bool library = true;
  for (std::string_view up = module; library && !up.empty();) {
    library = !loader_->has_module(importer_, up);
    const auto dot = up.rfind('.');
    up = dot == std::string_view::npos ? std::string_view() : up.substr(0, dot);
  }
  library_modules_.emplace(std::move(module), library);
  return library;
}

mutable_expr dsl_parser::imported_call(expression_spec& s, const dotted* d, std::string_view last,
                                       bool is_attribute, bool device) {
  const auto u = use_of(d, last, is_attribute);
  if (!u)
    return nullptr;
  const std::string spelled =
      is_attribute ? std::string(raw_spelling(*d, d->attrs)) : std::string(last);
  std::string key = std::to_string(scope_);
  key += ':';
  key += spelled;
  const signature* sig = nullptr;
  resolution r;
  if (auto it = imported_.find(key); it != imported_.end()) {
    sig = it->second;
  } else {
    r = loader_->function(importer_, u->module, u->level, u->name);
    if (r.what == resolution::status::found) {
      auto* made = w_.make_node(signature{});
      made->name = w_.intern(spelled);
      using role = definition::dsl;
      if (r.function->role == role::jit_host) {
        made->level = commscope::level::host;
        made->orchestrator = true;
      } else if (r.function->role == role::jit_chip) {
        made->level = commscope::level::chip;
        made->orchestrator = true;
        std::vector<str> names;
        for (const auto& n : r.function->returned_names)
          names.push_back(w_.intern(n));
        made->parameters = w_.list(names);
        made->returned = r.function->returned;
        // Imported twice in its scope (`try: from .fast import f` / `except ImportError:
        // from .slow import f`): which one runs is not read, so it may return any argument.
        std::size_t bindings = 0;
        for (const auto& rec : scan_.imports)
          bindings += rec.scope == u->record->scope && rec.local == u->record->local ? 1 : 0;
        // So may `m.f` where the file stores that attribute (`chips.f = chips.g`).
        // So may one that a module on the way binds twice (the same `try:` in a kernels
        // module).
        if (bindings > 1 || r.rebound || (is_attribute && stores_attribute(u->name)))
          made->returned = ~std::uint64_t{0};
      } else {
        made->level = commscope::level::other;
      }
      sig = made;
      imported_.emplace(std::move(key), sig);
    }
  }
  if (!sig && !device)
    return nullptr; // an ordinary call
  s.what = expression::kind::function_call;
  s.text = w_.intern(spelled);
  auto* e = w_.make(s);
  if (sig) {
    e->set_callee(sig);
    note_undispatched(*e, s.text.view()); // interned: it outlives the call
  } else if (r.what == resolution::status::broken) {
    // The module is no valid Python: the program that needs it is rejected there.
    if (std::find(broken_reported_.begin(), broken_reported_.end(), r.broken) ==
        broken_reported_.end()) {
      broken_reported_.push_back(r.broken);
      front_end_diagnostic fd;
      fd.code = "syntax";
      fd.message = r.broken->error->message;
      fd.where = {r.broken->error->line, r.broken->error->column};
      fd.file = r.broken->path;
      fd.notes.emplace_back("'" + spelled + "' is imported from module '" +
                                std::string(u->level, '.') + u->module + "', which needs " +
                                r.broken->path,
                            where(t_[u->record->token]));
      unit_->diagnostics.push_back(std::move(fd));
    }
  } else {
    unit_->unresolved_callees.emplace_back(s.where, unresolved_reason(r, *u, spelled));
  }
  note_open_device_names(*e);
  return e;
}

std::string dsl_parser::unresolved_reason(const resolution& r, const imported_use& u,
                                          std::string_view callee) const {
  const auto list = [](const std::vector<std::string>& dirs) {
    std::string out;
    for (const auto& dir : dirs) {
      out += out.empty() ? "" : ", ";
      out += dir;
    }
    return out.empty() ? std::string("no directory") : out;
  };
  const std::string module = std::string(u.level, '.') + u.module;
  // Built by appends: g++ 12 at -O3 sees a false -Wrestrict in "'" + std::string(...).
  std::string m(1, '\'');
  m.append(callee).append("' is imported from module '").append(module).append("', ");
  switch (r.what) {
  case resolution::status::no_function:
    m += "but " + r.module_path + " defines no DSL function '" + std::string(u.name) +
         "' (searched " + list(loader_->search_path(importer_)) +
         "; add the directory of the module that defines it with -I DIR)";
    break;
  case resolution::status::stopped:
    m += "but the search through " + r.module_path +
         " ended at an import cycle or a chain of more than 16 modules (searched " +
         list(loader_->search_path(importer_)) + "; add a directory with -I DIR)";
    break;
  default:
    if (r.module != module)
      m += "which imports module '" + r.module + "', ";
    m += "which was not found in " + list(r.searched);
    // Its package's root above the file, where Python finds it from the current
    // directory: named, so that the fix is one flag (for the file's own import).
    if (const auto [dir, file] = u.level == 0 && r.module == module
                                     ? loader_->found_above(importer_, module)
                                     : std::pair<std::string, std::string>();
        !dir.empty())
      m += " (add -I " + dir + " to read it from " + file + ")";
    else
      m += " (add its directory with -I DIR)";
    break;
  }
  return m;
}

std::optional<std::int64_t> dsl_parser::imported_constant(const dotted& d) {
  if (!loader_ || scan_.imports.empty() || d.attrs == 0)
    return std::nullopt;
  const auto u = use_of(&d, text(t_[d.attribute(d.attrs - 1)]), true);
  if (!u || stores_attribute(u->name)) // `config.N_RANKS = 4` in main(): no constant
    return std::nullopt;
  return loader_->constant(importer_, u->module, u->level, u->name);
}

bool dsl_parser::stores_attribute(std::string_view name) {
  if (!stored_attributes_)
    stored_attributes_ = find_attribute_stores(ts_);
  return stored_attributes_->stores(name);
}

} // namespace commscope::frontend::detail
