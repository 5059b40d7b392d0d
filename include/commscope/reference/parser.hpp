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

#include <commscope/analysis/operations.hpp>
#include <commscope/reference/ir.hpp>
#include <commscope/reference/lexicon.hpp>
#include <commscope/reference/module_scan.hpp>
#include <commscope/reference/tokenizer.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <optional>
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

namespace detail {

/// How deep the expression parser may recurse (brackets, unary chains, lambdas,
/// conditional expressions together); Python refuses such input as too complex too.
inline constexpr std::uint32_t max_expression_nesting = 400;

// ---- the DSL parser --------------------------------------------------------------

/// An expression under construction.
using mutable_expr = std::shared_ptr<expression>;
using mutable_stmt = std::shared_ptr<statement>;

class dsl_parser {
public:
  dsl_parser(const token_stream& ts, const module_scan& scan, constants& consts)
      : ts_(ts), t_(ts.tokens), scan_(scan), consts_(consts) {}

  program_unit run(const candidate_program& cp, std::string_view stem) {
    program_unit unit;
    unit_ = &unit;
    auto prog = std::make_shared<program>();
    prog->style = cp.is_class ? program::form::program_class : program::form::jit_group;
    jit_ = !cp.is_class;
    prog->name = !cp.name.empty() ? std::string(cp.name) : std::string(stem);
    unit.name = prog->name;
    unit.line = t_[cp.first_decorator].line;
    // Signatures first: a call may name a function defined after it.
    std::vector<std::shared_ptr<signature>> sigs;
    for (const auto index : cp.functions) {
      const definition& d = scan_.definitions[index];
      sigs.push_back(make_signature(d));
      if (signatures_.find(sigs.back()->name) == signatures_.end())
        signatures_.emplace(sigs.back()->name, sigs.back());
    }
    for (std::size_t k = 0; k < cp.functions.size(); ++k) {
      const definition& d = scan_.definitions[cp.functions[k]];
      scope_ = cp.is_class ? scan_.scopes[static_cast<std::size_t>(d.scope)].parent : d.scope;
      prog->functions.push_back(parse_function(d, sigs[k], cp.is_class));
    }
    for (auto& [call, name] : pending_calls_) {
      auto it = signatures_.find(name);
      if (it != signatures_.end())
        call->callee = it->second;
    }
    prog->variable_bound = next_id_;
    unit.program = prog;
    return unit;
  }

private:
  // ---- tokens
  const token& peek(std::size_t k = 0) const {
    return t_[std::min<std::size_t>(i_ + k, t_.size() - 1)];
  }
  const token& next() {
    const token& t = t_[i_];
    if (i_ + 1 < t_.size())
      ++i_;
    if (t.kind != tok::newline && t.kind != tok::indent && t.kind != tok::dedent &&
        t.kind != tok::end)
      last_end_ = t.end; // the end of the last real token read
    return t;
  }
  std::string_view text(const token& t) const { return ts_.text(t); }
  bool is_op(std::string_view o, std::size_t k = 0) const {
    return peek(k).kind == tok::op && peek(k).flags == op_code(o);
  }
  bool is_name(std::string_view n, std::size_t k = 0) const {
    return peek(k).kind == tok::name && text(peek(k)) == n;
  }
  bool at_line_end() const {
    return peek().kind == tok::newline || peek().kind == tok::end || is_op(";");
  }
  source_location where(const token& t) const { return ts_.where(t); }
  [[noreturn]] void unexpected(std::string_view wanted) const {
    std::string got;
    switch (peek().kind) {
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
  void expect_op(std::string_view o) {
    if (!is_op(o))
      unexpected("'" + std::string(o) + "'");
    next();
  }
  void expect_line_end() {
    if (peek().kind == tok::newline)
      next();
    else if (peek().kind != tok::end && peek().kind != tok::dedent)
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

  /// The source of tokens [b, e) as a statement's text: continuation lines without the
  /// first line's indentation, lines inside a string marked with '\0' (see ir.hpp).
  std::string verbatim(std::uint32_t b, std::uint32_t e) const {
    if (b >= e)
      return {};
    const std::uint32_t from = t_[b].begin;
    const std::uint32_t to = t_[e - 1].end;
    const std::string_view src = ts_.source;
    const std::uint32_t line_start = ts_.line_starts[t_[b].line - 1];
    const std::string_view base = src.substr(line_start, from - line_start);
    std::string out;
    out.reserve(to - from);
    std::uint32_t k = from;
    std::uint32_t tok_i = b;
    while (k < to) {
      const char c = src[k];
      if (c != '\n' && c != '\r') {
        out += c;
        ++k;
        continue;
      }
      k += (c == '\r' && k + 1 < to && src[k + 1] == '\n') ? 2 : 1;
      out += '\n';
      while (tok_i < e && t_[tok_i].end <= k)
        ++tok_i;
      const bool in_string = tok_i < e && t_[tok_i].begin < k && t_[tok_i].kind == tok::string;
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
    return out;
  }

  // ---- functions
  std::shared_ptr<signature> make_signature(const definition& d) {
    auto sig = std::make_shared<signature>();
    sig->name = std::string(text(t_[d.keyword + 1]));
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
    for (const auto& [b, e] : d.decorators) {
      i_ = b;
      auto deco = parse_test();
      if (i_ != e)
        unexpected("end of the decorator");
      const expression& ex = *deco;
      const bool call = ex.what == expression::kind::call;
      const expression* callee = call ? ex.base.get() : &ex;
      if (!callee || spelling(*callee) != "pl.function")
        continue;
      for (const auto& k : ex.keywords) {
        sig->decorator.push_back(k);
        const std::string v = spelling(*k.value);
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
    if (!explicit_level) // cli.md: an orchestrator without a level is a chip orchestrator
      sig->level = commscope::level::chip;
    else if (!level_known)
      sig->level = commscope::level::other;
    return sig;
  }

  function_ptr parse_function(const definition& d, std::shared_ptr<signature> sig, bool method) {
    names_.clear();
    shadow_.clear();
    resolving_ = false;
    auto fn = std::make_shared<function>();
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
      } while (depth > 0 && peek().kind != tok::newline && peek().kind != tok::end);
    }
    expect_op("(");
    bool first = true;
    while (!is_op(")")) {
      if (is_op("/") || (is_op("*") && (is_op(",", 1) || is_op(")", 1)))) {
        next(); // positional-only or keyword-only marker
      } else {
        if (is_op("*") || is_op("**"))
          next();
        if (peek().kind != tok::name || is_reserved(text(peek())))
          unexpected("a parameter name");
        const token& pn = next();
        if (first && method && !is_op(":")) {
          // `self` is implicit: no variable, so that self.NAME(...) stays a call.
        } else {
          auto v = new_variable(text(pn));
          if (is_op(":")) {
            next();
            auto ty = std::make_shared<type>();
            ty->annotation = parse_test();
            v->var_type = ty;
          }
          fn->params.push_back({v});
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
      span.fn = fn.get();
      span.inline_body = d.inline_body;
      if (d.inline_body) {
        span.begin = t_[d.colon].end;
        span.end = t_[d.body_end].begin;
        const std::uint32_t ls = ts_.line_starts[t_[d.keyword].line - 1];
        std::uint32_t w = ls;
        while (w < ts_.source.size() && (ts_.source[w] == ' ' || ts_.source[w] == '\t'))
          ++w;
        span.indent = std::string(ts_.source.substr(ls, w - ls)) + "    ";
      } else {
        const token& first_tok = t_[d.body_begin + 1];
        span.begin = ts_.line_starts[first_tok.line - 1];
        span.indent = std::string(ts_.source.substr(span.begin, first_tok.begin - span.begin));
        // The last NEWLINE of the body: the DEDENT's predecessor.
        std::uint32_t last = d.body_end;
        while (last > d.body_begin + 1 && t_[last - 1].kind != tok::newline)
          --last;
        span.end = last > d.body_begin + 1 ? t_[last - 1].begin : first_tok.begin;
      }
      unit_->bodies.push_back(std::move(span));
    }
    return fn;
  }

  // ---- names
  std::shared_ptr<variable> new_variable(std::string_view name) {
    auto v = std::make_shared<variable>();
    v->id = next_id_++;
    v->name = std::string(name);
    return v;
  }
  void bind(const std::shared_ptr<variable>& v) { names_[v->name] = v; }

  /// The dotted name an attribute chain spells, in the DSL's own aliases (`pl.`, `pld.`).
  std::string spelling(const expression& e) const { return scan_.names.canonical(raw_spelling(e)); }
  /// The same as written.
  static std::string raw_spelling(const expression& e) {
    std::vector<const expression*> chain;
    const expression* p = &e;
    while (p->what == expression::kind::attribute && p->base) {
      chain.push_back(p);
      p = p->base.get();
    }
    if (p->what != expression::kind::name || p->var)
      return {};
    std::string r = p->text;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      r += '.';
      r += (*it)->text;
    }
    return r;
  }

  // ---- statements
  std::vector<statement_ptr> parse_block() {
    if (peek().kind != tok::newline)
      return parse_simple_line_block();
    next();
    return parse_indented_block();
  }
  std::vector<statement_ptr> parse_simple_line_block() {
    std::vector<statement_ptr> body;
    parse_simple_line(body);
    return body;
  }
  std::vector<statement_ptr> parse_indented_block() {
    nest guard(*this, peek().begin);
    std::vector<statement_ptr> body;
    if (peek().kind != tok::indent)
      unexpected("an indented block");
    next();
    while (peek().kind != tok::dedent && peek().kind != tok::end)
      parse_statement(body);
    if (peek().kind == tok::dedent)
      next();
    return body;
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
    if (peek().kind != tok::newline && peek().kind != tok::end)
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

  /// Appends the trailing comment of a compound statement's header to its text.
  void keep_header_comment(statement& s) const {
    if (s.text.empty())
      return;
    s.text += trailing_comment();
  }

  void parse_statement(std::vector<statement_ptr>& out) {
    const token& t = peek();
    if (t.kind == tok::newline) {
      next();
      return;
    }
    const std::size_t before = out.size();
    std::string trivia = leading_trivia(t.line);
    parse_one_statement(out);
    if (!trivia.empty() && out.size() > before) {
      auto& s = const_cast<statement&>(*out[before]);
      if (!s.text.empty() && s.what != statement::kind::scope) {
        if (s.comment_at != 0)
          s.comment_at += static_cast<std::uint32_t>(trivia.size());
        s.text.insert(0, trivia);
      }
    }
  }

  void parse_one_statement(std::vector<statement_ptr>& out) {
    const token& t = peek();
    if (t.kind == tok::name) {
      const std::string_view w = text(t);
      if (w == "for")
        return out.push_back(parse_for());
      if (w == "while")
        return out.push_back(parse_while());
      if (w == "if")
        return out.push_back(parse_if());
      if (w == "with")
        return parse_with(out);
      if (w == "try" || w == "except" || w == "finally" || w == "else" || w == "async" ||
          ((w == "match" || w == "case") && compound_soft_keyword()))
        return out.push_back(parse_block_statement());
      if (w == "def" || w == "class")
        return out.push_back(parse_nested_definition());
    }
    if (is_op("@"))
      return out.push_back(parse_nested_definition());
    parse_simple_line(out);
  }

  bool compound_soft_keyword() const {
    std::size_t k = 1;
    while (peek(k).kind != tok::newline && peek(k).kind != tok::end)
      ++k;
    return k > 1 && peek(k - 1).kind == tok::op && text(peek(k - 1)) == ":";
  }

  /// The end of a compound header: the index of its ':' (lambdas inside consume theirs).
  std::uint32_t header_end() const {
    int depth = 0, lambdas = 0;
    for (std::size_t k = i_;; ++k) {
      const token& x = t_[std::min(k, t_.size() - 1)];
      if (x.kind == tok::newline || x.kind == tok::end)
        fail_at(x.begin, "invalid syntax: expected ':'");
      if (x.kind == tok::name && depth == 0 && text(x) == "lambda")
        ++lambdas;
      if (x.kind != tok::op)
        continue;
      const std::string_view o = text(x);
      if (o == "(" || o == "[" || o == "{")
        ++depth;
      else if (o == ")" || o == "]" || o == "}")
        --depth;
      else if (o == ":" && depth == 0) {
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
  void read_header_expressions(std::uint32_t end, statement& s) {
    while (i_ < end) {
      const token& t = peek();
      if (t.kind == tok::name && text(t) == "as") {
        next();
        if (peek().kind == tok::name && !is_reserved(text(peek()))) {
          auto v = new_variable(text(next()));
          bind(v);
          s.targets.push_back(v);
        }
        continue;
      }
      if (t.kind == tok::name && is_reserved(text(t)) && text(t) != "not" && text(t) != "lambda" &&
          text(t) != "await" && text(t) != "None" && text(t) != "True" && text(t) != "False") {
        next();
        continue;
      }
      if (t.kind == tok::op && (text(t) == "," || text(t) == "*" || text(t) == "|")) {
        next();
        continue;
      }
      s.values.push_back(parse_test());
    }
  }

  /// try/except/else/finally, match/case, async ..., a loop's else: a generic block.
  statement_ptr parse_block_statement() {
    auto s = std::make_shared<statement>();
    s->what = statement::kind::block;
    s->where = where(peek());
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    s->text = verbatim(b, colon + 1);
    next(); // the keyword
    if (peek(0).kind == tok::name &&
        (text(peek()) == "for" || text(peek()) == "with" || text(peek()) == "def") &&
        text(t_[b]) == "async")
      next();
    read_header_expressions(colon, *s);
    i_ = colon;
    expect_op(":");
    keep_header_comment(*s);
    s->body = parse_block();
    return s;
  }

  /// A def or class inside a host orchestrator: kept as written.
  statement_ptr parse_nested_definition() {
    auto s = std::make_shared<statement>();
    s->what = statement::kind::verbatim;
    s->where = where(peek());
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    while (is_op("@")) { // decorators
      while (peek().kind != tok::newline && peek().kind != tok::end)
        next();
      next();
    }
    if (!is_name("def") && !is_name("class") && !is_name("async"))
      unexpected("'def' or 'class'");
    if (is_name("async"))
      next();
    next();
    if (peek().kind == tok::name) {
      auto v = new_variable(text(peek()));
      bind(v);
      s->targets.push_back(v);
    }
    i_ = header_end() + 1;
    if (peek().kind != tok::newline) {
      while (peek().kind != tok::newline && peek().kind != tok::end)
        next();
      next();
    } else {
      next();
      int depth = 0;
      do {
        if (peek().kind == tok::indent)
          ++depth;
        else if (peek().kind == tok::dedent)
          --depth;
        next();
      } while (depth > 0 && peek().kind != tok::end);
    }
    // The text ends at the last real token (not the NEWLINE/DEDENTs after it).
    std::uint32_t e = static_cast<std::uint32_t>(i_);
    while (e > b && (t_[e - 1].kind == tok::newline || t_[e - 1].kind == tok::dedent ||
                     t_[e - 1].kind == tok::indent))
      --e;
    s->text = verbatim(b, e);
    return s;
  }

  void parse_simple_line(std::vector<statement_ptr>& out) {
    const std::size_t before = out.size();
    while (true) {
      if (auto s = parse_simple())
        out.push_back(std::move(s));
      if (!is_op(";"))
        break;
      next();
      if (peek().kind == tok::newline || peek().kind == tok::end)
        break;
    }
    if (out.size() > before) {
      auto& last = const_cast<statement&>(*out.back());
      if (std::string c = trailing_comment(); !c.empty() && !last.text.empty()) {
        last.comment_at = static_cast<std::uint32_t>(last.text.size());
        last.text += c;
      }
    }
    expect_line_end();
  }

  statement_ptr parse_simple() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    auto s = std::make_shared<statement>();
    s->where = where(peek());
    auto finish = [&](statement_ptr r) {
      const_cast<statement&>(*r).text = verbatim(b, static_cast<std::uint32_t>(i_));
      return r;
    };
    const std::string_view w = peek().kind == tok::name ? text(peek()) : "";
    if (w == "pass") {
      next();
      s->what = statement::kind::pass;
      return finish(s);
    }
    if (w == "return") {
      next();
      s->what = statement::kind::return_;
      if (!at_line_end()) {
        bool bare = false;
        auto v = parse_expression_list(&bare, true);
        if (bare)
          s->values.assign(v->args.begin(), v->args.end());
        else
          s->values.push_back(v);
      }
      return finish(s);
    }
    if (w == "break" || w == "continue" || w == "global" || w == "nonlocal" || w == "import" ||
        w == "from") {
      s->what = statement::kind::verbatim;
      while (!at_line_end())
        next();
      return finish(s);
    }
    if (w == "del" || w == "assert" || w == "raise") {
      next();
      s->what = statement::kind::verbatim;
      while (!at_line_end()) {
        if (is_op(",") || is_name("from")) {
          next();
          continue;
        }
        s->values.push_back(parse_test());
      }
      return finish(s);
    }
    if (w == "type" && peek(1).kind == tok::name && (is_op("=", 2) || is_op("[", 2))) {
      s->what = statement::kind::verbatim; // a type alias
      while (!at_line_end())
        next();
      return finish(s);
    }
    // An expression list, then '=' chains, an annotation, or an augmented operator.
    auto first = parse_expression_list(nullptr, true);
    if (is_op(":")) { // annotated: NAME: T [= value]
      next();
      (void)parse_test(); // the annotation: kept in the statement's text only
      if (!is_op("=")) {
        s->what = statement::kind::verbatim;
        s->values.push_back(first);
        return finish(s);
      }
      next();
      auto value = parse_value();
      return finish(assignment(s, {first}, value));
    }
    if (peek().kind == tok::op && is_augmented(text(peek()))) {
      next();
      auto value = parse_value();
      s->what = statement::kind::verbatim;
      s->values = {first, value};
      rebind_targets(*first, *s);
      return finish(s);
    }
    if (!is_op("=")) {
      s->what = statement::kind::evaluate;
      s->value = first;
      if (first->what == expression::kind::string || is_docstring(*first))
        s->what = statement::kind::verbatim, s->values.push_back(first), s->value = nullptr;
      return finish(s);
    }
    std::vector<expression_ptr> targets{first};
    mutable_expr value;
    while (is_op("=")) {
      next();
      value = parse_value();
      if (is_op("="))
        targets.push_back(value);
    }
    return finish(assignment(s, targets, value));
  }

  static bool is_docstring(const expression& e) {
    return e.what == expression::kind::opaque && !e.text.empty() &&
           (e.text[0] == '"' || e.text[0] == '\'' ||
            ((e.text[0] | 0x20) >= 'a' && (e.text[0] | 0x20) <= 'z' &&
             e.text.find_first_of("\"'") < 3));
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
  void rebind_targets(const expression& target, statement& s) {
    std::vector<const expression*> stack{&target};
    while (!stack.empty()) {
      const expression* e = stack.back();
      stack.pop_back();
      if (e->what == expression::kind::name ||
          (e->what == expression::kind::integer && !e->name.empty())) {
        const std::string_view n = e->var ? std::string_view(e->var->name)
                                   : e->what == expression::kind::name ? std::string_view(e->text)
                                                                       : std::string_view(e->name);
        if (n.empty())
          continue;
        auto v = new_variable(n);
        bind(v);
        s.targets.push_back(v);
      } else if (e->what == expression::kind::tuple || e->what == expression::kind::list ||
                 (e->what == expression::kind::opaque && e->text.starts_with("*"))) {
        for (auto it = e->args.rbegin(); it != e->args.rend(); ++it)
          stack.push_back(it->get());
      }
    }
  }

  /// `targets = value` (chains `a = b = v` too).
  statement_ptr assignment(const mutable_stmt& s, const std::vector<expression_ptr>& targets,
                           const mutable_expr& value) {
    // A DSL assignment: one chain of plain names (a, b = v included).
    std::vector<std::string_view> names;
    bool plain = targets.size() == 1;
    if (plain) {
      const expression& t = *targets[0];
      auto add = [&](const expression& n) {
        if (n.what == expression::kind::name && (n.var || !n.text.empty())) {
          names.push_back(n.var ? std::string_view(n.var->name) : std::string_view(n.text));
          return true;
        }
        if (n.what == expression::kind::integer && !n.name.empty()) { // a resolved constant
          names.push_back(n.name);
          return true;
        }
        return false;
      };
      if (t.what == expression::kind::tuple && !t.args.empty()) {
        for (const auto& a : t.args)
          plain = plain && add(*a);
      } else {
        plain = add(t);
      }
    }
    if (!plain) {
      s->what = statement::kind::verbatim;
      s->values.push_back(value);
      for (const auto& t : targets)
        if (t->what != expression::kind::name)
          s->values.push_back(t); // subscripts and attributes read their operands
      for (const auto& t : targets)
        rebind_targets(*t, *s);
      return s;
    }
    s->what = statement::kind::assign;
    expression& e = *value;
    std::vector<std::shared_ptr<variable>> vars;
    for (auto n : names)
      vars.push_back(new_variable(n));
    if (e.what == expression::kind::operation &&
        e.op == commscope::operation::alloc_window_buffer && vars.size() == 1) {
      if (!has_name_keyword(e))
        e.name = vars[0]->name;
      bind_slot(*vars[0], e);
    } else if (e.what == expression::kind::operation && e.op == commscope::operation::window &&
               vars.size() == 1) {
      auto ty = std::make_shared<type>();
      if (e.args.size() > 1)
        ty->shape = e.args[1];
      for (const auto& kw : e.keywords)
        if (kw.name == "dtype")
          ty->dtype = kw.value;
      if (!ty->dtype && e.args.size() > 2)
        ty->dtype = e.args[2];
      if (!e.args.empty())
        ty->window = window_of(*e.args[0]);
      vars[0]->var_type = ty;
    } else if (e.what == expression::kind::name && e.var && vars.size() == 1) {
      if (auto w = window_of(e)) // a plain copy of an allocation's pointer
        windows_[vars[0]->id] = std::move(w);
    }
    for (auto& v : vars) {
      bind(v);
      s->targets.push_back(v);
    }
    s->value = value;
    return s;
  }

  static bool has_name_keyword(const expression& e) {
    for (const auto& k : e.keywords)
      if (k.name == "name" && k.value->what == expression::kind::string)
        return true;
    return false;
  }

  window_buffer_ptr window_of(const expression& e) const {
    if (e.what != expression::kind::name || !e.var)
      return nullptr;
    auto it = windows_.find(e.var->id);
    return it == windows_.end() ? nullptr : it->second;
  }

  /// An allocation inside `with pld.comm_domain(..., slots=[NAME])` is that slot.
  void bind_slot(const variable& v, const expression& alloc) {
    if (alloc.args.size() != 1)
      return;
    std::shared_ptr<window_buffer> w;
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      for (std::size_t i = 0; i < it->names.size(); ++i) {
        if (it->names[i] != alloc.name || it->found[i])
          continue;
        if (!w) {
          w = std::make_shared<window_buffer>();
          w->base = v.shared_from_this();
          w->size = alloc.args[0];
          w->name = alloc.name;
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
    auto s = std::make_shared<statement>();
    s->where = where(next());
    s->text = verbatim(b, colon + 1);
    // The target list up to `in` at depth 0.
    std::uint32_t in = static_cast<std::uint32_t>(i_);
    for (int depth = 0; in < colon; ++in) {
      const token& x = t_[in];
      if (x.kind == tok::op && (text(x) == "(" || text(x) == "["))
        ++depth;
      else if (x.kind == tok::op && (text(x) == ")" || text(x) == "]"))
        --depth;
      else if (depth == 0 && x.kind == tok::name && text(x) == "in")
        break;
    }
    std::vector<std::string_view> target_names;
    for (std::uint32_t k = static_cast<std::uint32_t>(i_); k < in; ++k)
      if (t_[k].kind == tok::name && !is_reserved(text(t_[k])) &&
          !(k > i_ && t_[k - 1].kind == tok::op && text(t_[k - 1]) == "."))
        target_names.push_back(text(t_[k]));
    const bool simple_target =
        in == i_ + 1 ||
        (t_[i_].kind == tok::name && t_[i_ + 1].kind == tok::op && text(t_[i_ + 1]) == ",");
    i_ = in + 1;
    const token& iter_tok = peek();
    auto iter = parse_expression_list(nullptr, true);
    if (i_ != colon)
      unexpected("':'");
    next();
    keep_header_comment(*s);
    const expression& call = *iter;
    const std::string callee =
        call.what == expression::kind::call && call.base ? spelling(*call.base) : std::string();
    bool keywords_ok = true;
    for (const auto& k : call.keywords)
      keywords_ok = keywords_ok && callee == "pl.range" && k.name == "init_values";
    const bool range = (callee == "pl.range" || callee == "range") && !call.args.empty() &&
                       call.args.size() <= 3 && keywords_ok && simple_target &&
                       !target_names.empty();
    if (!range) {
      // Any other iteration: a block whose targets are opaque.
      s->what = statement::kind::block;
      s->values.push_back(iter);
      for (auto n : target_names) {
        auto v = new_variable(n);
        bind(v);
        s->targets.push_back(v);
      }
      s->body = parse_block();
      return s;
    }
    s->what = statement::kind::for_loop;
    s->builtin_range = callee == "range";
    s->range_arity = static_cast<std::uint8_t>(call.args.size());
    const source_location iter_at = where(iter_tok);
    auto constant = [&](std::int64_t v) {
      auto c = std::make_shared<expression>();
      c->what = expression::kind::integer;
      c->value = v;
      c->where = iter_at;
      return c;
    };
    if (call.args.size() == 1) {
      s->start = constant(0);
      s->stop = call.args[0];
    } else {
      s->start = call.args[0];
      s->stop = call.args[1];
    }
    s->step = call.args.size() == 3 ? call.args[2] : constant(1);
    auto v = new_variable(target_names[0]);
    bind(v);
    s->loop_var = v;
    loop_of_[v.get()] = s.get();
    for (std::size_t k = 1; k < target_names.size(); ++k) { // loop-carried values
      auto c = new_variable(target_names[k]);
      bind(c);
      s->targets.push_back(c);
    }
    s->body = parse_block();
    return s;
  }

  statement_ptr parse_while() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    auto s = std::make_shared<statement>();
    s->what = statement::kind::while_loop;
    s->where = where(next());
    s->text = verbatim(b, colon + 1);
    s->value = parse_named();
    expect_op(":");
    keep_header_comment(*s);
    s->body = parse_block();
    return s;
  }

  statement_ptr parse_if() {
    std::vector<std::shared_ptr<statement>> chain;
    while (true) {
      const std::uint32_t b = static_cast<std::uint32_t>(i_);
      const std::uint32_t colon = header_end();
      auto s = std::make_shared<statement>();
      s->what = statement::kind::if_else;
      s->is_elif = !chain.empty();
      s->where = where(next());
      s->text = verbatim(b, colon + 1);
      s->value = parse_named();
      expect_op(":");
      keep_header_comment(*s);
      s->body = parse_block();
      chain.push_back(s);
      if (!is_name("elif"))
        break;
    }
    if (is_name("else")) {
      next();
      expect_op(":");
      chain.back()->orelse = parse_block();
    }
    // Linked back to front: an elif chain of any length is built without recursion.
    for (std::size_t i = chain.size() - 1; i > 0; --i)
      chain[i - 1]->orelse.push_back(chain[i]);
    return chain.front();
  }

  struct open_scope {
    std::vector<std::string> names;
    std::vector<std::shared_ptr<window_buffer>> found;
  };

  void front_end_error(source_location at, std::string message) {
    unit_->diagnostics.push_back({"malformed-op", std::move(message), at});
  }

  /// `with pld.comm_domain(...)` is a scope; any other `with` a block read as inline.
  void parse_with(std::vector<statement_ptr>& out) {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const std::uint32_t colon = header_end();
    const source_location at = where(next());
    auto s = std::make_shared<statement>();
    s->where = at;
    s->text = verbatim(b, colon + 1);
    const std::uint32_t items = static_cast<std::uint32_t>(i_);
    const bool one_call = peek().kind == tok::name;
    mutable_expr first;
    if (one_call && !is_op("(")) {
      first = parse_test();
    }
    if (first && i_ == colon && first->what == expression::kind::call && first->base &&
        spelling(*first->base) == "pld.comm_domain") {
      if (auto scope = comm_domain(*first, at)) {
        next();
        scopes_.push_back(std::move(*scope));
        auto body = parse_block();
        open_scope done = std::move(scopes_.back());
        scopes_.pop_back();
        s->what = statement::kind::scope;
        s->body = std::move(body);
        for (std::size_t i = 0; i < done.names.size(); ++i) {
          if (!done.found[i]) {
            front_end_error(at, "slot '" + done.names[i] +
                                    "' names no allocation in this pld.comm_domain");
            continue;
          }
          s->slots.push_back(done.found[i]);
        }
        const auto& e = *first;
        s->scope_name = e.args[0]->text;
        for (const auto& k : e.keywords)
          if (k.name == "devices" && k.value->what == expression::kind::list) {
            s->all_devices = false;
            for (const auto& d : k.value->args)
              s->devices.push_back(d->value);
          }
        s->text.clear(); // scopes print canonically
        out.push_back(s);
        return;
      }
    }
    // Any other with: its items are read for the analysis, its body as if inline.
    i_ = items;
    s->what = statement::kind::block;
    s->values.clear();
    read_header_expressions(colon, *s);
    i_ = colon;
    expect_op(":");
    keep_header_comment(*s);
    s->body = parse_block();
    out.push_back(s);
  }

  /// The slots of a well-formed `pld.comm_domain("NAME", devices=..., slots=[...])`;
  /// nullopt (after a diagnostic) for a malformed one, which is then an ordinary block.
  std::optional<open_scope> comm_domain(const expression& e, source_location at) {
    if (e.args.size() != 1 || e.args[0]->what != expression::kind::string) {
      front_end_error(at, "pld.comm_domain takes one positional argument, the scope name");
      return std::nullopt;
    }
    open_scope sc;
    for (const auto& k : e.keywords) {
      const expression& v = *k.value;
      if (k.name == "devices") {
        if (v.what == expression::kind::string && v.text == "all")
          continue;
        if (v.what != expression::kind::list) {
          front_end_error(at, "devices= of pld.comm_domain must be \"all\" or a list of integers");
          return std::nullopt;
        }
        for (const auto& d : v.args)
          if (d->what != expression::kind::integer || d->overflow) {
            front_end_error(at, "a device of pld.comm_domain must be an integer");
            return std::nullopt;
          }
      } else if (k.name == "slots") {
        if (v.what != expression::kind::list) {
          front_end_error(at, "slots= of pld.comm_domain must be a list of allocation names");
          return std::nullopt;
        }
        for (const auto& n : v.args) {
          if (n->what == expression::kind::string)
            sc.names.push_back(n->text);
          else if (n->what == expression::kind::name)
            sc.names.push_back(n->var ? n->var->name : n->text);
          else if (n->what == expression::kind::integer && !n->name.empty())
            sc.names.push_back(n->name);
          else {
            front_end_error(at, "a slot of pld.comm_domain must be an allocation name");
            return std::nullopt;
          }
        }
      } else {
        front_end_error(at, "unknown keyword '" + k.name + "' of pld.comm_domain");
        return std::nullopt;
      }
    }
    sc.found.resize(sc.names.size());
    return sc;
  }

  // ---- expressions
  mutable_expr make(expression::kind k, source_location at) {
    auto e = std::make_shared<expression>();
    e->what = k;
    e->where = at;
    return e;
  }
  /// An opaque node spanning tokens from `b` to the last one consumed.
  mutable_expr opaque(std::uint32_t b, std::vector<expression_ptr> operands) {
    auto e = make(expression::kind::opaque, where(t_[b]));
    e->text = std::string(ts_.source.substr(t_[b].begin, last_end_ - t_[b].begin));
    e->args = std::move(operands);
    return e;
  }

  /// EXPR or EXPR, EXPR, ... (a tuple without parentheses); *bare tells which.
  mutable_expr parse_expression_list(bool* bare, bool starred) {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    auto first = starred ? parse_star_or_named() : parse_named();
    if (!is_op(","))
      return first;
    auto t = make(expression::kind::tuple, where(t_[b]));
    t->args.push_back(first);
    while (is_op(",")) {
      next();
      if (at_line_end() || is_op("=") || is_op(":") || is_op(")") || is_name("in") ||
          (peek().kind == tok::op && is_augmented(text(peek()))))
        break;
      t->args.push_back(starred ? parse_star_or_named() : parse_named());
    }
    if (bare)
      *bare = true;
    return t;
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
    if (peek().kind == tok::name && is_op(":=", 1)) {
      const std::uint32_t b = static_cast<std::uint32_t>(i_);
      const std::string_view n = text(next());
      next();
      auto value = parse_test();
      auto v = new_variable(n);
      bind(v);
      return opaque(b, {value});
    }
    return parse_test();
  }

  mutable_expr parse_yield() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    next();
    std::vector<expression_ptr> ops;
    if (is_name("from")) {
      next();
      ops.push_back(parse_test());
    } else if (!at_line_end() && !is_op(")") && !is_op("=")) {
      ops.push_back(parse_expression_list(nullptr, true));
    }
    return opaque(b, std::move(ops));
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
    std::vector<expression_ptr> ops;
    while (!(depth == 0 && is_op(":"))) {
      if (peek().kind == tok::newline || peek().kind == tok::end)
        unexpected("':'");
      if (is_op("(") || is_op("[") || is_op("{"))
        ++depth;
      else if (is_op(")") || is_op("]") || is_op("}"))
        --depth;
      if (peek().kind == tok::name && depth == 0 && !is_op("=", 1) && !is_reserved(text(peek())))
        shadow_.push_back(text(peek()));
      if (is_op("=") && depth == 0) {
        next();
        ops.push_back(parse_test());
        continue;
      }
      next();
    }
    next();
    ops.push_back(parse_test());
    shadow_.resize(shadowed);
    return opaque(b, std::move(ops));
  }

  mutable_expr binary(const mutable_expr& l, std::string_view op, const mutable_expr& r) {
    auto e = make(expression::kind::binary, l->where);
    e->text = std::string(op);
    e->args = {l, r};
    return e;
  }

  mutable_expr parse_or() {
    auto l = parse_and();
    while (is_name("or")) {
      next();
      l = binary(l, "or", parse_and());
    }
    return l;
  }
  mutable_expr parse_and() {
    auto l = parse_not();
    while (is_name("and")) {
      next();
      l = binary(l, "and", parse_not());
    }
    return l;
  }
  mutable_expr parse_not() {
    if (!is_name("not"))
      return parse_comparison();
    const token& t = next();
    nest guard(*this, t.begin);
    auto x = parse_not();
    auto u = make(expression::kind::unary, where(t));
    u->text = "not";
    u->args = {x};
    return u;
  }
  mutable_expr parse_comparison() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    auto l = parse_bitwise();
    while (true) {
      const token& t = peek();
      if (t.kind == tok::op) {
        const std::string_view o = text(t);
        if (o == "==" || o == "!=" || o == "<" || o == "<=" || o == ">" || o == ">=") {
          next();
          l = binary(l, o, parse_bitwise());
          continue;
        }
      } else if (t.kind == tok::name) {
        const std::string_view o = text(t);
        if (o == "in" || o == "is" || (o == "not" && is_name("in", 1))) {
          next();
          if ((o == "is" && is_name("not")) || o == "not")
            next();
          auto r = parse_bitwise();
          l = opaque(b, {l, r});
          continue;
        }
      }
      return l;
    }
  }
  /// | ^ & << >> : opaque to the pass, their operands still read.
  mutable_expr parse_bitwise() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    auto l = parse_arith();
    while (is_op("|") || is_op("^") || is_op("&") || is_op("<<") || is_op(">>")) {
      next();
      auto r = parse_arith();
      l = opaque(b, {l, r});
    }
    return l;
  }
  mutable_expr parse_arith() {
    auto l = parse_term();
    while (is_op("+") || is_op("-")) {
      const std::string_view op = text(next());
      l = binary(l, op, parse_term());
    }
    return l;
  }
  mutable_expr parse_term() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    auto l = parse_factor();
    while (is_op("*") || is_op("/") || is_op("//") || is_op("%") || is_op("@")) {
      const std::string_view op = text(next());
      auto r = parse_factor();
      l = op == "@" ? opaque(b, {l, r}) : binary(l, op, r);
    }
    return l;
  }
  mutable_expr parse_factor() {
    if (!is_op("-") && !is_op("+") && !is_op("~"))
      return parse_power();
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    const token& t = next();
    const std::string_view op = text(t);
    nest guard(*this, t.begin);
    auto x = parse_factor();
    if (op == "+")
      return x; // unary plus is the identity on everything the pass reads
    if (op == "~")
      return opaque(b, {x});
    expression& v = *x;
    if (v.what == expression::kind::integer && v.name.empty()) {
      // Fold a negated literal, so `device=-1` is the constant -1.
      if (!v.overflow && v.value != std::numeric_limits<std::int64_t>::min()) {
        v.value = -v.value;
        v.where = where(t);
        return x;
      }
      if (v.overflow && v.text == "9223372036854775808") { // exactly INT64_MIN
        v.overflow = false;
        v.text.clear();
        v.value = std::numeric_limits<std::int64_t>::min();
        v.where = where(t);
        return x;
      }
      if (v.overflow) {
        v.value = std::numeric_limits<std::int64_t>::min(); // saturated: still negative
        v.text = "-" + v.text;
        v.where = where(t);
        return x;
      }
    }
    auto u = make(expression::kind::unary, where(t));
    u->text = "-";
    u->args = {x};
    return u;
  }
  mutable_expr parse_power() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    if (is_name("await")) {
      next();
      auto x = parse_power();
      return opaque(b, {x});
    }
    auto x = parse_primary();
    if (is_op("**")) {
      const token& t = next();
      nest guard(*this, t.begin);
      auto r = parse_factor();
      return opaque(b, {x, r});
    }
    return x;
  }

  mutable_expr parse_primary() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    auto x = parse_atom();
    while (true) {
      if (is_op(".")) {
        next();
        if (peek().kind != tok::name)
          unexpected("an attribute name");
        const token& an = next();
        auto a = make(expression::kind::attribute, where(t_[b]));
        a->text = std::string(text(an));
        a->base = x;
        x = a;
      } else if (is_op("(")) {
        nest guard(*this, peek().begin);
        next();
        x = make_call(b, x);
      } else if (is_op("[")) {
        nest guard(*this, peek().begin);
        next();
        auto s = make(expression::kind::subscript, where(t_[b]));
        s->base = x;
        while (!is_op("]")) {
          s->args.push_back(parse_slice());
          if (!is_op(","))
            break;
          next();
        }
        expect_op("]");
        x = s;
      } else {
        return x;
      }
    }
  }

  mutable_expr parse_slice() {
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    std::vector<expression_ptr> parts;
    bool slice = false;
    if (!is_op(":"))
      parts.push_back(parse_star_or_named());
    while (is_op(":")) {
      slice = true;
      next();
      if (!is_op(":") && !is_op("]") && !is_op(","))
        parts.push_back(parse_test());
    }
    if (!slice)
      return std::const_pointer_cast<expression>(parts.front());
    return opaque(b, std::move(parts));
  }

  /// f(args): a recognised operation, a function of the program, or any call.
  mutable_expr make_call(std::uint32_t b, const mutable_expr& callee) {
    auto c = make(expression::kind::call, where(t_[b]));
    bool unpacking = false;
    while (!is_op(")")) {
      if (peek().kind == tok::name && is_op("=", 1) && !is_reserved(text(peek()))) {
        const std::string_view kn = text(next());
        next();
        c->keywords.push_back({std::string(kn), parse_test()});
      } else if (is_op("**")) {
        const std::uint32_t sb = static_cast<std::uint32_t>(i_);
        next();
        auto v = parse_test();
        c->args.push_back(opaque(sb, {v}));
        unpacking = true;
      } else {
        if (!c->keywords.empty() && !is_op("*"))
          fail_at(peek().begin, "positional argument follows keyword argument");
        auto v = parse_star_or_named();
        if (v->what == expression::kind::opaque && v->text.starts_with("*"))
          unpacking = true;
        if (is_name("for") || is_name("async")) // f(x for x in y)
          v = comprehension(b, v);
        c->args.push_back(v);
      }
      if (!is_op(","))
        break;
      next();
    }
    expect_op(")");
    expression& e = *c;
    const expression& callee_e = *callee;
    // pl.<DTYPE>.get_byte() folds to the byte width.
    if (callee_e.what == expression::kind::attribute && callee_e.text == "get_byte" &&
        e.args.empty() && e.keywords.empty()) {
      const std::string sp = spelling(*callee_e.base);
      if (sp.starts_with("pl.") && sp.find('.', 3) == std::string::npos)
        if (auto w = dtype_byte_width(std::string_view(sp).substr(3))) {
          auto k = make(expression::kind::integer, where(t_[b]));
          k->value = w;
          k->text = std::string(ts_.source.substr(t_[b].begin, last_end_ - t_[b].begin));
          return k;
        }
    }
    // self.NAME(...) of a function of the program, or with device= (cli.md: a device=
    // call of anything else is malformed-op); a call of any other method is opaque.
    if (!unpacking && !jit_ && callee_e.what == expression::kind::attribute && callee_e.base &&
        callee_e.base->what == expression::kind::name && !callee_e.base->var &&
        callee_e.base->text == "self" &&
        (signatures_.count(callee_e.text) != 0 || has_device_keyword(e))) {
      e.what = expression::kind::function_call;
      e.text = callee_e.text;
      pending_calls_.emplace_back(c, callee_e.text);
      note_open_device_names(e);
      return c;
    }
    if (!unpacking && jit_ && callee_e.what == expression::kind::name && !callee_e.var &&
        !callee_e.text.empty() &&
        (signatures_.count(callee_e.text) != 0 || has_device_keyword(e))) {
      e.what = expression::kind::function_call;
      e.text = callee_e.text;
      pending_calls_.emplace_back(c, callee_e.text);
      note_open_device_names(e);
      return c;
    }
    const std::string sp = spelling(callee_e);
    if (const auto op = operation_of_spelling(sp); op != commscope::operation::none && !unpacking) {
      e.what = expression::kind::operation;
      e.op = op;
      e.text = raw_spelling(callee_e); // printed as written
      if (op == commscope::operation::alloc_window_buffer) {
        e.name = sp;
        for (const auto& k : e.keywords)
          if (k.name == "name" && k.value->what == expression::kind::string)
            e.name = k.value->text;
        if (!shape_allocation(e))
          return c; // reported; an ordinary call from here on
      }
      return c;
    }
    e.base = callee;
    return c;
  }

  static bool has_device_keyword(const expression& e) {
    for (const auto& k : e.keywords)
      if (k.name == "device")
        return true;
    return false;
  }

  /// Records the open names a dispatch's `device=` depends on: the name itself, or the
  /// open names in the bounds of the loop whose variable it is.
  void note_open_device_names(const expression& call) {
    for (const auto& k : call.keywords) {
      if (k.name != "device")
        continue;
      const expression& d = *k.value;
      if (d.what == expression::kind::integer && d.overflow)
        unit_->huge_devices.emplace_back(call.where, d.text);
      std::vector<std::string> open;
      auto collect = [&](const expression& root) {
        std::vector<const expression*> stack{&root};
        while (!stack.empty()) {
          const expression* x = stack.back();
          stack.pop_back();
          if (x->what == expression::kind::name && !x->var && !x->text.empty() &&
              is_plain_name(x->text) && x->text != "pld" && x->text != "pl")
            open.push_back(x->text);
          if (x->what == expression::kind::attribute)
            continue; // pld.world_size: not a name of the file
          for (const auto& a : x->args)
            if (a)
              stack.push_back(a.get());
          if (x->base)
            stack.push_back(x->base.get());
        }
      };
      if (d.what == expression::kind::name && d.var) {
        auto it = loop_of_.find(d.var.get());
        if (it != loop_of_.end())
          for (const auto* bnd :
               {it->second->start.get(), it->second->stop.get(), it->second->step.get()})
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
    if (e.args.size() != 1 ||
        (e.args[0]->what != expression::kind::list && e.args[0]->what != expression::kind::tuple))
      return true;
    const expression_ptr shape = e.args[0];
    std::int64_t width = 0;
    for (const auto& k : e.keywords)
      if (k.name == "dtype") {
        const std::string sp = spelling(*k.value);
        if (sp.starts_with("pl."))
          width = dtype_byte_width(std::string_view(sp).substr(3));
      }
    if (width == 0) {
      front_end_error(e.where, "allocation by shape needs dtype=pl.<DTYPE> with a known width");
      e.what = expression::kind::call;
      e.op = commscope::operation::none;
      auto callee = make(expression::kind::name, e.where);
      callee->text = e.text;
      e.base = callee;
      return false;
    }
    mutable_expr size;
    for (const auto& d : shape->args) {
      if (!size) {
        size = std::const_pointer_cast<expression>(d);
        continue;
      }
      size = binary(size, "*", std::const_pointer_cast<expression>(d));
    }
    auto w = make(expression::kind::integer, shape->where);
    w->value = width;
    size = size ? binary(size, "*", w) : w;
    size->where = shape->where;
    e.args[0] = size;
    e.base = shape;
    return true;
  }

  mutable_expr comprehension(std::uint32_t b, const mutable_expr& element) {
    std::vector<expression_ptr> ops{element};
    const std::size_t shadowed = shadow_.size();
    while (is_name("for") || is_name("async")) {
      if (is_name("async"))
        next();
      next();
      // targets up to `in`
      while (!is_name("in")) {
        if (peek().kind == tok::newline || peek().kind == tok::end)
          unexpected("'in'");
        if (peek().kind == tok::name)
          shadow_.push_back(text(peek()));
        next();
      }
      next();
      const bool saved = no_conditional_;
      no_conditional_ = true;
      ops.push_back(parse_or());
      while (is_name("if")) {
        next();
        ops.push_back(parse_or());
      }
      no_conditional_ = saved;
    }
    shadow_.resize(shadowed);
    return opaque(b, std::move(ops));
  }

  mutable_expr parse_atom() {
    const token& t = peek();
    const std::uint32_t b = static_cast<std::uint32_t>(i_);
    switch (t.kind) {
    case tok::name: {
      next();
      const std::string_view n = text(t);
      if (n == "True" || n == "False") {
        auto e = make(expression::kind::boolean, where(t));
        e->value = n == "True";
        return e;
      }
      if (n == "None")
        return make(expression::kind::none, where(t));
      if (is_reserved(n))
        fail_at(t.begin, "invalid syntax: unexpected '" + std::string(n) + "'");
      return name(t);
    }
    case tok::number: {
      next();
      return number(t);
    }
    case tok::string: {
      bool plain = true;
      std::string value;
      while (peek().kind == tok::string) {
        const token& s = next();
        if (!string_value(text(s), s.flags, value))
          plain = false;
      }
      if (!plain)
        return opaque(b, {});
      auto e = make(expression::kind::string, where(t));
      e->text = std::move(value);
      return e;
    }
    case tok::op: {
      const std::string_view o = text(t);
      if (o == "...") {
        next();
        return opaque(b, {});
      }
      if (o == "(" || o == "[" || o == "{") {
        nest guard(*this, t.begin);
        next();
        return o == "(" ? parenthesized(b) : o == "[" ? list_display(b) : brace_display(b);
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
      return make(expression::kind::tuple, where(t_[b]));
    }
    if (is_name("yield")) {
      auto y = parse_yield();
      expect_op(")");
      return opaque(b, {y});
    }
    auto first = parse_star_or_named();
    if (is_name("for") || is_name("async")) {
      auto g = comprehension(b, first);
      expect_op(")");
      return opaque(b, {g});
    }
    if (is_op(")")) {
      next();
      if (first->what == expression::kind::opaque && first->text.starts_with("*"))
        unexpected("a value"); // `(*x)` alone
      return first;            // parentheses only group
    }
    auto tup = make(expression::kind::tuple, where(t_[b]));
    tup->args.push_back(first);
    while (is_op(",")) {
      next();
      if (is_op(")"))
        break;
      tup->args.push_back(parse_star_or_named());
    }
    expect_op(")");
    return tup;
  }

  mutable_expr list_display(std::uint32_t b) {
    auto l = make(expression::kind::list, where(t_[b]));
    while (!is_op("]")) {
      auto x = parse_star_or_named();
      if (is_name("for") || is_name("async")) {
        auto c = comprehension(b, x);
        expect_op("]");
        return opaque(b, {c});
      }
      l->args.push_back(x);
      if (!is_op(","))
        break;
      next();
    }
    expect_op("]");
    return l;
  }

  /// Dicts, sets and their comprehensions: opaque, their parts still read.
  mutable_expr brace_display(std::uint32_t b) {
    std::vector<expression_ptr> parts;
    while (!is_op("}")) {
      if (is_op("**")) {
        next();
        parts.push_back(parse_bitwise());
      } else {
        parts.push_back(parse_star_or_named());
        if (is_op(":")) {
          next();
          parts.push_back(parse_test());
        }
      }
      if (is_name("for") || is_name("async")) {
        auto c = comprehension(b, std::const_pointer_cast<expression>(parts.back()));
        parts.back() = c;
        break;
      }
      if (!is_op(","))
        break;
      next();
    }
    expect_op("}");
    return opaque(b, std::move(parts));
  }

  /// A name: a variable of the body, a constant of the file, or an open name.
  mutable_expr name(const token& t) {
    const std::string_view n = text(t);
    auto e = make(expression::kind::name, where(t));
    const bool shadowed = std::find(shadow_.begin(), shadow_.end(), n) != shadow_.end();
    if (!shadowed) {
      auto it = names_.find(std::string(n));
      if (it != names_.end()) {
        e->var = it->second;
        return e;
      }
      if (resolving_)
        if (auto v = consts_.resolve(n, scope_)) {
          e->what = expression::kind::integer;
          e->value = *v;
          e->name = std::string(n); // printed as its value where it is a size
          return e;
        }
    }
    e->text = std::string(n);
    return e;
  }

  mutable_expr number(const token& t) {
    const std::string_view s = text(t);
    if (auto v = constants::integer_literal(s)) {
      auto n = make(expression::kind::integer, where(t));
      n->value = *v;
      return n;
    }
    // An integer beyond int64 (saturated, as far above every limit as it is), or a
    // float / imaginary literal (opaque).
    const bool integral = s.find_first_of(".eEjJ") == std::string_view::npos ||
                          (s.size() > 1 && (s[1] == 'x' || s[1] == 'X'));
    if (integral) {
      auto n = make(expression::kind::integer, where(t));
      n->overflow = true;
      n->value = std::numeric_limits<std::int64_t>::max();
      n->text = std::string(s);
      return n;
    }
    last_end_ = t.end;
    return opaque(static_cast<std::uint32_t>(&t - t_.data()), {});
  }

  const token_stream& ts_;
  const std::vector<token>& t_;
  const module_scan& scan_;
  constants& consts_;
  program_unit* unit_ = nullptr;
  std::size_t i_ = 0;
  std::uint32_t last_end_ = 0;
  std::uint32_t depth_ = 0;
  std::uint32_t next_id_ = 0;
  std::int32_t scope_ = 0;
  bool jit_ = false;
  bool resolving_ = false;
  bool no_conditional_ = false;
  std::unordered_map<std::string, std::shared_ptr<variable>> names_;
  std::vector<std::string_view> shadow_;
  std::unordered_map<std::uint32_t, window_buffer_ptr> windows_;
  std::unordered_map<const variable*, const statement*> loop_of_;
  std::vector<open_scope> scopes_;
  std::unordered_map<std::string, signature_ptr> signatures_;
  std::vector<std::pair<std::shared_ptr<expression>, std::string>> pending_calls_;
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
