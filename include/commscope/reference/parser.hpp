// The text front end of the reference IR: reads whole Python modules (cli.md, "Input")
// and parses the DSL programs it finds in them.
//
// Three steps: tokenize the file (tokenizer.hpp), walk its block structure once to find
// the DSL (`@pl.program` classes and `@pl.jit` groups at any depth), the imports and the
// bindings of every Python scope, then parse the DSL functions: host orchestrator
// bodies into the IR, the other functions' signatures only. Code outside the DSL is
// never parsed beyond its block structure.
//
// Nothing here throws, aborts or recurses without bound, whatever the bytes: blocks and
// brackets are capped as in Python, and so is the recursion of the expression parser.
#pragma once

#include <commscope/detail/operations.hpp>
#include <commscope/reference/ir.hpp>
#include <commscope/reference/lexicon.hpp>
#include <commscope/reference/module_scan.hpp>
#include <commscope/reference/name_table.hpp>
#include <commscope/reference/tokenizer.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace commscope::reference {

struct syntax_error {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  std::string message;
};

/// A finding of the front end that is no syntax error but rejects a program, with a
/// code of pass.md (a malformed `pld.comm_domain`, an unknown dtype).
struct front_end_diagnostic {
  std::string code;
  std::string message;
  source_location where{};
};

/// Where a rewritten host orchestrator body goes in the source (cli.md, `--emit=ir`).
struct body_span {
  const function* fn = nullptr;
  std::uint32_t begin = 0; ///< byte range of the body's lines, without the last line end
  std::uint32_t end = 0;
  std::string indent;       ///< the body's indentation as written
  bool inline_body = false; ///< `def f(): stmt` on one line: begin is after the ':'
};

/// One DSL program of a module.
struct program_unit {
  std::string name;
  std::uint32_t line = 0; ///< the line of its first decorator
  program_ptr program;
  std::vector<body_span> bodies; ///< every host orchestrator's body
  std::vector<front_end_diagnostic> diagnostics;
  /// Names left open that a `device=` depends on, by the location of that call: the
  /// driver names them in the `unsupported-device` message and suggests `-D`.
  std::vector<std::pair<source_location, std::string>> open_names;
  /// Integer literals beyond 64 bits in a `device=`, by the location of that call: read
  /// as the nearest 64-bit value, and named as written in the message.
  std::vector<std::pair<source_location, std::string>> huge_devices;
};

struct module_result {
  std::vector<program_unit> programs;
  std::optional<syntax_error> error; ///< the first syntax error; no programs then
  std::string newline = "\n";        ///< the file's line end (CRLF files keep theirs)
  explicit operator bool() const { return !error; }
};

/// Reads a whole module. Never throws.
module_result parse_module(std::string_view text, const module_options& options = {});

struct parse_result {
  program_ptr program;               ///< null when `error` is set
  std::optional<syntax_error> error; ///< the first syntax error
  explicit operator bool() const { return program != nullptr; }
};

/// Reads a module that holds one program (tests, the fuzz target): its first program;
/// an error when it has none.
parse_result parse(std::string_view text);

/// The byte width of `pl.<DTYPE>`, or 0 for an unknown dtype name.
[[nodiscard]] inline std::int64_t dtype_byte_width(std::string_view dtype) {
  struct entry {
    std::string_view name;
    std::int64_t bytes;
  };
  static constexpr std::array<entry, 13> table{{{"FP32", 4},
                                                {"INT32", 4},
                                                {"UINT32", 4},
                                                {"FP16", 2},
                                                {"BF16", 2},
                                                {"INT16", 2},
                                                {"UINT16", 2},
                                                {"INT8", 1},
                                                {"UINT8", 1},
                                                {"BOOL", 1},
                                                {"FP64", 8},
                                                {"INT64", 8},
                                                {"UINT64", 8}}};
  for (const auto& e : table)
    if (e.name == dtype)
      return e.bytes;
  return 0;
}

/// The operation a dotted spelling names (cli.md, "Operations"), or none: `pld.NAME` or
/// `pld.tensor.NAME` with NAME from the analysis's table of operations (world_size is
/// `pld.world_size` or `pld.system.world_size`).
[[nodiscard]] inline commscope::operation operation_of_spelling(std::string_view s) {
  using commscope::operation;
  if (s == "pld.system.world_size")
    return operation::world_size;
  const bool tensor = s.starts_with("pld.tensor.");
  if (!tensor && !s.starts_with("pld."))
    return operation::none;
  const std::string_view name = s.substr(tensor ? 11 : 4);
  for (std::size_t i = 1; i < commscope::detail::operation_table.size(); ++i)
    if (commscope::detail::operation_table[i].name == name) {
      const auto op = static_cast<operation>(i);
      return (op == operation::world_size && tensor) ? operation::none : op;
    }
  return operation::none;
}

#if defined(__GNUC__) || defined(__clang__)
#define COMMSCOPE_INLINE [[gnu::always_inline]] inline
#else
#define COMMSCOPE_INLINE inline
#endif

namespace detail {

/// How deep the expression parser may recurse (brackets, unary chains, lambdas,
/// conditional expressions together); Python refuses such input as too complex too.
inline constexpr std::uint32_t max_expression_nesting = 400;

// ---- the DSL parser --------------------------------------------------------------

/// An expression or statement under construction: writable until it is published.
using mutable_expr = expression*;

/// Reads the DSL functions of one program into the IR. Nodes are written into the
/// program's arena as soon as their parts are known: operands and block bodies are
/// gathered on scratch stacks and copied into their node once, so that no node costs a
/// heap allocation of its own. A dotted callee (`pld.tensor.window`, `self.f`) is read
/// from its tokens and made into nodes only when the call keeps it.
class dsl_parser {
public:
  dsl_parser(const token_stream& ts, const module_scan& scan, constants& consts)
      : ts_(ts), t_(ts.tokens), tokens_(ts.tokens.data()), last_(ts.tokens.size() - 1), scan_(scan),
        consts_(consts), w_(first_chunk(ts)) {}

  program_unit run(const candidate_program& cp, std::string_view stem) {
    program_unit unit;
    unit_ = &unit;
    auto prog = std::make_shared<program>();
    prog->style = cp.is_class ? program::form::program_class : program::form::jit_group;
    jit_ = !cp.is_class;
    prog->name = !cp.name.empty() ? std::string(cp.name) : std::string(stem);
    unit.name = prog->name;
    unit.line = ts_.line(t_[cp.first_decorator]);
    // Signatures first: a call may name a function defined after it.
    std::vector<signature*> sigs;
    for (const auto index : cp.functions) {
      const definition& d = scan_.definitions[index];
      sigs.push_back(make_signature(d));
      if (!signatures_.find(sigs.back()->name))
        signatures_.put(sigs.back());
    }
    for (std::size_t k = 0; k < cp.functions.size(); ++k) {
      const definition& d = scan_.definitions[cp.functions[k]];
      scope_ = cp.is_class ? scan_.scopes[static_cast<std::size_t>(d.scope)].parent : d.scope;
      prog->functions.push_back(parse_function(d, sigs[k], cp.is_class));
    }
    for (auto& [call, name] : pending_calls_)
      if (const signature* s = signatures_.find(name))
        call->set_callee(s);
    prog->variable_bound = next_id_;
    prog->arenas.push_back(w_.arena());
    unit.program = prog;
    return unit;
  }

private:
  /// The arena's first chunk: a share of the source, so that a large program starts with
  /// large chunks.
  static std::size_t first_chunk(const token_stream& ts) {
    return std::clamp<std::size_t>(ts.source.size() / 64, 4096, std::size_t{1} << 20);
  }

