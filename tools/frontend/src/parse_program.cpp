// The DSL parser: a program, its functions, and the bindings of names.
#include "parser.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {
namespace {

/// CPython's limits on what the rewritten body may nest: blocks in one function
/// (CO_MAXBLOCKS) and indentation levels in a file (its tokenizer's MAXINDENT, less the
/// module's level).
constexpr std::uint32_t python_max_blocks = 20;
constexpr std::uint32_t python_max_indentation = 99;

/// The blocks CPython counts for a compound statement whose header begins at token `kw`
/// and whose header's ':' is `colon`: a loop, a `try` or `finally` body one, an `except`
/// clause two, a `with` one per item (a parenthesized list counted both ways: the more),
/// any other none.
std::uint32_t block_cost(const token_stream& ts, std::uint32_t kw, std::uint32_t colon) {
  const auto& t = ts.tokens;
  if (t[kw].is_keyword("async"))
    ++kw;
  if (t[kw].is_keyword("for") || t[kw].is_keyword("while") || t[kw].is_keyword("try") ||
      t[kw].is_keyword("finally"))
    return 1;
  if (t[kw].is_keyword("except"))
    return 2;
  if (!t[kw].is_keyword("with"))
    return 0;
  std::uint32_t outer = 1, inner = 1;
  int depth = 0;
  const bool parenthesized = kw + 1 < colon && t[kw + 1].is_op("(");
  for (std::uint32_t k = kw + 1; k < colon; ++k) {
    if (t[k].kind() != tok::op)
      continue;
    depth += bracket_nesting(t[k].flags());
    if (t[k].is_op(",")) {
      outer += depth == 0 ? 1 : 0;
      inner += parenthesized && depth == 1 ? 1 : 0;
    }
  }
  return std::max(outer, inner);
}

} // namespace

std::unordered_set<std::string_view> names_used_as_values(const token_stream& ts,
                                                          const module_scan& scan) {
  std::unordered_set<std::string_view> used;
  const auto& defs = scan.definitions;
  const auto& t = ts.tokens;
  // The names host orchestrators may go by: those of `@pl.jit.host` functions and of
  // program classes' methods (whose keywords tell), and of the defs that wrappings wrap
  // (`make = pl.jit.host(_make)`). Lengths first: most tokens name none of them.
  std::unordered_set<std::string_view> candidates;
  std::uint64_t lengths = 0;
  std::unordered_set<std::uint32_t> own; // their own names' tokens, and wrapped names in wrappings
  for (const auto& d : defs) {
    if (d.is_class || (d.role != definition::dsl::jit_host && d.role != definition::dsl::method))
      continue;
    for (const std::uint32_t k : {d.name, d.keyword + 1}) {
      candidates.insert(ts.text(t[k]));
      lengths |= std::uint64_t{1} << std::min<std::size_t>(ts.text(t[k]).size(), 63);
      own.insert(k);
    }
    if (d.name != d.keyword + 1)
      for (std::uint32_t k = d.name + 1; k < t.size() && t[k].kind() != tok::newline; ++k)
        if (t[k].kind() == tok::name && ts.text(t[k]) == ts.text(t[d.keyword + 1]))
          own.insert(k);
  }
  if (candidates.empty())
    return used;
  // The DSL functions' bodies, in source order, where any use counts.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> bodies;
  for (const auto& d : defs)
    if (d.role != definition::dsl::none && !d.is_class)
      bodies.emplace_back(d.body_begin, d.body_end);
  std::sort(bodies.begin(), bodies.end());
  std::size_t next_body = 0;
  for (std::uint32_t k = 0; k < t.size(); ++k) {
    const bool string = t[k].kind() == tok::string;
    if ((!string && t[k].kind() != tok::name) || t[k].is_reserved())
      continue;
    // Every token passes here: its length tells most apart before its text is read.
    const std::size_t length = t[k].length_field() - (string ? 2 : 0);
    if (t[k].length_field() < (string ? 2u : 1u) ||
        !((lengths >> std::min<std::size_t>(length, 63)) & 1))
      continue;
    while (next_body < bodies.size() && bodies[next_body].second <= k)
      ++next_body;
    const bool in_body = next_body < bodies.size() && bodies[next_body].first <= k;
    std::string_view n = ts.text(t[k]);
    // A string of its name in a DSL function's body may reach it (`getattr(self, "stage")`).
    if (string) {
      if (!in_body || n.size() < 2 || (n.front() != '"' && n.front() != '\'') ||
          n.back() != n.front())
        continue;
      n = n.substr(1, n.size() - 2);
    }
    if (own.contains(k))
      continue;
    // Elsewhere an attribute of something else is no use of it, a call is the runtime's,
    // and a binding of the name rebinds it.
    if (!in_body && ((k > 0 && t[k - 1].is_op(".")) ||
                     (k + 1 < t.size() && (t[k + 1].is_op("(") || t[k + 1].is_op("=")))))
      continue;
    if (candidates.contains(n))
      used.insert(n);
  }
  return used;
}