  // ---- tokens (the stream ends with an END token, which peek() never passes)
  COMMSCOPE_INLINE const token& peek(std::size_t k = 0) const {
    return tokens_[std::min<std::size_t>(i_ + k, last_)];
  }
  COMMSCOPE_INLINE const token& next() {
    const token& t = tokens_[i_];
    if (i_ < last_)
      ++i_;
    if (t.kind() < tok::newline) // a real token: name, number, string, operator
      last_end_ = ts_.end(t);
    return t;
  }
  COMMSCOPE_INLINE std::string_view text(const token& t) const { return ts_.text(t); }
  COMMSCOPE_INLINE bool is_op(operator_code o, std::size_t k = 0) const { return peek(k).is_op(o); }
  COMMSCOPE_INLINE bool is_name(keyword_id n, std::size_t k = 0) const {
    return peek(k).is_keyword(n);
  }
  bool at_line_end() const {
    return peek().kind() == tok::newline || peek().kind() == tok::end || is_op(";");
  }
  COMMSCOPE_INLINE source_location where(const token& t) const { return ts_.where(t); }
  [[noreturn]] void unexpected(std::string_view wanted) const {
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
  void expect_op(operator_code o) {
    if (!is_op(o))
      unexpected("'" + std::string(o.spelling) + "'");
    next();
  }
  void expect_line_end() {
    if (peek().kind() == tok::newline)
      next();
    else if (peek().kind() != tok::end && peek().kind() != tok::dedent)
      unexpected("end of line");
  }

  struct nest {
    dsl_parser& p;
    nest(dsl_parser& q, std::uint32_t at) : p(q) {
      if (++p.depth_ > max_expression_nesting)
        fail_at(at, "too many nested parentheses or operators (expression too complex)");
    }
    ~nest() { --p.depth_; }
    nest(const nest&) = delete;
    nest& operator=(const nest&) = delete;
  };

  // ---- scratch stacks: what a node under construction gathers, copied into it once
  template <class T> struct gathered {
    std::vector<T>& stack;
    std::size_t mark;
    explicit gathered(std::vector<T>& s) : stack(s), mark(s.size()) {}
    ~gathered() { stack.resize(mark); }
    gathered(const gathered&) = delete;
    gathered& operator=(const gathered&) = delete;
    void push(const T& x) { stack.push_back(x); }
    [[nodiscard]] std::span<const T> items() const {
      return {stack.data() + mark, stack.size() - mark};
    }
    [[nodiscard]] std::size_t size() const { return stack.size() - mark; }
    [[nodiscard]] bool empty() const { return stack.size() == mark; }
  };

  /// The source of tokens [b, e) as a statement's text: continuation lines without the
  /// first line's indentation, lines inside a string marked with '\0' (see ir.hpp).
  void verbatim(std::string& out, std::uint32_t b, std::uint32_t e) const {
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

  struct statement_text {
    str text;
    std::uint32_t comment_at = 0;
  };
  /// A statement's text: the pending leading comments, tokens [b, e) as written, then
  /// `comment` (its own trailing comment; `mark` records where it starts).
  statement_text make_text(std::uint32_t b, std::uint32_t e, std::string_view comment, bool mark) {
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

  // ---- functions
  signature* make_signature(const definition& d) {
    auto* sig = w_.make_node(signature{});
    sig->name = w_.intern(text(t_[d.keyword + 1]));
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
      auto deco = parse_test();
      if (i_ != e)
        unexpected("end of the decorator");
      const expression& ex = *deco;
      const bool call = ex.what == expression::kind::call;
      const expression* callee = call ? ex.base().get() : &ex;
      if (!callee || spelling(*callee) != "pl.function")
        continue;
      for (const auto& k : ex.keywords()) {
        decorator.push_back(k);
        const std::string v(spelling(*k.value));
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
    if (!explicit_level) // cli.md: an orchestrator without a level is a chip orchestrator
      sig->level = commscope::level::chip;
    else if (!level_known)
      sig->level = commscope::level::other;
    return sig;
  }

  function_ptr parse_function(const definition& d, signature* sig, bool method) {
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
    shadow_.clear();
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
        const token& first_tok = t_[d.body_begin + 1];
        span.begin = ts_.line_starts[ts_.line_of(first_tok.begin) - 1]; // where it starts
        span.indent = std::string(ts_.source.substr(span.begin, first_tok.begin - span.begin));
        // The last NEWLINE of the body: the DEDENT's predecessor.
        std::uint32_t last = d.body_end;
        while (last > d.body_begin + 1 && t_[last - 1].kind() != tok::newline)
          --last;
        span.end = last > d.body_begin + 1 ? t_[last - 1].begin : first_tok.begin;
      }
      unit_->bodies.push_back(std::move(span));
    }
    return fn;
  }

  // ---- names
  /// A new binding of `name`: a variable of its own, which shares the name's string and
  /// name_id with the bindings of the name before it in this function (the analysis
  /// resolves rebinding, through branches and loops, by name_id).
  variable* new_binding(std::string_view name, const variable* before) {
    return before ? w_.make_binding(next_id_++, *before)
                  : w_.make_variable(next_id_++, w_.string(name));
  }
  variable* new_variable(std::string_view name) { return new_binding(name, names_.find(name)); }
  void bind(const variable* v) { names_.put(v); }
  /// new_variable and bind in one probe of the table.
  variable* bind_new(std::string_view name) {
    const auto at = names_.locate(name, hash_of_binding(name));
    variable* v = new_binding(name, at.found);
    names_.put_at(at, v);
    return v;
  }

  /// hash_name(name) for a name bind_new is about to bind. The scan recorded the body's
  /// bindings mostly in source order, and bind_new meets most of them in that order: the
  /// table slot of the binding `distance` records on is fetched now, and its hash kept
  /// for when it is bound. A name that is not the next record (a walrus target recorded
  /// before its statement's targets, a name recorded twice, a nested scope's name) is
  /// hashed here, and records passed over are skipped by their offsets: the order costs
  /// only prefetches, never a wrong hash (a kept hash is used only for the same bytes).
  std::uint64_t hash_of_binding(std::string_view name) {
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
  void fetch_binding(std::size_t k) {
    if (k >= ahead_.records.size())
      return;
    const std::uint64_t h = hash_name(text(t_[ahead_.records[k].name]));
    ahead_.hashes[k % binding_lookahead::distance] = h;
    names_.prefetch(h);
  }

  /// The dotted name an attribute chain spells, in the DSL's own aliases (`pl.`, `pld.`).
  std::string spelling(const expression& e) const { return scan_.names.canonical(raw_spelling(e)); }
  /// The same as written.
  static std::string raw_spelling(const expression& e) {
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

  // ---- statements
  node_list<statement_ptr> parse_block() {
    if (peek().kind() != tok::newline)
      return parse_simple_line_block();
    next();
    return parse_indented_block();
  }
  node_list<statement_ptr> parse_simple_line_block() {
    gathered<statement_ptr> body(ss_);
    parse_simple_line();
    return w_.list(body.items());
  }
  node_list<statement_ptr> parse_indented_block() {
    nest guard(*this, peek().begin);
    gathered<statement_ptr> body(ss_);
    if (peek().kind() != tok::indent)
      unexpected("an indented block");
    next();
    while (peek().kind() != tok::dedent && peek().kind() != tok::end)
      parse_statement();
    if (peek().kind() == tok::dedent)
      next();
    return w_.list(body.items());
  }

  /// The comment and blank lines between the last token read and line `line`, each as
  /// written without its indentation, ending in a line break (empty: none).
  std::string leading_trivia(std::uint32_t line) const {
    if (last_end_ == 0)
      return {};
    const std::uint32_t prev = ts_.line_of(last_end_ - 1);
    std::string out;
    for (std::uint32_t l = prev + 1; l < line && l <= ts_.line_starts.size(); ++l) {
      const std::uint32_t b = ts_.line_starts[l - 1];
      const std::uint32_t e = l < ts_.line_starts.size()
                                  ? ts_.line_starts[l]
                                  : static_cast<std::uint32_t>(ts_.source.size());
      std::string_view raw = ts_.source.substr(b, e - b);
      while (!raw.empty() && (raw.back() == '\n' || raw.back() == '\r'))
        raw.remove_suffix(1);
      const auto first = raw.find_first_not_of(" \t\f");
      if (first == std::string_view::npos)
        out += '\n';
      else if (raw[first] == '#')
        out.append(raw.substr(first)).push_back('\n');
    }
    return out;
  }

  /// The comment after the last token read on its line ("  # ..."), without a
  /// `# window_buffer=` comment this printer wrote there.
  std::string trailing_comment() const {
    if (peek().kind() != tok::newline && peek().kind() != tok::end)
      return {};
    const std::uint32_t to =
        std::min<std::uint32_t>(peek().begin, static_cast<std::uint32_t>(ts_.source.size()));
    if (last_end_ >= to)
      return {};
    std::string_view c = ts_.source.substr(last_end_, to - last_end_);
    const auto hash = c.find('#');
    if (hash == std::string_view::npos)
      return {};
    c.remove_prefix(hash);
    while (!c.empty() &&
           (c.back() == ' ' || c.back() == '\t' || c.back() == '\r' || c.back() == '\f'))
      c.remove_suffix(1);
    constexpr std::string_view ours = "# window_buffer=";
    if (c.starts_with(ours)) {
      std::size_t k = ours.size();
      if (k < c.size() && c[k] == '"') {
        for (++k; k < c.size() && c[k] != '"'; ++k)
          if (c[k] == '\\')
            ++k;
        ++k;
      } else {
        while (k < c.size() && c[k] != ' ' && c[k] != '\t' && c[k] != '#')
          ++k;
      }
      c = k < c.size() ? c.substr(k) : std::string_view{};
      const auto rest = c.find('#');
      if (rest == std::string_view::npos)
        return {};
      c.remove_prefix(rest);
    }
    return "  " + std::string(c);
  }

  /// A compound statement's header text (tokens [b, colon]), with its trailing comment:
  /// made before its body, which reads its own leading comments.
  statement_text header_text(std::uint32_t b, std::uint32_t colon) {
    return make_text(b, colon + 1, trailing_comment(), false);
  }

  void parse_statement() {
    const token& t = peek();
    if (t.kind() == tok::newline) {
      next();
      return;
    }
    trivia_ = leading_trivia(ts_.line_of(t.begin)); // up to the line it starts on
    parse_one_statement();
    trivia_.clear();
  }

  void parse_one_statement() {
    const token& t = peek();
    if (t.kind() == tok::name && t.flags() != 0) {
      if (t.is_keyword("for"))
        return ss_.push_back(parse_for());
      if (t.is_keyword("while"))
        return ss_.push_back(parse_while());
      if (t.is_keyword("if"))
        return ss_.push_back(parse_if());
      if (t.is_keyword("with"))
        return ss_.push_back(parse_with());
      if (t.is_keyword("try") || t.is_keyword("except") || t.is_keyword("finally") ||
          t.is_keyword("else") || t.is_keyword("async") ||
          ((t.is_keyword("match") || t.is_keyword("case")) && compound_soft_keyword()))
        return ss_.push_back(parse_block_statement());
      if (t.is_keyword("def") || t.is_keyword("class"))
        return ss_.push_back(parse_nested_definition());
    }
    if (is_op("@"))
      return ss_.push_back(parse_nested_definition());
    parse_simple_line();
  }

  bool compound_soft_keyword() const {
    std::size_t k = 1;
    while (peek(k).kind() != tok::newline && peek(k).kind() != tok::end)
      ++k;
    return k > 1 && peek(k - 1).kind() == tok::op && text(peek(k - 1)) == ":";
  }

  /// The end of a compound header: the index of its ':' (lambdas inside consume theirs).
  std::uint32_t header_end() const {
    int depth = 0, lambdas = 0;
    for (std::size_t k = i_;; ++k) {
      const token& x = t_[std::min(k, t_.size() - 1)];
      if (x.kind() == tok::newline || x.kind() == tok::end)
        fail_at(x.begin, "invalid syntax: expected ':'");
      if (depth == 0 && x.is_keyword("lambda"))
        ++lambdas;
      if (x.kind() != tok::op)
        continue;
      const std::uint8_t o = x.flags();
      if (const int step = bracket_nesting(o); step != 0)
        depth += step;
      else if (o == ':' && depth == 0) {
        if (lambdas > 0) {
          --lambdas;
          continue;
        }
        return static_cast<std::uint32_t>(k);
      }
    }
  }

  /// Reads every expression of tokens [i_, end) that parses as one, for the analysis
  /// (the header of a `try`, `except E as e`, `case`), and binds `as` names.
  void read_header_expressions(std::uint32_t end, gathered<expression_ptr>& values,
                               gathered<variable_ptr>& targets) {
    while (i_ < end) {
      const token& t = peek();
      if (t.is_keyword("as")) {
        next();
        if (peek().kind() == tok::name && !peek().is_reserved()) {
          auto* v = bind_new(text(next()));
          targets.push(v);
        }
        continue;
      }
      if (t.is_reserved() && !t.is_keyword("not") && !t.is_keyword("lambda") &&
          !t.is_keyword("await") && !t.is_keyword("None") && !t.is_keyword("True") &&
          !t.is_keyword("False")) {
        next();
        continue;
      }
      if (t.is_op(",") || t.is_op("*") || t.is_op("|")) {
        next();
        continue;
      }
      const expression_ptr e = parse_test();
      values.push(e);
    }
  }

  /// try/except/else/finally, match/case, async ..., a loop's else: a generic block.
  statement_ptr parse_block_statement() {
    statement_spec s;
    s.what = statement::kind::block;
    s.where = where(peek());
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    next(); // the keyword
    if (peek(0).kind() == tok::name &&
        (text(peek()) == "for" || text(peek()) == "with" || text(peek()) == "def") &&
        t_[b].is_keyword("async"))
      next();
    // `async for` repeats, `async with` runs once; the others may not run.
    const std::string_view keyword = text(t_[i_ - 1]);
    s.flow = keyword == "for"    ? commscope::control_flow::repeat
             : keyword == "with" ? commscope::control_flow::block
                                 : commscope::control_flow::may_skip;
    gathered<expression_ptr> values(xs_);
    gathered<variable_ptr> targets(vs_);
    read_header_expressions(colon, values, targets);
    i_ = colon;
    expect_op(":");
    const statement_text header = header_text(b, colon);
    const node_list<statement_ptr> body = parse_block();
    s.values = values.items();
    s.targets = targets.items();
    auto* st = w_.make(s);
    st->set_text(header.text);
    st->set_body(body);
    bind_block_targets(*st);
    return st;
  }

  /// A def or class inside a host orchestrator: kept as written.
  statement_ptr parse_nested_definition() {
    statement_spec s;
    s.what = statement::kind::verbatim;
    s.where = where(peek());
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    while (is_op("@")) { // decorators
      while (peek().kind() != tok::newline && peek().kind() != tok::end)
        next();
      next();
    }
    if (!is_name("def") && !is_name("class") && !is_name("async"))
      unexpected("'def' or 'class'");
    if (is_name("async"))
      next();
    next();
    variable_ptr target;
    if (peek().kind() == tok::name) {
      auto* v = bind_new(text(peek()));
      target = v;
    }
    i_ = header_end() + 1;
    if (peek().kind() != tok::newline) {
      while (peek().kind() != tok::newline && peek().kind() != tok::end)
        next();
      next();
    } else {
      next();
      int depth = 0;
      do {
        if (peek().kind() == tok::indent)
          ++depth;
        else if (peek().kind() == tok::dedent)
          --depth;
        next();
      } while (depth > 0 && peek().kind() != tok::end);
    }
    // The text ends at the last real token (not the NEWLINE/DEDENTs after it).
    std::uint32_t e = static_cast<std::uint32_t>(i_);
    while (e > b && (t_[e - 1].kind() == tok::newline || t_[e - 1].kind() == tok::dedent ||
                     t_[e - 1].kind() == tok::indent))
      --e;
    const statement_text t = make_text(b, e, {}, false);
    s.text = t.text;
    return opaque_binding(s, {},
                          target ? std::span<const variable_ptr>(&target, 1)
                                 : std::span<const variable_ptr>());
  }

  void parse_simple_line() {
    line_items_.clear();
    while (true) {
      const auto b = static_cast<std::uint32_t>(i_);
      statement* s = parse_simple();
      line_items_.push_back({s, b, static_cast<std::uint32_t>(i_)});
      ss_.push_back(s);
      if (!is_op(";"))
        break;
      next();
      if (peek().kind() == tok::newline || peek().kind() == tok::end)
        break;
    }
    const std::string comment = trailing_comment();
    for (std::size_t k = 0; k < line_items_.size(); ++k) {
      const auto& item = line_items_[k];
      const bool last = k + 1 == line_items_.size();
      const statement_text t = make_text(item.b, item.e, last ? comment : std::string_view(), true);
      item.s->set_text(t.text, t.comment_at);
    }
    expect_line_end();
  }

  statement* parse_simple() {
    statement_spec s;
    s.where = where(peek());
    const token& w = peek();
    if (w.is_keyword("pass")) {
      next();
      s.what = statement::kind::pass;
      return w_.make(s);
    }
    if (w.is_keyword("return")) {
      next();
      s.what = statement::kind::return_;
      gathered<expression_ptr> values(xs_);
      if (!at_line_end()) {
        bool bare = false;
        auto v = parse_expression_list(&bare, true);
        if (bare)
          for (const auto& a : v->args())
            values.push(a);
        else
          values.push(v);
      }
      s.values = values.items();
      return w_.make(s);
    }
    if (w.is_keyword("break") || w.is_keyword("continue") || w.is_keyword("global") ||
        w.is_keyword("nonlocal") || w.is_keyword("import") || w.is_keyword("from")) {
      s.what = statement::kind::verbatim;
      s.jump = w.is_keyword("break") || w.is_keyword("continue");
      while (!at_line_end())
        next();
      return w_.make(s);
    }
    if (w.is_keyword("del") || w.is_keyword("assert") || w.is_keyword("raise")) {
      next();
      s.what = statement::kind::verbatim;
      gathered<expression_ptr> values(xs_);
      while (!at_line_end()) {
        if (is_op(",") || is_name("from")) {
          next();
          continue;
        }
        const expression_ptr e = parse_test();
        values.push(e);
      }
      s.values = values.items();
      return w_.make(s);
    }
    if (w.is_keyword("type") && peek(1).kind() == tok::name && (is_op("=", 2) || is_op("[", 2))) {
      s.what = statement::kind::verbatim; // a type alias
      while (!at_line_end())
        next();
      return w_.make(s);
    }
    if (w.kind() == tok::name && !w.is_reserved() && is_op("=", 1) && single_target()) {
      // `NAME = value`, the common case: the target needs no node of its own.
      const std::string_view target = text(w);
      next();
      next();
      auto value = parse_value();
      return assign_name(s, target, value);
    }
    // An expression list, then '=' chains, an annotation, or an augmented operator.
    auto first = parse_expression_list(nullptr, true);
    if (is_op(":")) { // annotated: NAME: T [= value]
      next();
      (void)parse_test(); // the annotation: kept in the statement's text only
      if (!is_op("=")) {
        s.what = statement::kind::verbatim;
        const expression_ptr v[] = {first};
        s.values = v;
        return w_.make(s);
      }
      next();
      auto value = parse_value();
      const expression_ptr targets[] = {first};
      return assignment(s, targets, value);
    }
    if (peek().kind() == tok::op && is_augmented_code(peek().flags())) {
      next();
      auto value = parse_value();
      const expression_ptr v[] = {first, value};
      gathered<variable_ptr> targets(vs_);
      rebind_targets(*first, targets);
      return opaque_binding(s, v, targets.items());
    }
    if (!is_op("=")) {
      s.what = statement::kind::evaluate;
      s.value = first;
      if (first->what == expression::kind::string || is_docstring(*first)) {
        s.what = statement::kind::verbatim;
        const expression_ptr v[] = {first};
        s.values = v;
        s.value = nullptr;
        return w_.make(s);
      }
      return w_.make(s);
    }
    gathered<expression_ptr> targets(xs_);
    targets.push(first);
    mutable_expr value = nullptr;
    while (is_op("=")) {
      next();
      value = parse_value();
      if (is_op("="))
        targets.push(value);
    }
    return assignment(s, targets.items(), value);
  }

  /// Whether the simple statement at `NAME =` has no other '=' at bracket depth 0 (a
  /// chain `a = b = v`, or a lambda's default, which the general path reads).
  bool single_target() const {
    int depth = 0;
    for (std::size_t k = i_ + 2; k < t_.size(); ++k) {
      const token& x = t_[k];
      if (x.kind() == tok::newline || x.kind() == tok::end)
        return true;
      if (x.kind() != tok::op)
        continue;
      const std::uint8_t o = x.flags();
      if (const int step = bracket_nesting(o); step != 0)
        depth += step;
      else if (depth == 0 && (o == '=' || o == ';'))
        return o == ';';
    }
    return true;
  }

  static bool is_docstring(const expression& e) {
    if (e.what != expression::kind::opaque)
      return false;
    const std::string_view t = e.text();
    return !t.empty() &&
           (t[0] == '"' || t[0] == '\'' ||
            ((t[0] | 0x20) >= 'a' && (t[0] | 0x20) <= 'z' && t.find_first_of("\"'") < 3));
  }

  static bool is_augmented(std::string_view o) {
    return o.size() >= 2 && o.back() == '=' && o != "==" && o != "!=" && o != "<=" && o != ">=" &&
           o != ":=";
  }

  mutable_expr parse_value() {
    if (is_name("yield"))
      return parse_yield();
    return parse_expression_list(nullptr, true);
  }

  /// Names that targets such as `a, (b, *c)` rebind: fresh opaque variables.
  void rebind_targets(const expression& target, gathered<variable_ptr>& out) {
    std::vector<const expression*> stack{&target};
    while (!stack.empty()) {
      const expression* e = stack.back();
      stack.pop_back();
      if (e->what == expression::kind::name ||
          (e->what == expression::kind::integer && !e->name().empty())) {
        const std::string_view n = e->var()                            ? e->var()->name.view()
                                   : e->what == expression::kind::name ? e->text().view()
                                                                       : e->name().view();
        if (n.empty())
          continue;
        auto* v = bind_new(n);
        out.push(v);
      } else if (e->what == expression::kind::tuple || e->what == expression::kind::list ||
                 (e->what == expression::kind::opaque && e->text().starts_with("*"))) {
        const auto args = e->args();
        for (auto it = args.rbegin(); it != args.rend(); ++it)
          stack.push_back(it->get());
      }
    }
  }

  /// `targets = value` (chains `a = b = v` too).
  statement* assignment(statement_spec& s, std::span<const expression_ptr> gathered_targets,
                        mutable_expr value) {
    // (a copy: the targets may sit on the scratch stack this function pushes to)
    const std::vector<expression_ptr> targets(gathered_targets.begin(), gathered_targets.end());
    // A DSL assignment: one chain of plain names (a, b = v included).
    std::vector<std::string_view> names;
    bool plain = targets.size() == 1;
    if (plain) {
      const expression& t = *targets[0];
      auto add = [&](const expression& n) {
        if (n.what == expression::kind::name && (n.var() || !n.text().empty())) {
          names.push_back(n.var() ? n.var()->name.view() : n.text().view());
          return true;
        }
        if (n.what == expression::kind::integer && !n.name().empty()) { // a resolved constant
          names.push_back(n.name());
          return true;
        }
        return false;
      };
      if (t.what == expression::kind::tuple && !t.args().empty()) {
        for (const auto& a : t.args())
          plain = plain && add(*a);
      } else {
        plain = add(t);
      }
    }
    if (!plain) {
      gathered<expression_ptr> values(xs_);
      values.push(value);
      for (const auto& t : targets)
        if (t->what != expression::kind::name)
          values.push(t); // subscripts and attributes read their operands
      gathered<variable_ptr> rebound(vs_);
      for (const auto& t : targets)
        rebind_targets(*t, rebound);
      return opaque_binding(s, values.items(), rebound.items());
    }
    return assign_names(s, names, value);
  }

  /// A statement that reads `reads` and rebinds `targets` to something the pass does not
  /// follow (`x += e`, `a[i], b = v`, a nested def): an assignment of an opaque value made
  /// of what it reads, so that the analysis sees the targets rebound (it prints as
  /// written). One that rebinds nothing is verbatim.
  statement* opaque_binding(statement_spec& s, std::span<const expression_ptr> reads,
                            std::span<const variable_ptr> targets) {
    if (targets.empty()) {
      s.what = statement::kind::verbatim;
      s.values = reads;
      return w_.make(s);
    }
    s.what = statement::kind::assign;
    s.value = opaque_of(s.where, reads);
    s.targets = targets;
    return w_.make(s);
  }
  expression_ptr opaque_of(source_location at, std::span<const expression_ptr> reads) {
    expression_spec e;
    e.what = expression::kind::opaque;
    e.where = at;
    e.args = reads;
    return w_.make(e);
  }
  /// The assignment that binds a block's targets as its body begins (ir.hpp).
  void bind_block_targets(statement& block) {
    if (block.targets().empty())
      return;
    statement_spec b;
    b.what = statement::kind::assign;
    b.where = block.where;
    b.targets = block.targets();
    b.value = opaque_of(block.where, {});
    block.set_binding(w_.make(b));
  }

  statement* assign_name(statement_spec& s, std::string_view target, mutable_expr value) {
    const std::string_view names[] = {target};
    return assign_names(s, names, value);
  }

  /// `names = value`, each name bound to a fresh variable (an allocation's, a view's,
  /// a copy of a pointer's gets what the analysis reads of it).
  statement* assign_names(statement_spec& s, std::span<const std::string_view> names,
                          mutable_expr value) {
    s.what = statement::kind::assign;
    expression& e = *value;
    gathered<variable_ptr> vars(vs_);
    const bool single = names.size() == 1;
    for (auto n : names)
      vars.push(single ? bind_new(n) : new_variable(n));
    auto var0 = [&] { return const_cast<variable*>(vars.items()[0].get()); }; // made here
    if (e.what == expression::kind::operation &&
        e.op == commscope::operation::alloc_window_buffer && vars.size() == 1) {
      if (!has_name_keyword(e))
        e.set_name(var0()->name);
      bind_slot(*var0(), e);
    } else if (e.what == expression::kind::operation && e.op == commscope::operation::window &&
               vars.size() == 1) {
      type ty;
      const auto args = e.args();
      if (args.size() > 1)
        ty.shape = args[1];
      for (const auto& kw : e.keywords())
        if (kw.name == "dtype")
          ty.dtype = kw.value;
      if (!ty.dtype && args.size() > 2)
        ty.dtype = args[2];
      if (!args.empty())
        ty.window = window_of(*args[0]);
      var0()->var_type = w_.make_node(ty);
    } else if (e.what == expression::kind::name && e.var() && vars.size() == 1) {
      if (auto w = window_of(e)) // a plain copy of an allocation's pointer
        windows_[var0()->id] = w;
    }
    if (!single)
      for (const auto& v : vars.items())
        bind(v.get());
    s.parallel = !single && is_tuple_of(e, names.size());
    s.targets = vars.items();
    s.value = value;
    return w_.make(s);
  }

  /// `n` expressions, none starred: each is one value.
  static bool are_values(node_span<expression_ptr> items, std::size_t n) {
    if (items.size() != n)
      return false;
    for (const auto& a : items)
      if (a->what == expression::kind::opaque && a->text().starts_with("*"))
        return false;
    return true;
  }
  /// A tuple or list of `n` values.
  static bool is_tuple_of(const expression& e, std::size_t n) {
    return (e.what == expression::kind::tuple || e.what == expression::kind::list) &&
           are_values(e.args(), n);
  }

  static bool has_name_keyword(const expression& e) {
    for (const auto& k : e.keywords())
      if (k.name == "name" && k.value->what == expression::kind::string)
        return true;
    return false;
  }

  window_buffer_ptr window_of(const expression& e) const {
    if (e.what != expression::kind::name || !e.var())
      return nullptr;
    auto it = windows_.find(e.var()->id);
    return it == windows_.end() ? nullptr : it->second;
  }

  /// An allocation inside `with pld.comm_domain(..., slots=[NAME])` is that slot.
  void bind_slot(const variable& v, const expression& alloc) {
    if (alloc.args().size() != 1)
      return;
    window_buffer* w = nullptr;
    const std::string_view name = alloc.name();
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      for (std::size_t i = 0; i < it->names.size(); ++i) {
        if (it->names[i] != name || it->found[i])
          continue;
        if (!w) {
          w = w_.make_node(window_buffer{&v, alloc.args()[0], false, false, alloc.name()});
          windows_[v.id] = w;
        }
        it->found[i] = w;
        break;
      }
    }
  }

  statement_ptr parse_for() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    statement_spec s;
    s.where = where(next());
    // The target list up to `in` at depth 0.
    std::uint32_t in = static_cast<std::uint32_t>(i_);
    for (int depth = 0; in < colon; ++in) {
      const token& x = t_[in];
      if (x.is_op("(") || x.is_op("["))
        ++depth;
      else if (x.is_op(")") || x.is_op("]"))
        --depth;
      else if (depth == 0 && x.is_keyword("in"))
        break;
    }
    std::vector<std::string_view> target_names;
    for (std::uint32_t k = static_cast<std::uint32_t>(i_); k < in; ++k)
      if (t_[k].kind() == tok::name && !t_[k].is_reserved() && !(k > i_ && t_[k - 1].is_op(".")))
        target_names.push_back(text(t_[k]));
    const bool simple_target =
        in == i_ + 1 || (t_[i_].kind() == tok::name && t_[i_ + 1].is_op(","));
    i_ = in + 1;
    const token& iter_tok = peek();
    auto iter = parse_expression_list(nullptr, true);
    if (i_ != colon)
      unexpected("':'");
    next();
    const statement_text header = header_text(b, colon);
    s.text = header.text;
    const expression& call = *iter;
    const std::string callee =
        call.what == expression::kind::call && call.base() ? spelling(*call.base()) : std::string();
    bool keywords_ok = true;
    for (const auto& k : call.keywords())
      keywords_ok = keywords_ok && callee == "pl.range" && k.name == "init_values";
    const auto args = call.args();
    const bool range = (callee == "pl.range" || callee == "range") && !args.empty() &&
                       args.size() <= 3 && keywords_ok && simple_target && !target_names.empty();
    gathered<variable_ptr> targets(vs_);
    if (!range) {
      // Any other iteration: a block whose targets are opaque, run zero or more times.
      s.what = statement::kind::block;
      s.flow = commscope::control_flow::repeat;
      for (auto n : target_names) {
        auto* v = bind_new(n);
        targets.push(v);
      }
      const node_list<statement_ptr> body = parse_block();
      const expression_ptr values[] = {iter};
      s.values = values;
      s.targets = targets.items();
      auto* st = w_.make(s);
      st->set_body(body);
      bind_block_targets(*st);
      return st;
    }
    s.what = statement::kind::for_loop;
    s.builtin_range = callee == "range";
    s.range_arity = static_cast<std::uint8_t>(args.size());
    const source_location iter_at = where(iter_tok);
    auto constant = [&](std::int64_t v) {
      expression_spec c;
      c.what = expression::kind::integer;
      c.value = v;
      c.where = iter_at;
      return expression_ptr(w_.make(c));
    };
    if (args.size() == 1) {
      s.start = constant(0);
      s.stop = args[0];
    } else {
      s.start = args[0];
      s.stop = args[1];
    }
    s.step = args.size() == 3 ? args[2] : constant(1);
    auto* v = bind_new(target_names[0]);
    s.loop_var = v;
    loop_of_[v] = {s.start, s.stop, s.step};
    for (std::size_t k = 1; k < target_names.size(); ++k) { // loop-carried values
      auto* c = bind_new(target_names[k]);
      targets.push(c);
    }
    const std::size_t carried = target_names.size() - 1;
    for (const auto& k : call.keywords()) // their values on entry
      if (k.name == "init_values" && is_tuple_of(*k.value, carried))
        s.values = k.value->args();
    const node_list<statement_ptr> body = parse_block();
    s.targets = targets.items();
    auto* st = w_.make(s);
    st->set_body(body);
    if (carried > 0 && !body.empty())
      yield_as_assignment(body, st->targets());
    return st;
  }

  /// A loop body's closing `pl.yield_(e, ...)` binds the loop-carried targets for the
  /// next iteration: it becomes an assignment of them, each to its own argument (printed
  /// as written all the same).
  void yield_as_assignment(const node_list<statement_ptr>& body, node_span<variable_ptr> carried) {
    const statement& last = *body.back();
    const expression_ptr call = last.value();
    if (last.what != statement::kind::evaluate || !call || call->what != expression::kind::call ||
        !call->base() || spelling(*call->base()) != "pl.yield_" || !call->keywords().empty() ||
        !are_values(call->args(), carried.size()))
      return;
    std::vector<variable_ptr> targets;
    for (const auto& c : carried)
      targets.push_back(w_.make_binding(next_id_++, *c));
    statement_spec y;
    y.what = statement::kind::assign;
    y.where = last.where;
    y.text = last.text();
    y.comment_at = last.comment_at();
    y.value = call;
    y.targets = targets;
    y.parallel = true;
    body.mutable_data()[body.size() - 1] = w_.make(y);
  }

  statement_ptr parse_while() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    statement_spec s;
    s.what = statement::kind::while_loop;
    s.where = where(next());
    s.value = parse_named();
    expect_op(":");
    s.text = header_text(b, colon).text;
    const node_list<statement_ptr> body = parse_block();
    auto* st = w_.make(s);
    st->set_body(body);
    return st;
  }

  statement_ptr parse_if() {
    struct branch {
      source_location where;
      str text;
      expression_ptr value;
      node_list<statement_ptr> body;
    };
    std::vector<branch> chain;
    while (true) {
      const std::uint32_t b = static_cast<std::uint32_t>(i_);
      const std::uint32_t colon = header_end();
      branch br;
      br.where = where(next());
      br.value = parse_named();
      expect_op(":");
      br.text = header_text(b, colon).text;
      br.body = parse_block();
      chain.push_back(br);
      if (!is_name("elif"))
        break;
    }
    node_list<statement_ptr> orelse;
    if (is_name("else")) {
      next();
      expect_op(":");
      orelse = parse_block();
    }
    // Linked back to front: an elif chain of any length is built without recursion.
    statement* made = nullptr;
    for (std::size_t i = chain.size(); i-- > 0;) {
      statement_spec s;
      s.what = statement::kind::if_else;
      s.is_elif = i > 0;
      s.where = chain[i].where;
      s.text = chain[i].text;
      s.value = chain[i].value;
      auto* st = w_.make(s);
      st->set_body(chain[i].body);
      if (made) {
        const statement_ptr only[] = {made};
        st->set_orelse(w_.list(std::span<const statement_ptr>(only)));
      } else {
        st->set_orelse(orelse);
      }
      made = st;
    }
    return made;
  }

  struct open_scope {
    std::vector<std::string> names;
    std::vector<window_buffer_ptr> found;
  };

  void front_end_error(source_location at, std::string message) {
    unit_->diagnostics.push_back({"malformed-op", std::move(message), at});
  }

  /// `with pld.comm_domain(...)` is a scope; any other `with` a block read as inline.
  statement_ptr parse_with() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    const source_location at = where(next());
    const std::uint32_t items = static_cast<std::uint32_t>(i_);
    const bool one_call = peek().kind() == tok::name;
    mutable_expr first = nullptr;
    if (one_call && !is_op("(")) {
      first = parse_test();
    }
    if (first && i_ == colon && first->what == expression::kind::call && first->base() &&
        spelling(*first->base()) == "pld.comm_domain") {
      if (auto scope = comm_domain(*first, at)) {
        next();
        trivia_.clear(); // scopes print canonically
        scopes_.push_back(std::move(*scope));
        const node_list<statement_ptr> body = parse_block();
        open_scope done = std::move(scopes_.back());
        scopes_.pop_back();
        std::vector<window_buffer_ptr> slots;
        for (std::size_t i = 0; i < done.names.size(); ++i) {
          if (!done.found[i]) {
            front_end_error(at, "slot '" + done.names[i] +
                                    "' names no allocation in this pld.comm_domain");
            continue;
          }
          slots.push_back(done.found[i]);
        }
        const auto& e = *first;
        bool all = true;
        std::vector<std::int64_t> devices;
        for (const auto& k : e.keywords())
          if (k.name == "devices" && k.value->what == expression::kind::list) {
            all = false;
            for (const auto& d : k.value->args())
              devices.push_back(d->value());
          }
        statement_spec s;
        s.what = statement::kind::scope;
        s.where = at;
        auto* st = w_.make(s);
        st->set_scope(e.args()[0]->text(), w_.list(devices), all, w_.list(slots));
        st->set_body(body);
        return st;
      }
    }
    // Any other with: its items are read for the analysis, its body as if inline.
    i_ = items;
    statement_spec s;
    s.what = statement::kind::block;
    s.flow = commscope::control_flow::block;
    s.where = at;
    gathered<expression_ptr> values(xs_);
    gathered<variable_ptr> targets(vs_);
    read_header_expressions(colon, values, targets);
    i_ = colon;
    expect_op(":");
    s.text = header_text(b, colon).text;
    const node_list<statement_ptr> body = parse_block();
    s.values = values.items();
    s.targets = targets.items();
    auto* st = w_.make(s);
    st->set_body(body);
    bind_block_targets(*st);
    return st;
  }

  /// The slots of a well-formed `pld.comm_domain("NAME", devices=..., slots=[...])`;
  /// nullopt (after a diagnostic) for a malformed one, which is then an ordinary block.
  std::optional<open_scope> comm_domain(const expression& e, source_location at) {
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
          if (d->what != expression::kind::integer || d->overflow()) {
            front_end_error(at, "a device of pld.comm_domain must be an integer");
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

  // ---- expressions
  mutable_expr leaf(expression::kind k, source_location at) {
    expression_spec s;
    s.what = k;
    s.where = at;
    return w_.make(s);
  }
  /// An opaque node spanning tokens from `b` to the last one consumed.
  mutable_expr opaque(std::uint32_t b, std::span<const expression_ptr> operands) {
    expression_spec s;
    s.what = expression::kind::opaque;
    s.where = where(t_[b]);
    s.text = w_.string(ts_.source.substr(t_[b].begin, last_end_ - t_[b].begin));
    s.args = operands;
    return w_.make(s);
  }
  mutable_expr opaque(std::uint32_t b, std::initializer_list<expression_ptr> operands) {
    return opaque(b, std::span<const expression_ptr>(operands.begin(), operands.size()));
  }
  mutable_expr binary(const expression_ptr& l, std::string_view op, const expression_ptr& r) {
    const expression_ptr args[] = {l, r};
    expression_spec s;
    s.what = expression::kind::binary;
    s.where = l->where;
    s.text = w_.intern(op);
    s.args = args;
    return w_.make(s);
  }

  /// EXPR or EXPR, EXPR, ... (a tuple without parentheses); *bare tells which.
  mutable_expr parse_expression_list(bool* bare, bool starred) {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    auto first = starred ? parse_star_or_named() : parse_named();
    if (!is_op(","))
      return first;
    gathered<expression_ptr> items(xs_);
    items.push(first);
    while (is_op(",")) {
      next();
      if (at_line_end() || is_op("=") || is_op(":") || is_op(")") || is_name("in") ||
          (peek().kind() == tok::op && is_augmented_code(peek().flags())))
        break;
      const expression_ptr x = starred ? parse_star_or_named() : parse_named();
      items.push(x);
    }
    if (bare)
      *bare = true;
    expression_spec s;
    s.what = expression::kind::tuple;
    s.where = where(t_[b]);
    s.args = items.items();
    return w_.make(s);
  }

  mutable_expr parse_star_or_named() {
    if (is_op("*")) {
      const std::uint32_t b = static_cast<std::uint32_t>(i_);
      next();
      auto x = parse_or();
      return opaque(b, {x});
    }
    return parse_named();
  }

  /// NAME := test, or test.
  mutable_expr parse_named() {
    if (peek().kind() == tok::name && is_op(":=", 1)) {
      const std::uint32_t b = static_cast<std::uint32_t>(i_);
      const std::string_view n = text(next());
      next();
      auto value = parse_test();
      // A binding inside an expression, which no statement presents to the analysis:
      // uses after it see the bindings before it.
      (void)bind_new(n);
      return opaque(b, {value});
    }
    return parse_test();
  }

  mutable_expr parse_yield() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    next();
    if (is_name("from")) {
      next();
      auto x = parse_test();
      return opaque(b, {x});
    }
    if (!at_line_end() && !is_op(")") && !is_op("=")) {
      auto x = parse_expression_list(nullptr, true);
      return opaque(b, {x});
    }
    return opaque(b, {});
  }

  mutable_expr parse_test() {
    nest guard(*this, peek().begin);
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    if (is_name("lambda"))
      return parse_lambda();
    auto x = parse_or();
    if (is_name("if") && !no_conditional_) {
      next();
      auto cond = parse_or();
      if (!is_name("else"))
        unexpected("'else'");
      next();
      auto other = parse_test();
      return opaque(b, {x, cond, other});
    }
    return x;
  }

  mutable_expr parse_lambda() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    next();
    const std::size_t shadowed = shadow_.size();
    int depth = 0;
    gathered<expression_ptr> ops(xs_);
    while (!(depth == 0 && is_op(":"))) {
      if (peek().kind() == tok::newline || peek().kind() == tok::end)
        unexpected("':'");
      if (is_op("(") || is_op("[") || is_op("{"))
        ++depth;
      else if (is_op(")") || is_op("]") || is_op("}"))
        --depth;
      if (peek().kind() == tok::name && depth == 0 && !is_op("=", 1) && !peek().is_reserved())
        shadow_.push_back(text(peek()));
      if (is_op("=") && depth == 0) {
        next();
        const expression_ptr d = parse_test();
        ops.push(d);
        continue;
      }
      next();
    }
    next();
    const expression_ptr body = parse_test();
    ops.push(body);
    shadow_.resize(shadowed);
    return opaque(b, ops.items());
  }