namespace {

/// For each definition `hosts` names (indices into the scan's definitions), whether the
/// file may hand it to a DSL function as a value (names_used_as_values: `used`), or a
/// decorator of its own other than the DSL's may keep it (`@register("m")`).
std::vector<bool> named_in_bodies(const token_stream& ts, const module_scan& scan,
                                  const std::vector<std::uint32_t>& hosts,
                                  const std::unordered_set<std::string_view>& used) {
  std::vector<bool> named(hosts.size(), false);
  const auto& t = ts.tokens;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const definition& h = scan.definitions[hosts[i]];
    named[i] = h.decorators.size() > 1 || used.contains(ts.text(t[h.name])) ||
               used.contains(ts.text(t[h.keyword + 1]));
  }
  return named;
}

/// Whether the body of `d` may hand a view to its callers: a `yield`, or a `return` of
/// a value that is not made of literals alone (`return 0` is not; those of a nested
/// function count too: a bound that is never too narrow).
bool returns_values(const token_stream& ts, const definition& d) {
  const auto& t = ts.tokens;
  for (std::uint32_t k = d.body_begin; k < d.body_end && k + 1 < t.size(); ++k) {
    if (t[k].is_keyword("yield"))
      return true;
    if (!t[k].is_keyword("return"))
      continue;
    for (std::uint32_t v = k + 1; v < d.body_end && v < t.size(); ++v) {
      const token& x = t[v];
      if (x.kind() == tok::newline || x.is_op(";"))
        break;
      const bool literal = x.kind() == tok::number || x.kind() == tok::string ||
                           x.is_keyword("None") || x.is_keyword("True") || x.is_keyword("False") ||
                           x.is_op(",") || x.is_op("(") || x.is_op(")") || x.is_op("-");
      if (!literal)
        return true;
    }
  }
  return false;
}

/// body_span::scope_room of the host orchestrator `d`: its body's deepest blocks (those
/// of a nested def or class are another function's) and deepest line, read from the
/// tokens on an explicit stack.
std::uint32_t scope_room(const token_stream& ts, const module_scan& scan, const definition& d) {
  const auto& t = ts.tokens;
  std::uint32_t deepest_line = d.level + 1;
  std::uint32_t most_blocks = 0;
  if (!d.inline_body) {
    struct open_block {
      std::uint32_t blocks;   ///< the function's blocks around the lines in it
      bool nested_definition; ///< inside a def or class of the body
    };
    std::vector<open_block> open{{0, false}};
    std::uint32_t line = d.body_begin + 1; // the first token of the current logical line
    for (std::uint32_t k = d.body_begin + 1; k < d.body_end && k < t.size(); ++k) {
      const tok kind = t[k].kind();
      if (kind == tok::indent || kind == tok::dedent) {
        if (kind == tok::dedent && open.size() > 1)
          open.pop_back();
        line = k + 1;
        continue;
      }
      if (kind != tok::newline)
        continue;
      // Line [line, k) is over: its blocks, and those of an inline compound body.
      const open_block here = open.back();
      std::uint32_t kw = line;
      if (t[kw].is_op("@")) // a decorator line is no header
        kw = k;
      const bool compound = kw < k && scan.is_compound(kw, k);
      const std::uint32_t colon = compound ? scan.header_colon(kw, k) : k;
      const bool defines =
          compound && (t[kw].is_keyword("def") || t[kw].is_keyword("class") ||
                       (t[kw].is_keyword("async") && kw + 1 < k && t[kw + 1].is_keyword("def")));
      const std::uint32_t cost = compound && !defines ? block_cost(ts, kw, colon) : 0;
      if (!here.nested_definition)
        most_blocks = std::max(most_blocks, here.blocks + (colon + 1 < k ? cost : 0));
      if (k + 1 < t.size() && t[k + 1].kind() == tok::indent) {
        open.push_back({here.blocks + cost, here.nested_definition || defines});
        deepest_line = std::max(deepest_line, d.level + static_cast<std::uint32_t>(open.size()));
        if (!open.back().nested_definition)
          most_blocks = std::max(most_blocks, open.back().blocks);
      }
      line = k + 1;
    }
  }
  const std::uint32_t by_blocks =
      most_blocks < python_max_blocks ? python_max_blocks - most_blocks : 0;
  const std::uint32_t by_lines =
      deepest_line < python_max_indentation ? python_max_indentation - deepest_line : 0;
  return std::min(by_blocks, by_lines);
}

} // namespace