  /// The level of the binary operator at peek(k) (0: none), from loosest to tightest:
  /// or 1, and 2, (not 3, a prefix), comparisons 4, | ^ & << >> 5, + - 6, * / // % @ 7.
  int binary_level(std::size_t k = 0) const {
    const token& t = peek(k);
    if (t.kind() == tok::op) {
      switch (t.flags()) {
      case '|':
      case '^':
      case '&':
        return 5;
      case '+':
      case '-':
        return 6;
      case '*':
      case '/':
      case '%':
      case '@':
        return 7;
      case '<':
      case '>':
        return 4;
      default:
        break;
      }
      if (t.is_op("<<") || t.is_op(">>"))
        return 5;
      if (t.is_op("//"))
        return 7;
      if (t.is_op("==") || t.is_op("!=") || t.is_op("<=") || t.is_op(">="))
        return 4;
      return 0;
    }
    if (t.kind() == tok::name && t.flags() != 0) {
      if (t.is_keyword("or"))
        return 1;
      if (t.is_keyword("and"))
        return 2;
      if (t.is_keyword("in") || t.is_keyword("is") || (t.is_keyword("not") && is_name("in", k + 1)))
        return 4;
    }
    return 0;
  }

  /// The operators of levels `min_level` and up, left-associative (precedence climbing):
  /// `or` and `and` and comparisons and + - * / // % are binary nodes; `in`, `is`, the
  /// bitwise operators and `@` are opaque, their operands still read.
  mutable_expr parse_binary(int min_level) {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    mutable_expr l = min_level <= 3 && is_name("not") ? parse_not() : parse_factor();
    while (true) {
      const int level = binary_level();
      if (level == 0 || level < min_level)
        return l;
      switch (level) {
      case 1: {
        next();
        auto r = parse_binary(2);
        l = binary(l, "or", r);
        break;
      }
      case 2: {
        next();
        auto r = parse_binary(3);
        l = binary(l, "and", r);
        break;
      }
      case 4: {
        const token& t = peek();
        if (t.kind() == tok::op) {
          const std::string_view o = text(t);
          next();
          auto r = parse_binary(5);
          l = binary(l, o, r);
        } else {
          const bool is = t.is_keyword("is"), not_in = t.is_keyword("not");
          next();
          if ((is && is_name("not")) || not_in)
            next();
          auto r = parse_binary(5);
          l = opaque(b, {l, r});
        }
        break;
      }
      case 5: {
        next();
        auto r = parse_binary(6);
        l = opaque(b, {l, r});
        break;
      }
      case 6: {
        const std::string_view op = text(next());
        auto r = parse_binary(7);
        l = binary(l, op, r);
        break;
      }
      default: {
        const std::string_view op = text(next());
        auto r = parse_factor();
        l = op == "@" ? opaque(b, {l, r}) : binary(l, op, r);
        break;
      }
      }
    }
  }
  mutable_expr parse_or() { return parse_binary(1); }
  /// `not` x, x at the level of comparisons and up.
  mutable_expr parse_not() {
    const token& t = next();
    nest guard(*this, t.begin);
    const expression_ptr x = parse_binary(3);
    expression_spec s;
    s.what = expression::kind::unary;
    s.where = where(t);
    s.text = w_.intern("not");
    s.args = {&x, 1};
    return w_.make(s);
  }
  mutable_expr parse_factor() {
    if (!is_op("-") && !is_op("+") && !is_op("~"))
      return parse_power();
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const token& t = next();
    const std::string_view op = text(t);
    nest guard(*this, t.begin);
    mutable_expr x = parse_factor();
    if (op == "+")
      return x; // unary plus is the identity on everything the pass reads
    if (op == "~")
      return opaque(b, {x});
    expression& v = *x;
    if (v.what == expression::kind::integer && v.name().empty()) {
      // Fold a negated literal, so `device=-1` is the constant -1. (A literal node is
      // this parse's own: nothing else points at it yet.)
      if (!v.overflow() && v.value() != std::numeric_limits<std::int64_t>::min()) {
        v.set_value(-v.value());
        v.where = where(t);
        return x;
      }
      if (v.overflow() && v.text() == "9223372036854775808") { // exactly INT64_MIN
        v.set_overflow(false);
        v.set_text({});
        v.set_value(std::numeric_limits<std::int64_t>::min());
        v.where = where(t);
        return x;
      }
      if (v.overflow()) {
        v.set_value(std::numeric_limits<std::int64_t>::min()); // saturated: still negative
        v.set_text(w_.string("-" + std::string(v.text().view())));
        v.where = where(t);
        return x;
      }
    }
    const expression_ptr arg = x;
    expression_spec s;
    s.what = expression::kind::unary;
    s.where = where(t);
    s.text = w_.intern("-");
    s.args = {&arg, 1};
    return w_.make(s);
  }
  mutable_expr parse_power() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    if (is_name("await")) {
      next();
      auto x = parse_power();
      return opaque(b, {x});
    }
    mutable_expr x = parse_primary();
    if (is_op("**")) {
      const token& t = next();
      nest guard(*this, t.begin);
      auto r = parse_factor();
      return opaque(b, {x, r});
    }
    return x;
  }