program_unit dsl_parser::run(const candidate_program& cp, std::string_view stem) {
  program_unit unit;
  unit_ = &unit;
  texts_ = std::make_shared<source_text>();
  auto prog = std::make_shared<program>();
  prog->style = cp.is_class ? program::form::program_class : program::form::jit_group;
  jit_ = !cp.is_class;
  prog->name = !cp.name.empty() ? std::string(cp.name) : std::string(stem);
  unit.name = prog->name;
  unit.line = ts_.line(t_[cp.first_decorator]);
  unit.distributed_module = scan_.names.distributed_module();
  unit.dynamic_globals = scan_.dynamic_globals;
  if (unit.distributed_module.empty()) {
    unit.distributed_module = scan_.unused_module_name;
    if (scan_.top_import_end != module_scan::no_offset) {
      body_span at;
      at.begin = at.end = scan_.top_import_end;
      unit.distributed_import = std::move(at);
    }
  }
  // Signatures first: a call may name a function defined after it.
  std::vector<signature*> sigs;
  // DSL functions whose name is bound again below them (`def chip` after `@pl.jit def
  // chip`): a call of the name is no longer theirs. Name, the DSL def, the last binding.
  std::vector<std::tuple<std::string_view, std::uint32_t, std::uint32_t>> rebound;
  // A group of a class body's functions: its functions are the class's attributes, which
  // a bare name in their bodies does not reach (Python skips class bodies): such a call
  // is looked up in the scopes around the class.
  const bool class_members =
      !cp.is_class && cp.scope > 0 &&
      scan_.scopes[static_cast<std::size_t>(cp.scope)].what == py_scope::kind::class_body;
  for (const auto index : cp.functions) {
    const definition& d = scan_.definitions[index];
    sigs.push_back(make_signature(d));
    const std::string_view name = text(t_[d.name]);
    std::uint32_t last = final_binding(d.scope, name);
    if (last == d.name && d.scope == 0 && !scan_.star_modules.empty())
      if (const std::uint32_t star = star_rebinding(name, d.name); star != no_binding)
        last = star; // `from fast_kernels import *` below the def
    if (last != d.name)
      rebound.emplace_back(name, d.keyword, last);
    else if (!class_members && !signatures_.find(sigs.back()->name))
      signatures_.put(sigs.back());
  }
  if (cp.is_class)
    inherit_functions(cp);
  std::vector<std::uint32_t> hosts;
  for (std::size_t k = 0; k < cp.functions.size(); ++k)
    if (sigs[k]->level == commscope::level::host && sigs[k]->orchestrator)
      hosts.push_back(cp.functions[k]);
  // Whether a host is handed on matters only to one that returns or yields values: the
  // file is read for its uses only then, once for all its programs.
  std::vector<bool> called(hosts.size(), false);
  if (std::any_of(hosts.begin(), hosts.end(),
                  [&](std::uint32_t h) { return returns_values(ts_, scan_.definitions[h]); })) {
    std::optional<std::unordered_set<std::string_view>> own; // when the file keeps none
    auto& uses = uses_ ? *uses_ : own;
    if (!uses)
      uses = names_used_as_values(ts_, scan_);
    called = named_in_bodies(ts_, scan_, hosts, *uses);
  }
  // Called from another input file of the run (through an import): found there, since
  // each file is analyzed on its own.
  if (loader_ && !path_.empty())
    for (std::size_t h = 0; h < hosts.size(); ++h) {
      const definition& d = scan_.definitions[hosts[h]];
      if (called[h] || d.scope != 0 || !returns_values(ts_, d))
        continue;
      const std::string_view name = text(t_[d.name]);
      if (auto c = loader_->host_called_elsewhere(path_, name)) {
        called[h] = true;
        unit.called_from_other_files.push_back(
            {std::string(name), std::move(c->file), c->line, std::move(c->function)});
      }
    }
  for (std::size_t k = 0, h = 0; k < cp.functions.size(); ++k) {
    const definition& d = scan_.definitions[cp.functions[k]];
    scope_ = cp.is_class ? scan_.scopes[static_cast<std::size_t>(d.scope)].parent : d.scope;
    returns_to_callers_ = h < hosts.size() && hosts[h] == cp.functions[k] && called[h++];
    host_name_ = text(t_[d.name]);
    // A method's receiver is implicit, in a program class or in a class that holds jit
    // functions (`self.key` is then the class's attribute, not a parameter's).
    prog->functions.push_back(
        parse_function(d, sigs[k], cp.is_class || takes_receiver(ts_, scan_.scopes, d)));
  }
  // A group nested in a function: a name that a function around it binds to anything but
  // a DSL function is that binding, as Python finds it, not the DSL function of a scope
  // further out (`def test(chip=fanout):` around a call of the module's `chip`).
  const std::int32_t group_scope =
      jit_ && !cp.functions.empty() ? scan_.definitions[cp.functions.front()].scope : 0;
  std::unordered_map<std::string_view, std::uint32_t> outside_dsl; // per name: calls repeat
  for (auto& [call, name] : pending_calls_) {
    const signature* s = signatures_.find(name);
    if (group_scope > 0)
      if (const std::uint32_t other =
              outside_dsl.try_emplace(name, binding_outside_dsl(group_scope, name)).first->second;
          other != no_binding) {
        unit_->unresolved_callees.emplace_back(
            call->where, "'" + std::string(name) + "' is bound on line " +
                             std::to_string(ts_.line(t_[other])) +
                             " in a function around this one, to something other than a DSL "
                             "function: a call of it here is that, not the DSL function");
        continue;
      }
    if (!s && jit_)
      s = enclosing_function(name);
    if (s) {
      call->set_callee(s);
      note_undispatched(*call, name);
      continue;
    }
    for (const auto& [n, def, last] : rebound)
      if (n == name && last != no_binding) {
        const bool star = t_[last].is_keyword("from");
        unit_->unresolved_callees.emplace_back(
            call->where,
            "'" + std::string(name) + (star ? "' may be bound again" : "' is bound again") +
                " on line " + std::to_string(ts_.line(t_[last])) +
                (star ? " by a star import" : "") + ", below the DSL function of line " +
                std::to_string(ts_.line(t_[def])) + ", which it no longer names");
        break;
      }
  }
  resolve_undispatched();
  prog->variable_bound = next_id_;
  prog->arenas.push_back(w_.arena());
  prog->annotation = texts_;
  unit.program = prog;
  return unit;
}