  // ---- dotted names
  /// `NAME(.NAME)*` read from its tokens, not yet made into nodes.
  struct dotted {
    std::uint32_t root = 0;  ///< token index of NAME
    std::uint32_t attrs = 0; ///< how many `.NAME` follow
    [[nodiscard]] std::uint32_t attribute(std::uint32_t k) const { return root + 2 + 2 * k; }
  };
  /// How a name resolves: a variable of the body, a constant of the file, or open.
  struct resolved_name {
    const variable* var = nullptr;
    bool constant = false;
    std::int64_t value = 0;
  };
  resolved_name resolve(std::string_view n) {
    resolved_name r;
    const bool shadowed =
        !shadow_.empty() && std::find(shadow_.begin(), shadow_.end(), n) != shadow_.end();
    if (shadowed)
      return r;
    const std::uint64_t h = hash_name(n);
    if (const variable* v = names_.find(n, h)) {
      r.var = v;
      return r;
    }
    if (resolving_) {
      if (auto c = constant(n, h)) {
        r.constant = true;
        r.value = *c;
      }
    }
    return r;
  }
  /// A constant of the file seen from this function (cached per function); `h` is
  /// hash_name(n).
  std::optional<std::int64_t> constant(std::string_view n, std::uint64_t h) {
    if (const open_name* seen = constants_seen_.find(n, h))
      return seen->value;
    auto v = consts_.resolve(n, scope_);
    open_names_.push_back({n, v});
    constants_seen_.put(&open_names_.back());
    return v;
  }
  /// A name node for token `t`.
  mutable_expr name_node(const token& t, const resolved_name& r) {
    if (r.var)
      return w_.make_use(where(t), r.var);
    const std::string_view n = text(t);
    expression_spec s;
    s.where = where(t);
    if (r.constant) {
      s.what = expression::kind::integer;
      s.value = r.value;
      s.name = w_.intern(n); // printed as its value where it is a size
    } else {
      s.what = expression::kind::name;
      s.text = w_.intern(n);
    }
    return w_.make(s);
  }
  /// The nodes of a dotted name (attributes located where it starts).
  mutable_expr materialize(const dotted& d, const resolved_name& root) {
    mutable_expr x = name_node(t_[d.root], root);
    if (d.attrs == 0) // most dotted names are plain names
      return x;
    const source_location at = where(t_[d.root]);
    for (std::uint32_t k = 0; k < d.attrs; ++k) {
      expression_spec s;
      s.what = expression::kind::attribute;
      s.where = at;
      s.base = x;
      s.text = w_.intern(text(t_[d.attribute(k)]));
      x = w_.make(s);
    }
    return x;
  }
  /// The spelling of attributes [0, n) of a dotted name over an open root, as written.
  std::string_view raw_spelling(const dotted& d, std::uint32_t n) {
    spelled_.assign(text(t_[d.root]));
    for (std::uint32_t k = 0; k < n; ++k) {
      spelled_ += '.';
      spelled_ += text(t_[d.attribute(k)]);
    }
    return spelled_;
  }