void dsl_parser::unexpected(std::string_view wanted) const {
  std::string got;
  switch (peek().kind()) {
  case tok::name:
  case tok::op:
    got = "'" + std::string(text(peek())) + "'";
    break;
  case tok::number:
    got = "number";
    break;
  case tok::string:
    got = "string";
    break;
  case tok::newline:
    got = "end of line";
    break;
  case tok::indent:
    got = "indent";
    break;
  case tok::dedent:
    got = "dedent";
    break;
  case tok::end:
    got = "end of file";
    break;
  }
  fail_at(peek().begin, "invalid syntax: expected " + std::string(wanted) + ", got " + got);
}

void dsl_parser::verbatim(std::string& out, std::uint32_t b, std::uint32_t e) const {
  if (b >= e)
    return;
  const std::uint32_t from = t_[b].begin;
  const std::uint32_t to = ts_.end(t_[e - 1]);
  const std::string_view src = ts_.source;
  // The line the statement starts on (a string may span lines: not the one it ends on).
  const std::uint32_t line_start = ts_.line_starts[ts_.line_of(t_[b].begin) - 1];
  const std::string_view base = src.substr(line_start, from - line_start);
  std::uint32_t k = from;
  std::uint32_t tok_i = b;
  while (k < to) {
    std::uint32_t run = k;
    while (run < to && src[run] != '\n' && src[run] != '\r')
      ++run;
    out.append(src.substr(k, run - k));
    k = run;
    if (k >= to)
      break;
    const char c = src[k];
    k += (c == '\r' && k + 1 < to && src[k + 1] == '\n') ? 2 : 1;
    out += '\n';
    while (tok_i < e && ts_.end(t_[tok_i]) <= k)
      ++tok_i;
    const bool in_string = tok_i < e && t_[tok_i].begin < k && t_[tok_i].kind() == tok::string;
    if (in_string) {
      out += '\0';
      continue;
    }
    std::uint32_t skip = 0;
    while (skip < base.size() && k + skip < to && src[k + skip] == base[skip])
      ++skip;
    if (skip == base.size() || (k + skip < to && src[k + skip] != ' ' && src[k + skip] != '\t'))
      k += skip;
  }
}