  mutable_expr parse_primary() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    mutable_expr x = nullptr;
    const token& first = peek();
    if (first.kind() == tok::name && !first.is_reserved()) {
      // A dotted name: a call of it decides whether its nodes are needed.
      next();
      dotted d{b, 0};
      while (is_op(".") && peek(1).kind() == tok::name) {
        next();
        next();
        ++d.attrs;
      }
      const resolved_name root = resolve(text(first));
      if (is_op("(")) {
        nest guard(*this, peek().begin);
        next();
        x = make_call(b, nullptr, &d, root);
      } else {
        x = materialize(d, root);
      }
    } else {
      x = parse_atom();
    }
    while (true) {
      if (is_op(".")) {
        next();
        if (peek().kind() != tok::name)
          unexpected("an attribute name");
        const token& an = next();
        expression_spec s;
        s.what = expression::kind::attribute;
        s.where = where(t_[b]);
        s.text = w_.intern(text(an));
        s.base = x;
        x = w_.make(s);
      } else if (is_op("(")) {
        nest guard(*this, peek().begin);
        next();
        x = make_call(b, x, nullptr, {});
      } else if (is_op("[")) {
        nest guard(*this, peek().begin);
        next();
        gathered<expression_ptr> items(xs_);
        while (!is_op("]")) {
          const expression_ptr e = parse_slice();
          items.push(e);
          if (!is_op(","))
            break;
          next();
        }
        expect_op("]");
        expression_spec s;
        s.what = expression::kind::subscript;
        s.where = where(t_[b]);
        s.base = x;
        s.args = items.items();
        x = w_.make(s);
      } else {
        return x;
      }
    }
  }

  mutable_expr parse_slice() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    gathered<expression_ptr> parts(xs_);
    mutable_expr single = nullptr;
    bool slice = false;
    if (!is_op(":")) {
      single = parse_star_or_named();
      parts.push(single);
    }
    while (is_op(":")) {
      slice = true;
      next();
      if (!is_op(":") && !is_op("]") && !is_op(",")) {
        const expression_ptr e = parse_test();
        parts.push(e);
      }
    }
    if (!slice)
      return single;
    return opaque(b, parts.items());
  }

  /// f(args): a recognised operation, a function of the program, or any call. The
  /// callee is `callee`, or the dotted name `d` (with its root resolved as `root`).
  mutable_expr make_call(std::uint32_t b, mutable_expr callee, const dotted* d,
                         const resolved_name& root) {
    gathered<expression_ptr> args(xs_);
    gathered<keyword_argument> keywords(ks_);
    bool unpacking = false;
    while (!is_op(")")) {
      if (peek().kind() == tok::name && is_op("=", 1) && !peek().is_reserved()) {
        const str kn = w_.intern(text(next()));
        next();
        const expression_ptr v = parse_test();
        keywords.push({kn, v});
      } else if (is_op("**")) {
        const std::uint32_t sb = static_cast<std::uint32_t>(i_);
        next();
        auto v = parse_test();
        const expression_ptr o = opaque(sb, {v});
        args.push(o);
        unpacking = true;
      } else {
        if (!keywords.empty() && !is_op("*"))
          fail_at(peek().begin, "positional argument follows keyword argument");
        mutable_expr v = parse_star_or_named();
        if (v->what == expression::kind::opaque && v->text().starts_with("*"))
          unpacking = true;
        if (is_name("for") || is_name("async")) // f(x for x in y)
          v = comprehension(b, v);
        args.push(v);
      }
      if (!is_op(","))
        break;
      next();
    }
    expect_op(")");

    // What the callee is: a dotted name over an open root reads from its tokens.
    const bool open_dotted = d && !root.var && !root.constant;
    const bool open_root =
        open_dotted || (callee && callee->what == expression::kind::name && !callee->var());
    std::string_view last;     // the callee's last attribute (or its name)
    bool is_attribute = false; // the callee is NAME.NAME...
    bool base_is_open_self = false;
    if (d && d->attrs > 0) {
      is_attribute = true;
      last = text(t_[d->attribute(d->attrs - 1)]);
      base_is_open_self = d->attrs == 1 && open_dotted && text(t_[d->root]) == "self";
    } else if (d) {
      last = text(t_[d->root]);
    } else if (callee->what == expression::kind::attribute) {
      is_attribute = true;
      last = callee->text();
      const expression_ptr base = callee->base();
      base_is_open_self =
          base && base->what == expression::kind::name && !base->var() && base->text() == "self";
    } else if (callee->what == expression::kind::name) {
      last = callee->text();
    }
    const auto callee_node = [&]() -> mutable_expr {
      return callee ? callee : materialize(*d, root);
    };
    const auto base_spelling = [&]() -> std::string {
      // the spelling of the attribute's object
      if (d)
        return open_dotted ? scan_.names.canonical(raw_spelling(*d, d->attrs - 1)) : std::string();
      return spelling(*callee->base());
    };
    const auto callee_spelling = [&]() -> std::string_view {
      if (d) {
        canonical_.clear();
        if (open_dotted)
          scan_.names.canonical_into(raw_spelling(*d, d->attrs), canonical_);
        return canonical_;
      }
      canonical_ = spelling(*callee);
      return canonical_;
    };

    // pl.<DTYPE>.get_byte() folds to the byte width.
    if (is_attribute && last == "get_byte" && args.empty() && keywords.empty()) {
      const std::string sp = base_spelling();
      if (sp.starts_with("pl.") && sp.find('.', 3) == std::string::npos)
        if (auto width = dtype_byte_width(std::string_view(sp).substr(3))) {
          expression_spec k;
          k.what = expression::kind::integer;
          k.where = where(t_[b]);
          k.value = width;
          return w_.make(k);
        }
    }
    expression_spec s;
    s.where = where(t_[b]);
    s.args = args.items();
    s.keywords = keywords.items();
    // self.NAME(...) of a function of the program, or with device= (cli.md: a device=
    // call of anything else is malformed-op); a call of any other method is opaque.
    const bool method_call = !unpacking && !jit_ && is_attribute && base_is_open_self;
    const bool jit_call = !unpacking && jit_ && !is_attribute && open_root && !last.empty();
    if ((method_call || jit_call) &&
        (signatures_.find(last) || has_device_keyword(keywords.items()))) {
      s.what = expression::kind::function_call;
      s.text = w_.intern(last);
      auto* e = w_.make(s);
      pending_calls_.emplace_back(e, s.text.view());
      note_open_device_names(*e);
      return e;
    }
    const std::string_view sp = names_an_operation(last) ? callee_spelling() : std::string_view();
    if (const auto op = operation_of_spelling(sp); op != commscope::operation::none && !unpacking) {
      s.what = expression::kind::operation;
      s.op = op;
      s.text = w_.intern(d ? raw_spelling(*d, d->attrs) : std::string_view(raw_spelling(*callee)));
      if (op == commscope::operation::alloc_window_buffer) {
        s.name = w_.intern(sp);
        for (const auto& k : keywords.items())
          if (k.name == "name" && k.value->what == expression::kind::string)
            s.name = k.value->text();
        auto* e = w_.make(s);
        shape_allocation(*e); // reported when it fails; an ordinary call from then on
        return e;
      }
      return w_.make(s);
    }
    s.what = expression::kind::call;
    s.base = callee_node();
    return w_.make(s);
  }

  /// Whether `last` (a callee's last name) is the name of an operation: the spelling is
  /// worked out only then.
  static bool names_an_operation(std::string_view last) {
    for (std::size_t i = 1; i < commscope::detail::operation_table.size(); ++i)
      if (commscope::detail::operation_table[i].name == last)
        return true;
    return false;
  }

  static bool has_device_keyword(std::span<const keyword_argument> keywords) {
    for (const auto& k : keywords)
      if (k.name == "device")
        return true;
    return false;
  }

  /// Records the open names a dispatch's `device=` depends on: the name itself, or the
  /// open names in the bounds of the loop whose variable it is.
  void note_open_device_names(const expression& call) {
    for (const auto& k : call.keywords()) {
      if (k.name != "device")
        continue;
      const expression& d = *k.value;
      if (d.what == expression::kind::integer && d.overflow())
        unit_->huge_devices.emplace_back(call.where, std::string(d.text().view()));
      std::vector<std::string> open;
      auto collect = [&](const expression& root) {
        std::vector<const expression*> stack{&root};
        while (!stack.empty()) {
          const expression* x = stack.back();
          stack.pop_back();
          if (x->what == expression::kind::name && !x->var() && !x->text().empty() &&
              is_plain_name(x->text()) && x->text() != "pld" && x->text() != "pl")
            open.emplace_back(x->text().view());
          if (x->what == expression::kind::attribute)
            continue; // pld.world_size: not a name of the file
          for (const auto& a : x->args())
            if (a)
              stack.push_back(a.get());
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
      for (auto& n : open)
        unit_->open_names.emplace_back(call.where, std::move(n));
    }
  }

  /// `alloc_window_buffer([d0, d1, ...], dtype=pl.T)`: its size is the product of the
  /// shape's elements and the width of T (args[0] becomes that product; base keeps the
  /// shape as written). False, after a diagnostic, for an unknown dtype.
  bool shape_allocation(expression& e) {
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

  mutable_expr comprehension(std::uint32_t b, const expression_ptr& element) {
    gathered<expression_ptr> ops(xs_);
    ops.push(element);
    const std::size_t shadowed = shadow_.size();
    while (is_name("for") || is_name("async")) {
      if (is_name("async"))
        next();
      next();
      // targets up to `in`
      while (!is_name("in")) {
        if (peek().kind() == tok::newline || peek().kind() == tok::end)
          unexpected("'in'");
        if (peek().kind() == tok::name)
          shadow_.push_back(text(peek()));
        next();
      }
      next();
      const bool saved = no_conditional_;
      no_conditional_ = true;
      const expression_ptr it = parse_or();
      ops.push(it);
      while (is_name("if")) {
        next();
        const expression_ptr c = parse_or();
        ops.push(c);
      }
      no_conditional_ = saved;
    }
    shadow_.resize(shadowed);
    return opaque(b, ops.items());
  }

  mutable_expr parse_atom() {
    const token& t = peek();
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    switch (t.kind()) {
    case tok::name: {
      next();
      const std::string_view n = text(t);
      if (n == "True" || n == "False") {
        expression_spec s;
        s.what = expression::kind::boolean;
        s.where = where(t);
        s.value = n == "True";
        return w_.make(s);
      }
      if (n == "None")
        return leaf(expression::kind::none, where(t));
      if (t.is_reserved())
        fail_at(t.begin, "invalid syntax: unexpected '" + std::string(n) + "'");
      return name_node(t, resolve(n));
    }
    case tok::number: {
      next();
      return number(t);
    }
    case tok::string: {
      bool plain = true;
      scratch_.clear();
      while (peek().kind() == tok::string) {
        const token& s = next();
        if (!string_value(text(s), s.flags(), scratch_))
          plain = false;
      }
      if (!plain)
        return opaque(b, {});
      expression_spec s;
      s.what = expression::kind::string;
      s.where = where(t);
      s.text = w_.string(scratch_);
      return w_.make(s);
    }
    case tok::op: {
      if (t.is_op("...")) {
        next();
        return opaque(b, {});
      }
      if (t.is_op("(") || t.is_op("[") || t.is_op("{")) {
        nest guard(*this, t.begin);
        const std::uint8_t o = t.flags();
        next();
        return o == '(' ? parenthesized(b) : o == '[' ? list_display(b) : brace_display(b);
      }
      break;
    }
    default:
      break;
    }
    unexpected("an expression");
  }

  mutable_expr parenthesized(std::uint32_t b) {
    if (is_op(")")) {
      next();
      return leaf(expression::kind::tuple, where(t_[b]));
    }
    if (is_name("yield")) {
      auto y = parse_yield();
      expect_op(")");
      return opaque(b, {y});
    }
    mutable_expr first = parse_star_or_named();
    if (is_name("for") || is_name("async")) {
      auto g = comprehension(b, first);
      expect_op(")");
      return opaque(b, {g});
    }
    if (is_op(")")) {
      next();
      if (first->what == expression::kind::opaque && first->text().starts_with("*"))
        unexpected("a value"); // `(*x)` alone
      return first;            // parentheses only group
    }
    gathered<expression_ptr> items(xs_);
    items.push(first);
    while (is_op(",")) {
      next();
      if (is_op(")"))
        break;
      const expression_ptr x = parse_star_or_named();
      items.push(x);
    }
    expect_op(")");
    expression_spec s;
    s.what = expression::kind::tuple;
    s.where = where(t_[b]);
    s.args = items.items();
    return w_.make(s);
  }

  mutable_expr list_display(std::uint32_t b) {
    gathered<expression_ptr> items(xs_);
    while (!is_op("]")) {
      mutable_expr x = parse_star_or_named();
      if (is_name("for") || is_name("async")) {
        auto c = comprehension(b, x);
        expect_op("]");
        return opaque(b, {c});
      }
      items.push(x);
      if (!is_op(","))
        break;
      next();
    }
    expect_op("]");
    expression_spec s;
    s.what = expression::kind::list;
    s.where = where(t_[b]);
    s.args = items.items();
    return w_.make(s);
  }

  /// Dicts, sets and their comprehensions: opaque, their parts still read.
  mutable_expr brace_display(std::uint32_t b) {
    gathered<expression_ptr> parts(xs_);
    while (!is_op("}")) {
      if (is_op("**")) {
        next();
        const expression_ptr x = parse_binary(5);
        parts.push(x);
      } else {
        const expression_ptr x = parse_star_or_named();
        parts.push(x);
        if (is_op(":")) {
          next();
          const expression_ptr v = parse_test();
          parts.push(v);
        }
      }
      if (is_name("for") || is_name("async")) {
        const expression_ptr element = parts.stack.back();
        parts.stack.pop_back();
        const expression_ptr c = comprehension(b, element);
        parts.push(c);
        break;
      }
      if (!is_op(","))
        break;
      next();
    }
    expect_op("}");
    return opaque(b, parts.items());
  }

  mutable_expr number(const token& t) {
    const std::string_view s = text(t);
    if (auto v = constants::integer_literal(s))
      return w_.make_value(expression::kind::integer, where(t), *v);
    expression_spec n;
    n.what = expression::kind::integer;
    n.where = where(t);
    // An integer beyond int64 (saturated, as far above every limit as it is), or a
    // float / imaginary literal (opaque).
    const bool integral = s.find_first_of(".eEjJ") == std::string_view::npos ||
                          (s.size() > 1 && (s[1] == 'x' || s[1] == 'X'));
    if (integral) {
      n.overflow = true;
      n.value = std::numeric_limits<std::int64_t>::max();
      n.text = w_.string(s);
      return w_.make(n);
    }
    last_end_ = ts_.end(t);
    return opaque(static_cast<std::uint32_t>(&t - t_.data()), {});
  }

  struct variable_name {
    std::string_view operator()(const variable* v) const noexcept { return v->name.view(); }
  };
  struct signature_name {
    std::string_view operator()(const signature* s) const noexcept { return s->name.view(); }
  };
  struct line_item {
    statement* s;
    std::uint32_t b, e;
  };

  const token_stream& ts_;
  const std::vector<token>& t_;
  const token* tokens_;
  std::size_t last_;
  const module_scan& scan_;
  constants& consts_;
  node_factory w_;
  program_unit* unit_ = nullptr;
  std::size_t i_ = 0;
  std::uint32_t last_end_ = 0;
  std::uint32_t depth_ = 0;
  std::uint32_t next_id_ = 0;
  std::int32_t scope_ = 0;
  bool jit_ = false;
  bool resolving_ = false;
  bool no_conditional_ = false;
  name_table<const variable*, variable_name> names_;
  /// The scan's records of the body being read, fetched ahead (hash_of_binding).
  struct binding_lookahead {
    static constexpr std::size_t distance = 16;
    std::span<const py_scope::record> records;
    /// The first record not yet bound or passed over.
    std::size_t next = 0;
    /// Record k's hash at k % distance, for the records in [next, next + distance).
    std::array<std::uint64_t, distance> hashes{};
  };
  binding_lookahead ahead_;
  struct open_name {
    std::string_view name;
    std::optional<std::int64_t> value; ///< its constant, if it is one
  };
  struct open_name_key {
    std::string_view operator()(const open_name* n) const noexcept { return n->name; }
  };
  std::deque<open_name> open_names_;
  name_table<const open_name*, open_name_key> constants_seen_;
  std::vector<std::string_view> shadow_;
  std::unordered_map<std::uint32_t, window_buffer_ptr> windows_;
  std::unordered_map<const variable*, std::array<expression_ptr, 3>> loop_of_;
  std::vector<open_scope> scopes_;
  name_table<const signature*, signature_name> signatures_;
  std::vector<std::pair<expression*, std::string_view>> pending_calls_;
  // scratch
  std::vector<expression_ptr> xs_;
  std::vector<keyword_argument> ks_;
  std::vector<variable_ptr> vs_;
  std::vector<statement_ptr> ss_;
  std::vector<line_item> line_items_;
  std::string trivia_;    ///< leading comments of the statement being read
  std::string scratch_;   ///< texts being put together
  std::string spelled_;   ///< dotted spellings
  std::string canonical_; ///< the same in the DSL's aliases
};

inline syntax_error to_error(const token_stream& ts, const syntax_failure& f) {
  const auto at = ts.where_offset(f.offset);
  return {at.line, at.column, f.message};
}

} // namespace detail

inline module_result parse_module(std::string_view text, const module_options& options) {
  module_result r;
  token_stream ts;
  ts.source = text;
  try {
    ts = tokenize(text);
    const auto crlf = text.find("\r\n");
    if (crlf != std::string_view::npos && crlf == text.find('\n') - 1)
      r.newline = "\r\n";
    detail::module_scan scan(ts);
    scan.run();
    detail::constants consts(ts, scan.scopes, options);
    for (const auto& cp : scan.programs) {
      if (cp.functions.empty() && !cp.is_class)
        continue;
      detail::dsl_parser p(ts, scan, consts);
      r.programs.push_back(p.run(cp, options.stem));
    }
    // Source order: a program's place is its first decorator.
    // (no two programs share their first decorator's line)
    std::sort(r.programs.begin(), r.programs.end(),
              [](const program_unit& a, const program_unit& b) { return a.line < b.line; });
  } catch (const syntax_failure& f) {
    r.programs.clear();
    if (ts.line_starts.size() <= 1 && !text.empty()) { // failed while tokenizing: rebuild lines
      ts.line_starts.assign(1, 0);
      for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')))
          ts.line_starts.push_back(static_cast<std::uint32_t>(i + 1));
    }
    r.error = detail::to_error(ts, f);
  } catch (const std::bad_alloc&) {
    r.programs.clear();
    r.error = syntax_error{1, 1, "out of memory"};
  } catch (const std::exception& e) {
    r.programs.clear();
    r.error = syntax_error{1, 1, std::string("internal error: ") + e.what()};
  }
  return r;
}

inline parse_result parse(std::string_view text) {
  parse_result r;
  auto m = parse_module(text);
  if (m.error) {
    r.error = m.error;
  } else if (m.programs.empty()) {
    r.error = syntax_error{1, 1, "no DSL program ('@pl.program' class or '@pl.jit' functions)"};
  } else if (!m.programs.front().diagnostics.empty()) {
    const auto& d = m.programs.front().diagnostics.front();
    r.error = syntax_error{d.where.line, d.where.column, d.message};
  } else {
    r.program = m.programs.front().program;
  }
  return r;
}

} // namespace commscope::reference