statement_text dsl_parser::make_text(std::uint32_t b, std::uint32_t e, std::string_view comment,
                                     bool mark) {
  statement_text r;
  if (b >= e) {
    trivia_.clear();
    return r;
  }
  const std::string_view src = ts_.source;
  const std::uint32_t from = t_[b].begin;
  const std::uint32_t to = ts_.end(t_[e - 1]);
  const std::string_view raw = src.substr(from, to - from);
  const bool one_line = std::memchr(raw.data(), '\n', raw.size()) == nullptr &&
                        std::memchr(raw.data(), '\r', raw.size()) == nullptr;
  if (one_line && trivia_.empty() && comment.empty()) {
    r.text = w_.string(raw);
    return r;
  }
  scratch_.clear();
  scratch_ += trivia_;
  trivia_.clear();
  if (one_line)
    scratch_ += raw;
  else
    verbatim(scratch_, b, e);
  if (!comment.empty()) {
    if (mark)
      r.comment_at = static_cast<std::uint32_t>(scratch_.size());
    scratch_ += comment;
  }
  r.text = w_.string(scratch_);
  return r;
}

void dsl_parser::find_walrus_names(std::uint32_t b, std::uint32_t e) {
  walrus_names_.clear();
  // Those of nested scopes count too, as do a format spec's `:=` (`f"{x:=^8}"`): more
  // names than Python binds only make more values unfollowed.
  const auto add = [&](std::string_view n) {
    if (walrus_names_.insert(n).second)
      cells_.try_emplace(n, "bound by :=");
  };
  for (std::uint32_t k = b; k < e && k + 1 < t_.size(); ++k) {
    const token& x = t_[k];
    if (x.kind() == tok::name && t_[k + 1].is_op(":=")) {
      add(text(x));
    } else if (x.kind() == tok::string && (x.flags() & string_formatted)) {
      const std::string_view s = text(x);
      for (std::size_t at = s.find(":="); at != std::string_view::npos; at = s.find(":=", at + 2)) {
        std::size_t end = at;
        while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t'))
          --end;
        std::size_t begin = end;
        while (begin > 0 &&
               (std::isalnum(static_cast<unsigned char>(s[begin - 1])) || s[begin - 1] == '_' ||
                static_cast<unsigned char>(s[begin - 1]) >= 0x80))
          --begin;
        if (begin < end)
          add(s.substr(begin, end - begin));
      }
    }
  }
}

function_ptr dsl_parser::parse_function(const definition& d, signature* sig, bool method) {
  function_scope_ = d.own_scope;
  function_names_.clear();
  cells_.clear();
  late_from_ = no_late;
  defaulted_.clear();
  late_reads_.clear();
  loops_open_ = 0;
  last_binding_.clear();
  last_binding_made_ = false;
  find_walrus_names(d.colon + 1, d.body_end);
  record_filter_.clear();
  unbound_cache_ = {};
  implicit_self_ = {};
  dynamic_reads_ = 0;
  names_.clear();
  // Sized once from the bindings the scan met in the body (a body of a million
  // assignments would otherwise rehash its table a dozen times), whose first slots are
  // fetched ahead (hash_of_binding).
  ahead_ = {};
  if (d.own_scope >= 0 && static_cast<std::size_t>(d.own_scope) < scan_.scopes.size()) {
    const auto& records = scan_.scopes[static_cast<std::size_t>(d.own_scope)].records;
    names_.reserve(records.size());
    ahead_.records = records;
    for (std::size_t k = 0; k < binding_lookahead::distance && k < records.size(); ++k)
      fetch_binding(k);
  }
  constants_seen_.clear();
  open_names_.clear();
  unshadow(0);
  resolving_ = false;
  auto* fn = w_.make_node(function{});
  fn->where = where(t_[d.keyword]);
  i_ = d.keyword + 2;
  if (is_op("[")) { // PEP 695 type parameters: not read
    int depth = 0;
    do {
      if (is_op("[") || is_op("(") || is_op("{"))
        ++depth;
      else if (is_op("]") || is_op(")") || is_op("}"))
        --depth;
      next();
    } while (depth > 0 && peek().kind() != tok::newline && peek().kind() != tok::end);
  }
  expect_op("(");
  bool first = true;
  std::vector<parameter> params;
  while (!is_op(")")) {
    if (is_op("/") || (is_op("*") && (is_op(",", 1) || is_op(")", 1)))) {
      next(); // positional-only or keyword-only marker
    } else {
      if (is_op("*") || is_op("**"))
        next();
      if (peek().kind() != tok::name || peek().is_reserved())
        unexpected("a parameter name");
      const token& pn = next();
      if (first && method && !is_op(":")) {
        // `self` is implicit: no variable, so that self.NAME(...) stays a call.
        implicit_self_ = text(pn);
      } else {
        auto* v = new_variable(text(pn));
        if (is_op(":")) {
          next();
          v->var_type = w_.make_node(type{parse_test(), {}, {}, {}});
        }
        params.push_back({v});
        bind(v);
      }
      if (is_op("=")) {
        next();
        (void)parse_test();
      }
    }
    first = false;
    if (!is_op(","))
      break;
    next();
  }
  expect_op(")");
  fn->params = w_.list(params);
  if (is_op("->")) {
    next();
    fn->returns = parse_test();
  }
  fn->sig = sig;
  const bool host = sig->level == commscope::level::host && sig->orchestrator;
  fn->returns_to_callers = host && returns_to_callers_;
  if (host) {
    resolving_ = true;
    i_ = d.body_begin;
    fn->body = d.inline_body ? parse_simple_line_block() : parse_indented_block();
    resolving_ = false;
    body_span span;
    span.fn = fn;
    span.inline_body = d.inline_body;
    if (d.inline_body) {
      span.begin = ts_.end(t_[d.colon]);
      span.end = t_[d.body_end].begin;
      const std::uint32_t ls = ts_.line_starts[ts_.line(t_[d.keyword]) - 1];
      std::uint32_t w = ls;
      while (w < ts_.source.size() && (ts_.source[w] == ' ' || ts_.source[w] == '\t'))
        ++w;
      span.indent = std::string(ts_.source.substr(ls, w - ls)) + "    ";
    } else {
      std::uint32_t first = d.body_begin + 1;
      // The body's lines begin after the header's: comment lines above the first
      // statement are printed with it, so they are the body's too.
      std::uint32_t opens = d.colon;
      // A docstring on lines of its own stays the function's: the scopes wrap what follows
      // it, and the analysis has no use for it.
      // (An f-string is no docstring, and may call something: it stays a statement.)
      const token& lead = t_[first];
      const bool docstring =
          lead.kind() == tok::string && !(lead.flags() & (string_bytes | string_formatted));
      if (docstring && t_[first + 1].kind() == tok::newline && fn->body.size() > 1 &&
          t_[first + 2].kind() != tok::dedent) {
        fn->body = w_.list(std::span<const statement_ptr>(fn->body).subspan(1));
        opens = first + 1;
        first += 2;
      }
      const token& first_tok = t_[first];
      span.begin = ts_.line_starts[ts_.line_of(t_[opens].begin)];
      const std::uint32_t line_begin = ts_.line_starts[ts_.line_of(first_tok.begin) - 1];
      span.indent = std::string(ts_.source.substr(line_begin, first_tok.begin - line_begin));
      // The last NEWLINE of the body: the DEDENT's predecessor.
      std::uint32_t last = d.body_end;
      while (last > d.body_begin + 1 && t_[last - 1].kind() != tok::newline)
        --last;
      span.end = last > d.body_begin + 1 ? t_[last - 1].begin : first_tok.begin;
    }
    span.scope_room = scope_room(ts_, scan_, d);
    unit_->bodies.push_back(std::move(span));
  }
  return fn;
}

std::uint64_t dsl_parser::hash_of_binding(std::string_view name) {
  const auto& records = ahead_.records;
  const auto at = reinterpret_cast<std::uintptr_t>(name.data());
  const auto source = reinterpret_cast<std::uintptr_t>(ts_.source.data());
  if (at < source || at - source >= ts_.source.size())
    return hash_name(name);
  const auto offset = static_cast<std::uint32_t>(at - source);
  auto& k = ahead_.next;
  while (k < records.size() && t_[records[k].name].begin < offset)
    fetch_binding(k++ + binding_lookahead::distance);
  if (k < records.size() && t_[records[k].name].begin == offset &&
      text(t_[records[k].name]).size() == name.size()) {
    const std::uint64_t h = ahead_.hashes[k % binding_lookahead::distance];
    fetch_binding(k++ + binding_lookahead::distance);
    return h;
  }
  return hash_name(name);
}

void dsl_parser::fetch_binding(std::size_t k) {
  if (k >= ahead_.records.size())
    return;
  const std::uint64_t h = hash_name(text(t_[ahead_.records[k].name]));
  ahead_.hashes[k % binding_lookahead::distance] = h;
  names_.prefetch(h);
}

std::string dsl_parser::raw_spelling(const expression& e) {
  std::vector<const expression*> chain;
  const expression* p = &e;
  while (p->what == expression::kind::attribute && p->base()) {
    chain.push_back(p);
    p = p->base().get();
  }
  if (p->what != expression::kind::name || p->var())
    return {};
  std::string r(p->text().view());
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    r += '.';
    r += (*it)->text().view();
  }
  return r;
}

const signature* dsl_parser::enclosing_function(std::string_view name) {
  // Asked for every plain call of a group's bodies (print, len, ...): each name once.
  std::string cache_key = std::to_string(scope_) + ':';
  cache_key += name;
  if (const auto it = enclosing_.find(cache_key); it != enclosing_.end())
    return it->second;
  const signature* found = lookup_enclosing(name);
  enclosing_.emplace(std::move(cache_key), found);
  return found;
}

const signature* dsl_parser::lookup_enclosing(std::string_view name) {
  // As Python looks a free name up: the nearest enclosing function body (class bodies
  // aside) or the module that binds it decides; a DSL function there is the callee.
  const std::int32_t sc =
      binding_scope(scan_.scopes[static_cast<std::size_t>(scope_)].parent, name, true);
  if (sc < 0)
    return nullptr;
  using role = definition::dsl;
  const definition* d = function_bound_by(sc, final_binding(sc, name));
  if (d &&
      (d->role == role::jit_host || d->role == role::jit_chip || d->role == role::jit_kernel)) {
    auto* made = w_.make_node(signature{});
    made->name = w_.intern(name);
    made->level = d->role == role::jit_host   ? commscope::level::host
                  : d->role == role::jit_chip ? commscope::level::chip
                                              : commscope::level::other;
    made->orchestrator = d->role != role::jit_kernel;
    return made;
  }
  return nullptr; // bound there to something else
}

std::uint32_t dsl_parser::binding_outside_dsl(std::int32_t from, std::string_view name) {
  const std::int32_t sc = binding_scope(from, name, true);
  if (sc <= 0) // the module's binding: the DSL function itself, or rebound (found otherwise)
    return no_binding;
  const std::uint32_t last = final_binding(sc, name);
  const definition* d = function_bound_by(sc, last);
  return d && d->role != definition::dsl::none ? no_binding : last;
}

const definition* dsl_parser::function_bound_by(std::int32_t scope, std::uint32_t name) const {
  for (const auto& d : scan_.definitions)
    if (d.scope == scope && !d.is_class && d.name == name)
      return &d;
  return nullptr;
}

std::int32_t dsl_parser::binding_scope(std::int32_t from, std::string_view name,
                                       bool skip_classes) const {
  const auto n = static_cast<std::int32_t>(scan_.scopes.size());
  for (std::int32_t s = from; s >= 0 && s < n;) {
    const auto& scope = scan_.scopes[static_cast<std::size_t>(s)];
    if (!skip_classes || scope.what != py_scope::kind::class_body)
      for (const auto& r : scope.records)
        if (text(t_[r.name]) == name)
          return s;
    s = scope.parent < s ? scope.parent : -1; // a parent is scanned before its children
  }
  return -1;
}

void dsl_parser::inherit_functions(const candidate_program& cp) {
  // The program classes of the same scope that the class names as its bases, and theirs
  // in turn, depth first from the left: a `self.NAME(...)` that the class does not define
  // is the first of theirs (Python's order for single inheritance).
  std::vector<const definition*> todo;
  const auto bases_of = [&](const definition& c) {
    std::vector<const definition*> found;
    for (std::uint32_t k = c.keyword + 2; k < c.colon; ++k) {
      if (t_[k].kind() != tok::name || t_[k - 1].is_op(".") || t_[k + 1].is_op(".") ||
          t_[k + 1].is_op("="))
        continue;
      for (const auto& other : scan_.definitions)
        if (other.is_class && other.role == definition::dsl::program_class &&
            other.scope == c.scope && other.keyword < c.keyword &&
            text(t_[other.name]) == text(t_[k]))
          found.push_back(&other);
    }
    return found;
  };
  // The class by its first decorator, from a table the file's programs share.
  index_definitions();
  const auto& classes = tables().program_class_at;
  if (const auto it = classes.find(cp.first_decorator); it != classes.end()) {
    todo = bases_of(scan_.definitions[it->second]);
    std::reverse(todo.begin(), todo.end());
  }
  std::vector<const definition*> seen;
  while (!todo.empty()) {
    const definition* base = todo.back();
    todo.pop_back();
    if (std::find(seen.begin(), seen.end(), base) != seen.end())
      continue;
    seen.push_back(base);
    const auto& p = scan_.programs[static_cast<std::size_t>(base->program)];
    for (const auto index : p.functions) {
      const definition& f = scan_.definitions[index];
      if (!signatures_.find(text(t_[f.name])))
        signatures_.put(make_signature(f));
    }
    auto more = bases_of(*base);
    todo.insert(todo.end(), more.rbegin(), more.rend());
  }
}

std::uint32_t dsl_parser::star_rebinding(std::string_view name, std::uint32_t after) {
  for (std::size_t k = 0; k < scan_.star_modules.size(); ++k) {
    const std::uint32_t at = scan_.star_tokens[k];
    if (at < after)
      continue;
    if (!loader_)
      return at;
    const auto& [module, level] = scan_.star_modules[k];
    std::vector<std::string> searched;
    const auto m = loader_->find(importer_, module, level, searched);
    // A module the loader cannot find may bind any name; else the names it exports.
    if (!m || loader_->star_may_bind(importer_, module, level, name))
      return at;
  }
  return no_binding;
}

std::uint32_t dsl_parser::final_binding(std::int32_t scope, std::string_view name) {
  std::uint32_t last = no_binding;
  if (scope < 0 || static_cast<std::size_t>(scope) >= scan_.scopes.size())
    return last;
  // A scope of many names through its table of them, which the file's programs share: a
  // scan of its records for each name would cost each program the size of the module.
  const auto& records = scan_.scopes[static_cast<std::size_t>(scope)].records;
  if (records.size() <= 64) {
    for (const auto& r : records)
      if (text(t_[r.name]) == name && (last == no_binding || r.name > last))
        last = r.name;
    return last;
  }
  const scope_functions& f = functions_of_scope(scope);
  if (const auto it = f.records_of.find(name); it != f.records_of.end())
    for (const std::uint32_t k : it->second)
      if (last == no_binding || records[k].name > last)
        last = records[k].name;
  return last;
}

bool dsl_parser::binds_last(const import_record& r, std::string_view name) {
  const std::uint32_t last = final_binding(r.scope, name);
  if (last == no_binding || last < r.token)
    return false;
  // The binding is of this import statement: no statement begins between them.
  for (std::uint32_t i = r.token; i < last; ++i)
    if (t_[i].kind() == tok::newline || t_[i].is_op(";"))
      return false;
  return true;
}

} // namespace commscope::frontend::detail
