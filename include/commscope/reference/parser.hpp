// The text front end of the reference IR: parses the Python-DSL subset of cli.md.
//
// `parse` never throws, aborts or recurses without bound, whatever the bytes: bracket,
// block and expression nesting are capped (a deeper input is a syntax error), so every
// later tree walk, the destructors of the shared nodes included, runs on a bounded stack.
#pragma once

#include <commscope/reference/ir.hpp>
#include <commscope/reference/lexicon.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
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

struct parse_result {
  program_ptr program;               ///< null when `error` is set
  std::optional<syntax_error> error; ///< the first syntax error
  explicit operator bool() const { return program != nullptr; }
};

/// Caps that keep every recursive walk of a parsed program shallow.
inline constexpr std::uint32_t max_nesting = 200;           ///< brackets, blocks, unary chains
inline constexpr std::uint32_t max_expression_depth = 1000; ///< height of one expression tree

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

/// The operation a dotted spelling names (cli.md, "Operations"), or none.
[[nodiscard]] inline commscope::operation operation_of_spelling(std::string_view s) {
  using commscope::operation;
  struct entry {
    std::string_view name;
    operation op;
  };
  static constexpr std::array<entry, 10> table{
      {{"alloc_window_buffer", operation::alloc_window_buffer},
       {"window", operation::window},
       {"world_size", operation::world_size},
       {"allreduce", operation::allreduce},
       {"broadcast", operation::broadcast},
       {"reduce_scatter", operation::reduce_scatter},
       {"barrier", operation::barrier},
       {"allgather", operation::allgather},
       {"all_to_all", operation::all_to_all},
       {"all_to_all_v", operation::all_to_all_v}}};
  std::string_view rest;
  if (s.starts_with("pld.tensor."))
    rest = s.substr(11);
  else if (s == "pld.system.world_size")
    return operation::world_size;
  else if (s.starts_with("pld."))
    rest = s.substr(4);
  else
    return operation::none;
  for (const auto& e : table)
    if (e.name == rest)
      return (e.op == operation::world_size && s.starts_with("pld.tensor.")) ? operation::none
                                                                             : e.op;
  return operation::none;
}

namespace parser_detail {

struct failure {
  source_location where;
  std::string message;
};

enum class tok : std::uint8_t { name, number, string, op, newline, indent, dedent, end };

// Kept small (32 bytes): a big program has a million tokens.
struct token {
  tok kind = tok::end;
  std::uint32_t str = 0; ///< a string literal's decoded value: index into lexed::strings
  source_location where{};
  std::string_view text; ///< the source spelling (names, numbers, operators)
};

struct lexed {
  std::deque<token> tokens; // blocks, not one huge buffer: no reallocation copies
  std::vector<std::string> strings;
};

[[noreturn]] inline void fail(source_location where, std::string message) {
  throw failure{where, std::move(message)};
}

inline bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }

inline std::string describe_byte(unsigned char c) {
  static constexpr char hex[] = "0123456789abcdef";
  if (c >= 0x21 && c < 0x7f)
    return std::string("'") + static_cast<char>(c) + "'";
  return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
}

/// Python-style tokenizer: INDENT/DEDENT from leading spaces, NEWLINE only outside
/// brackets, comments and blank lines dropped.
class lexer {
public:
  explicit lexer(std::string_view src) : s_(src) {}

  lexed run() {
    std::deque<token> out;
    std::vector<std::uint32_t> indents{0};
    bool line_start = true;
    while (true) {
      if (line_start && brackets_.empty()) {
        line_start = false;
        std::uint32_t width = 0;
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\f')) {
          width = s_[pos_] == ' ' ? width + 1 : 0;
          advance();
        }
        if (pos_ < s_.size() && s_[pos_] == '\t')
          fail(here(), "tab character in indentation (indent with spaces)");
        if (pos_ >= s_.size())
          break;
        const char c = s_[pos_];
        if (c == '\n' || c == '\r' || c == '#')
          ; // blank or comment-only line: no indentation change
        else if (width > indents.back()) {
          if (indents.size() > max_nesting)
            fail(here(), "nesting too deep");
          indents.push_back(width);
          out.push_back({tok::indent, 0, here(), {}});
        } else if (width < indents.back()) {
          while (width < indents.back()) {
            indents.pop_back();
            out.push_back({tok::dedent, 0, here(), {}});
          }
          if (width != indents.back())
            fail(here(), "unindent does not match any outer indentation level");
        }
      }
      if (pos_ >= s_.size())
        break;
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (c == ' ' || c == '\f') {
        advance();
      } else if (c == '\t') {
        fail(here(), "tab character (indent and separate with spaces)");
      } else if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r')
          advance();
      } else if (c == '\n' || c == '\r') {
        if (brackets_.empty() && !out.empty() && out.back().kind != tok::newline &&
            out.back().kind != tok::indent && out.back().kind != tok::dedent)
          out.push_back({tok::newline, 0, here(), {}});
        newline();
        line_start = true;
      } else if (c == '\\') {
        const auto at = here();
        advance();
        if (pos_ >= s_.size() || (s_[pos_] != '\n' && s_[pos_] != '\r'))
          fail(at, "unexpected character after line continuation");
        newline();
      } else if (is_ident_start(c)) {
        const auto at = here();
        const std::size_t b = pos_;
        while (pos_ < s_.size() && is_ident_char(static_cast<unsigned char>(s_[pos_])))
          advance();
        if (pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\''))
          fail(at, "string prefixes are not supported");
        out.push_back({tok::name, 0, at, s_.substr(b, pos_ - b)});
      } else if (is_digit(c) || (c == '.' && pos_ + 1 < s_.size() &&
                                 is_digit(static_cast<unsigned char>(s_[pos_ + 1])))) {
        out.push_back(number());
      } else if (c == '"' || c == '\'') {
        out.push_back(string());
      } else {
        out.push_back(op());
      }
    }
    if (!brackets_.empty())
      fail(brackets_.back().second, std::string("'") + brackets_.back().first +
                                        "' was never closed (unexpected end of file)");
    if (!out.empty() && out.back().kind != tok::newline && out.back().kind != tok::dedent &&
        out.back().kind != tok::indent)
      out.push_back({tok::newline, 0, here(), {}});
    for (std::size_t i = 1; i < indents.size(); ++i)
      out.push_back({tok::dedent, 0, here(), {}});
    out.push_back({tok::end, 0, here(), {}});
    return {std::move(out), std::move(strings_)};
  }

private:
  source_location here() const { return {line_, col_}; }

  void advance() {
    // Columns count characters: UTF-8 continuation bytes do not start one.
    const auto c = static_cast<unsigned char>(s_[pos_++]);
    if ((c & 0xC0) != 0x80)
      ++col_;
  }
  void newline() {
    if (s_[pos_] == '\r' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n')
      ++pos_;
    ++pos_;
    ++line_;
    col_ = 1;
  }

  token number() {
    const auto at = here();
    const std::size_t b = pos_;
    auto digits = [&] {
      while (pos_ < s_.size() && (is_ident_char(static_cast<unsigned char>(s_[pos_]))))
        advance();
    };
    digits();
    // A float: kept opaque (its spelling), the pass never needs its value.
    if (pos_ < s_.size() && s_[pos_] == '.' &&
        !(pos_ + 1 < s_.size() && is_ident_start(static_cast<unsigned char>(s_[pos_ + 1])) &&
          s_[pos_ + 1] != 'e' && s_[pos_ + 1] != 'E')) {
      advance();
      digits();
    }
    if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-') &&
        (s_[pos_ - 1] == 'e' || s_[pos_ - 1] == 'E') && !s_.substr(b, 2).starts_with("0x") &&
        !s_.substr(b, 2).starts_with("0X")) {
      advance();
      digits();
    }
    return {tok::number, 0, at, s_.substr(b, pos_ - b)};
  }

  static int hex_value(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }

  token string() {
    const auto at = here();
    const std::size_t b = pos_;
    const char q = s_[pos_];
    const bool triple = pos_ + 2 < s_.size() && s_[pos_ + 1] == q && s_[pos_ + 2] == q;
    const std::size_t open = triple ? 3 : 1;
    for (std::size_t i = 0; i < open; ++i)
      advance();
    std::string value;
    while (true) {
      if (pos_ >= s_.size())
        fail(at, "unterminated string literal");
      const char c = s_[pos_];
      if (c == q && (!triple || (pos_ + 2 < s_.size() && s_[pos_ + 1] == q && s_[pos_ + 2] == q))) {
        for (std::size_t i = 0; i < open; ++i)
          advance();
        break;
      }
      if (c == '\n' || c == '\r') {
        if (!triple)
          fail(at, "unterminated string literal");
        value += '\n';
        newline();
        continue;
      }
      if (c == '\\') {
        advance();
        if (pos_ >= s_.size())
          fail(at, "unterminated string literal");
        const char e = s_[pos_];
        if (e == '\n' || e == '\r') {
          newline();
          continue;
        }
        advance();
        switch (e) {
        case 'n':
          value += '\n';
          break;
        case 't':
          value += '\t';
          break;
        case 'r':
          value += '\r';
          break;
        case '0':
          value += '\0';
          break;
        case '\\':
        case '\'':
        case '"':
          value += e;
          break;
        case 'x': {
          const int h = pos_ + 1 < s_.size() ? hex_value(s_[pos_]) : -1;
          const int l = h >= 0 ? hex_value(s_[pos_ + 1]) : -1;
          if (l < 0)
            fail(at, "invalid \\x escape in string literal");
          advance();
          advance();
          value += static_cast<char>(h * 16 + l);
          break;
        }
        default:
          value += '\\';
          value += e;
        }
        continue;
      }
      value += c;
      advance();
    }
    strings_.push_back(std::move(value));
    return {tok::string, static_cast<std::uint32_t>(strings_.size() - 1), at,
            s_.substr(b, pos_ - b)};
  }

  token op() {
    const auto at = here();
    static constexpr std::array<std::string_view, 9> two{"==", "!=", "<=", ">=", "//",
                                                         "->", "**", "+=", "-="};
    for (auto t : two)
      if (s_.substr(pos_, 2) == t) {
        if (t == "**" || t == "+=" || t == "-=")
          fail(at, "operator '" + std::string(t) + "' is not supported");
        advance();
        advance();
        return {tok::op, 0, at, s_.substr(pos_ - 2, 2)};
      }
    const char c = s_[pos_];
    constexpr std::string_view one = "()[],:.=<>+-*/%@;";
    if (one.find(c) == std::string_view::npos || c == '\0')
      fail(at, "unexpected " + describe_byte(static_cast<unsigned char>(c)));
    if (c == '(' || c == '[') {
      if (brackets_.size() >= max_nesting)
        fail(at, "nesting too deep");
      brackets_.emplace_back(c, at);
    } else if (c == ')' || c == ']') {
      const char want = c == ')' ? '(' : '[';
      if (brackets_.empty())
        fail(at, std::string("unmatched '") + c + "'");
      if (brackets_.back().first != want)
        fail(at,
             std::string("closing '") + c + "' does not match '" + brackets_.back().first + "'");
      brackets_.pop_back();
    }
    advance();
    return {tok::op, 0, at, s_.substr(pos_ - 1, 1)};
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t col_ = 1;
  std::vector<std::pair<char, source_location>> brackets_;
  std::vector<std::string> strings_;
};

/// An expression under construction, with the height of its tree.
struct node {
  std::shared_ptr<expression> e;
  std::uint32_t depth = 1;
};

using mutable_expr = std::shared_ptr<expression>;
using mutable_stmt = std::shared_ptr<statement>;

class parser {
public:
  explicit parser(lexed l) : t_(std::move(l.tokens)), strings_(std::move(l.strings)) {}

  program_ptr run() {
    auto prog = std::make_shared<program>();
    skip_newlines();
    bool have_class = false;
    while (!at_end()) {
      if (is_name("import") || is_name("from")) {
        skip_import();
      } else if (peek().kind == tok::string && peek(1).kind == tok::newline) {
        next(); // a module docstring
        next();
      } else if (is_op("@") || is_name("class")) {
        if (have_class)
          fail(peek().where, "a file holds one program: a second class");
        parse_class(*prog);
        have_class = true;
      } else {
        fail(peek().where, "expected an import or '@pl.program' followed by 'class NAME:'");
      }
      skip_newlines();
    }
    if (!have_class)
      fail(peek().where, "expected a program: '@pl.program' followed by 'class NAME:'");
    for (auto& [call, name] : pending_calls_) {
      auto it = signatures_.find(name);
      if (it != signatures_.end())
        call->callee = it->second;
    }
    prog->variable_bound = next_id_;
    return prog;
  }

private:
  // ---- tokens
  const token& peek(std::size_t k = 0) const {
    const std::size_t i = std::min(i_ + k, t_.size() - 1);
    return t_[i];
  }
  const token& next() {
    const token& t = t_[i_];
    if (i_ + 1 < t_.size())
      ++i_;
    return t;
  }
  bool at_end() const { return peek().kind == tok::end; }
  bool is_op(std::string_view o, std::size_t k = 0) const {
    return peek(k).kind == tok::op && peek(k).text == o;
  }
  bool is_name(std::string_view n, std::size_t k = 0) const {
    return peek(k).kind == tok::name && peek(k).text == n;
  }
  static std::string describe(const token& t) {
    switch (t.kind) {
    case tok::name:
    case tok::op:
      return "'" + std::string(t.text) + "'";
    case tok::number:
      return "number";
    case tok::string:
      return "string";
    case tok::newline:
      return "end of line";
    case tok::indent:
      return "indent";
    case tok::dedent:
      return "dedent";
    case tok::end:
      return "end of file";
    }
    return "token";
  }
  [[noreturn]] void unexpected(std::string_view wanted) const {
    fail(peek().where, "expected " + std::string(wanted) + ", got " + describe(peek()));
  }
  const token& expect_op(std::string_view o) {
    if (!is_op(o))
      unexpected("'" + std::string(o) + "'");
    return next();
  }
  const token& expect_identifier(std::string_view what) {
    if (peek().kind != tok::name || is_reserved(peek().text))
      unexpected(what);
    return next();
  }
  void expect_newline() {
    if (peek().kind != tok::newline && peek().kind != tok::end)
      unexpected("end of line");
    if (peek().kind == tok::newline)
      next();
  }
  void skip_newlines() {
    while (peek().kind == tok::newline)
      next();
  }

  void skip_import() {
    next();
    while (peek().kind == tok::name || is_op(".") || is_op(",") || is_op("*") || is_op("(") ||
           is_op(")"))
      next();
    expect_newline();
  }

  // ---- nesting guard for the recursive descent
  struct nest {
    parser& p;
    nest(parser& q, source_location at) : p(q) {
      if (++p.depth_ > max_nesting)
        fail(at, "nesting too deep");
    }
    ~nest() { --p.depth_; }
    nest(const nest&) = delete;
    nest& operator=(const nest&) = delete;
  };

  // ---- program structure
  std::vector<node> parse_decorators() {
    std::vector<node> decos;
    while (is_op("@")) {
      next();
      decos.push_back(parse_expression());
      expect_newline();
      skip_newlines();
    }
    return decos;
  }

  void parse_class(program& prog) {
    (void)parse_decorators();
    if (!is_name("class"))
      unexpected("'class'");
    next();
    prog.name = std::string(expect_identifier("a class name").text);
    if (is_op("(")) { // base classes: accepted, ignored
      next();
      while (!is_op(")")) {
        (void)parse_expression();
        if (!is_op(","))
          break;
        next();
      }
      expect_op(")");
    }
    expect_op(":");
    if (peek().kind != tok::newline)
      unexpected("end of line after 'class NAME:'");
    next();
    if (peek().kind != tok::indent)
      unexpected("an indented class body");
    next();
    while (peek().kind != tok::dedent && !at_end()) {
      if (peek().kind == tok::string && peek(1).kind == tok::newline) {
        next(); // docstring
        next();
      } else if (is_name("pass")) {
        next();
        expect_newline();
      } else if (is_op("@") || is_name("def")) {
        prog.functions.push_back(parse_function());
      } else {
        unexpected("a function ('@pl.function(...)' then 'def')");
      }
      skip_newlines();
    }
    if (peek().kind == tok::dedent)
      next();
  }

  static std::string spelling(const expression& e) {
    // The dotted name a chain of attributes spells, rooted at an unbound name.
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

  function_ptr parse_function() {
    names_.clear(); // names are per function, decorators included
    windows_.clear();
    const auto decos = parse_decorators();
    auto sig = std::make_shared<signature>();
    bool explicit_level = false;
    bool level_known = true;
    for (const auto& d : decos) {
      const expression& e = *d.e;
      const bool call = e.what == expression::kind::call;
      const expression* callee = call ? e.base.get() : &e;
      if (!callee || spelling(*callee) != "pl.function")
        continue;
      for (const auto& k : e.keywords) {
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
    // cli.md: an orchestrator without a level is a chip orchestrator.
    if (!explicit_level)
      sig->level = commscope::level::chip;
    else if (!level_known)
      sig->level = commscope::level::other;

    auto fn = std::make_shared<function>();
    if (!is_name("def"))
      unexpected("'def'");
    fn->where = next().where;
    sig->name = std::string(expect_identifier("a function name").text);
    if (signatures_.find(sig->name) == signatures_.end())
      signatures_.emplace(sig->name, sig);
    expect_op("(");
    bool first = true;
    while (!is_op(")")) {
      const token& pn = expect_identifier("a parameter name");
      // `self` is implicit: it is no variable, so that self.NAME(...) stays a call.
      if (first && pn.text == "self" && !is_op(":")) {
        first = false;
        if (!is_op(","))
          break;
        next();
        continue;
      }
      first = false;
      auto v = new_variable(pn.text);
      if (is_op(":")) {
        next();
        auto ty = std::make_shared<type>();
        ty->annotation = parse_expression().e;
        v->var_type = ty;
      }
      fn->params.push_back({v});
      bind(v);
      if (!is_op(","))
        break;
      next();
    }
    expect_op(")");
    if (is_op("->")) {
      next();
      fn->returns = parse_expression().e;
    }
    expect_op(":");
    fn->body = parse_block();
    fn->sig = sig;
    return fn;
  }

  // ---- statements
  std::shared_ptr<variable> new_variable(std::string_view name) {
    auto v = std::make_shared<variable>();
    v->id = next_id_++;
    v->name = std::string(name);
    return v;
  }
  void bind(const std::shared_ptr<variable>& v) { names_[v->name] = v; }

  std::vector<statement_ptr> parse_block() {
    nest guard(*this, peek().where);
    std::vector<statement_ptr> body;
    if (peek().kind != tok::newline) { // `if x: pass` on one line
      parse_simple_line(body);
      return body;
    }
    next();
    if (peek().kind != tok::indent)
      unexpected("an indented block");
    next();
    while (peek().kind != tok::dedent && !at_end())
      parse_statement(body);
    if (peek().kind == tok::dedent)
      next();
    return body;
  }

  void parse_statement(std::vector<statement_ptr>& out) {
    const token& t = peek();
    if (t.kind == tok::name) {
      if (t.text == "for")
        return out.push_back(parse_for());
      if (t.text == "while")
        return out.push_back(parse_while());
      if (t.text == "if")
        return out.push_back(parse_if());
      if (t.text == "with")
        return out.push_back(parse_with());
      if (t.text == "def" || t.text == "class")
        fail(t.where, "nested definitions are not supported");
    }
    if (is_op("@"))
      fail(t.where, "nested definitions are not supported");
    if (t.kind == tok::indent)
      fail(t.where, "unexpected indent");
    parse_simple_line(out);
  }

  void parse_simple_line(std::vector<statement_ptr>& out) {
    while (true) {
      if (auto s = parse_simple())
        out.push_back(std::move(s));
      if (!is_op(";"))
        break;
      next();
      if (peek().kind == tok::newline || at_end())
        break;
    }
    expect_newline();
  }

  statement_ptr parse_simple() {
    const token& t = peek();
    auto s = std::make_shared<statement>();
    s->where = t.where;
    if (t.kind == tok::name && t.text == "pass") {
      next();
      s->what = statement::kind::pass;
      return s;
    }
    if (t.kind == tok::name && t.text == "return") {
      next();
      s->what = statement::kind::return_;
      if (peek().kind != tok::newline && !is_op(";") && !at_end()) {
        bool bare = false;
        node v = parse_expression_list(&bare);
        if (bare)
          s->values.assign(v.e->args.begin(), v.e->args.end());
        else
          s->values.push_back(v.e);
      }
      return s;
    }
    if (t.kind == tok::name && is_reserved(t.text) && t.text != "not" && t.text != "True" &&
        t.text != "False" && t.text != "None")
      fail(t.where, "'" + std::string(t.text) + "' is not supported here");
    // Assignment: NAME (, NAME)* [,] = EXPR
    std::size_t k = 0;
    std::vector<std::string_view> names;
    while (peek(k).kind == tok::name && !is_reserved(peek(k).text)) {
      names.push_back(peek(k).text);
      ++k;
      if (!is_op(",", k))
        break;
      ++k;
    }
    if (!names.empty() && is_op("=", k)) {
      i_ += k + 1;
      return parse_assignment(std::move(s), names);
    }
    node v = parse_expression_list(nullptr);
    if (is_op("="))
      fail(peek().where, "only names can be assigned to");
    if (v.e->what == expression::kind::string)
      return nullptr; // a docstring
    s->what = statement::kind::evaluate;
    s->value = v.e;
    return s;
  }

  statement_ptr parse_assignment(std::shared_ptr<statement> s,
                                 const std::vector<std::string_view>& names) {
    s->what = statement::kind::assign;
    node rhs = parse_expression_list(nullptr);
    expression& e = *rhs.e;
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
      // A plain copy of an allocation's pointer still names its window buffer.
      if (auto w = window_of(e))
        windows_[vars[0]->id] = std::move(w);
    }
    for (auto& v : vars) {
      bind(v);
      s->targets.push_back(v);
    }
    s->value = rhs.e;
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
    // Every enclosing scope that lists the name holds the same object: printed IR may
    // show one window buffer in two scopes (the verifier's concern, not the parser's).
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
    auto s = std::make_shared<statement>();
    s->what = statement::kind::for_loop;
    s->where = next().where;
    const token& vn = expect_identifier("a loop variable");
    const std::string_view var_name = vn.text;
    if (!is_name("in"))
      unexpected("'in' (only 'for NAME in range(...)' loops are supported)");
    next();
    const source_location iter_at = peek().where;
    node it = parse_expression();
    const expression& call = *it.e;
    const bool ok_call = call.what == expression::kind::call && call.base &&
                         (spelling(*call.base) == "pl.range" || spelling(*call.base) == "range") &&
                         !call.args.empty() && call.args.size() <= 3 && call.keywords.empty();
    if (!ok_call)
      fail(iter_at, "expected range(...) or pl.range(...) with one to three arguments");
    s->builtin_range = spelling(*call.base) == "range";
    s->range_arity = static_cast<std::uint8_t>(call.args.size());
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
    expect_op(":");
    auto v = new_variable(var_name);
    bind(v);
    s->loop_var = v;
    s->body = parse_block();
    return s;
  }

  statement_ptr parse_while() {
    auto s = std::make_shared<statement>();
    s->what = statement::kind::while_loop;
    s->where = next().where;
    s->value = parse_expression().e;
    expect_op(":");
    s->body = parse_block();
    return s;
  }

  statement_ptr parse_if() {
    // An elif chain nests in the IR, so its links count as nesting too.
    std::vector<std::shared_ptr<statement>> chain;
    const std::uint32_t saved = depth_;
    while (true) {
      auto s = std::make_shared<statement>();
      s->what = statement::kind::if_else;
      s->is_elif = !chain.empty();
      s->where = next().where;
      if (!chain.empty() && ++depth_ > max_nesting)
        fail(s->where, "nesting too deep");
      s->value = parse_expression().e;
      expect_op(":");
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
    depth_ = saved;
    for (std::size_t i = chain.size() - 1; i > 0; --i)
      chain[i - 1]->orelse.push_back(chain[i]);
    return chain.front();
  }

  struct open_scope {
    std::vector<std::string> names;
    std::vector<std::shared_ptr<window_buffer>> found;
  };

  statement_ptr parse_with() {
    auto s = std::make_shared<statement>();
    s->what = statement::kind::scope;
    s->where = next().where;
    const source_location at = peek().where;
    node h = parse_expression();
    const expression& e = *h.e;
    if (e.what != expression::kind::call || !e.base || spelling(*e.base) != "pld.comm_domain")
      fail(at, "only 'with pld.comm_domain(...)' blocks are supported");
    if (e.args.size() != 1 || e.args[0]->what != expression::kind::string)
      fail(at, "pld.comm_domain takes one positional argument, the scope name string");
    s->scope_name = e.args[0]->text;
    open_scope sc;
    for (const auto& k : e.keywords) {
      const expression& v = *k.value;
      if (k.name == "devices") {
        if (v.what == expression::kind::string && v.text == "all") {
          s->all_devices = true;
        } else if (v.what == expression::kind::list) {
          s->all_devices = false;
          for (const auto& d : v.args) {
            if (d->what != expression::kind::integer || d->overflow)
              fail(d->where, "a device must be an integer");
            s->devices.push_back(d->value);
          }
        } else {
          fail(v.where, "devices= must be \"all\" or a list of integers");
        }
      } else if (k.name == "slots") {
        if (v.what != expression::kind::list)
          fail(v.where, "slots= must be a list of allocation names");
        for (const auto& n : v.args) {
          if (n->what == expression::kind::string) // a name that is no identifier
            sc.names.push_back(n->text);
          else if (n->what == expression::kind::name)
            sc.names.push_back(n->var ? n->var->name : n->text);
          else
            fail(n->where, "a slot must be an allocation name");
        }
      } else {
        fail(v.where, "unknown keyword '" + k.name + "' of pld.comm_domain");
      }
    }
    sc.found.resize(sc.names.size());
    expect_op(":");
    scopes_.push_back(std::move(sc));
    s->body = parse_block();
    open_scope done = std::move(scopes_.back());
    scopes_.pop_back();
    for (std::size_t i = 0; i < done.names.size(); ++i) {
      if (!done.found[i])
        fail(s->where, "slot '" + done.names[i] + "' names no allocation in this comm_domain");
      s->slots.push_back(done.found[i]);
    }
    return s;
  }

  // ---- expressions
  node make(expression::kind k, source_location at, std::uint32_t depth) {
    if (depth > max_expression_depth)
      fail(at, "expression nested too deep");
    auto e = std::make_shared<expression>();
    e->what = k;
    e->where = at;
    return {std::move(e), depth};
  }

  /// EXPR or EXPR, EXPR, ... (a tuple without parentheses); *bare tells which.
  node parse_expression_list(bool* bare) {
    const source_location at = peek().where;
    node first = parse_expression();
    if (!is_op(","))
      return first;
    node t = make(expression::kind::tuple, at, 1);
    std::uint32_t d = first.depth;
    t.e->args.push_back(first.e);
    while (is_op(",")) {
      next();
      if (peek().kind == tok::newline || is_op("=") || is_op(";") || at_end())
        break;
      node x = parse_expression();
      d = std::max(d, x.depth);
      t.e->args.push_back(x.e);
    }
    if (bare)
      *bare = true;
    return finish(t, d);
  }

  node finish(node n, std::uint32_t child_depth) {
    n.depth = child_depth + 1;
    if (n.depth > max_expression_depth)
      fail(n.e->where, "expression nested too deep");
    return n;
  }

  node parse_expression() {
    nest guard(*this, peek().where);
    return parse_or();
  }

  node binary(node l, std::string_view op, node r) {
    node b = make(expression::kind::binary, l.e->where, 1);
    b.e->text = std::string(op);
    b.e->args = {l.e, r.e};
    return finish(b, std::max(l.depth, r.depth));
  }

  node parse_or() {
    node l = parse_and();
    while (is_name("or")) {
      next();
      l = binary(l, "or", parse_and());
    }
    return l;
  }
  node parse_and() {
    node l = parse_not();
    while (is_name("and")) {
      next();
      l = binary(l, "and", parse_not());
    }
    return l;
  }
  node parse_not() {
    if (!is_name("not"))
      return parse_comparison();
    const source_location at = next().where;
    nest guard(*this, at);
    node x = parse_not();
    node u = make(expression::kind::unary, at, 1);
    u.e->text = "not";
    u.e->args = {x.e};
    return finish(u, x.depth);
  }
  node parse_comparison() {
    node l = parse_arith();
    while (peek().kind == tok::op &&
           (peek().text == "==" || peek().text == "!=" || peek().text == "<" ||
            peek().text == "<=" || peek().text == ">" || peek().text == ">=")) {
      const std::string_view op = next().text;
      l = binary(l, op, parse_arith());
    }
    return l;
  }
  node parse_arith() {
    node l = parse_term();
    while (is_op("+") || is_op("-")) {
      const std::string_view op = next().text;
      l = binary(l, op, parse_term());
    }
    return l;
  }
  node parse_term() {
    node l = parse_unary();
    while (is_op("*") || is_op("/") || is_op("//") || is_op("%")) {
      const std::string_view op = next().text;
      l = binary(l, op, parse_unary());
    }
    return l;
  }
  node parse_unary() {
    if (!is_op("-") && !is_op("+"))
      return parse_primary();
    const token& t = next();
    const bool minus = t.text == "-";
    const source_location at = t.where;
    nest guard(*this, at);
    node x = parse_unary();
    if (!minus)
      return x; // unary plus is the identity on everything the grammar has
    expression& v = *x.e;
    // Fold a negated integer literal, so `device=-1` is the constant -1.
    if (v.what == expression::kind::integer) {
      if (!v.overflow && v.value != INT64_MIN) {
        v.value = -v.value;
        v.where = at;
        return x;
      }
      if (v.overflow && v.text == "9223372036854775808") {
        v.overflow = false;
        v.text.clear();
        v.value = INT64_MIN;
        v.where = at;
        return x;
      }
    }
    node u = make(expression::kind::unary, at, 1);
    u.e->text = "-";
    u.e->args = {x.e};
    return finish(u, x.depth);
  }

  void parse_call_arguments(expression& call, std::uint32_t& depth) {
    // after '('
    while (!is_op(")")) {
      if (peek().kind == tok::name && is_op("=", 1)) {
        const token& kn = expect_identifier("a keyword name");
        next();
        node v = parse_expression();
        depth = std::max(depth, v.depth);
        call.keywords.push_back({std::string(kn.text), v.e});
      } else {
        if (!call.keywords.empty())
          fail(peek().where, "positional argument follows keyword argument");
        if (is_op("*") || is_op("**"))
          fail(peek().where, "argument unpacking is not supported");
        node v = parse_expression();
        depth = std::max(depth, v.depth);
        call.args.push_back(v.e);
      }
      if (!is_op(","))
        break;
      next();
    }
    expect_op(")");
  }

  node parse_primary() {
    const source_location at = peek().where;
    node x = parse_atom();
    while (true) {
      if (is_op(".")) {
        next();
        const token& an = peek();
        if (an.kind != tok::name)
          unexpected("an attribute name");
        next();
        node a = make(expression::kind::attribute, at, 1);
        a.e->text = std::string(an.text);
        a.e->base = x.e;
        x = finish(a, x.depth);
      } else if (is_op("(")) {
        next();
        x = make_call(at, x);
      } else if (is_op("[")) {
        next();
        node s = make(expression::kind::subscript, at, 1);
        s.e->base = x.e;
        std::uint32_t d = x.depth;
        while (!is_op("]")) {
          if (is_op(":"))
            fail(peek().where, "slices are not supported");
          node i = parse_expression();
          if (is_op(":"))
            fail(peek().where, "slices are not supported");
          d = std::max(d, i.depth);
          s.e->args.push_back(i.e);
          if (!is_op(","))
            break;
          next();
        }
        expect_op("]");
        x = finish(s, d);
      } else {
        return x;
      }
    }
  }

  node make_call(source_location at, node callee) {
    node c = make(expression::kind::call, at, 1);
    std::uint32_t d = callee.depth;
    parse_call_arguments(*c.e, d);
    expression& e = *c.e;
    const expression& b = *callee.e;
    // pl.<DTYPE>.get_byte() folds to the byte width.
    if (b.what == expression::kind::attribute && b.text == "get_byte" && e.args.empty() &&
        e.keywords.empty()) {
      const std::string sp = spelling(*b.base);
      if (sp.starts_with("pl.") && sp.find('.', 3) == std::string::npos)
        if (auto w = dtype_byte_width(std::string_view(sp).substr(3))) {
          node k = make(expression::kind::integer, at, 1);
          k.e->value = w;
          return k;
        }
    }
    if (b.what == expression::kind::attribute && b.base && b.base->what == expression::kind::name &&
        !b.base->var && b.base->text == "self") {
      e.what = expression::kind::function_call;
      e.text = b.text;
      pending_calls_.emplace_back(c.e, b.text);
      return finish(c, d);
    }
    const std::string sp = spelling(b);
    if (const auto op = operation_of_spelling(sp); op != commscope::operation::none) {
      e.what = expression::kind::operation;
      e.op = op;
      e.text = sp;
      if (op == commscope::operation::alloc_window_buffer) {
        // Named after its variable once assigned; until then (or if never) its spelling.
        e.name = sp;
        for (const auto& k : e.keywords)
          if (k.name == "name" && k.value->what == expression::kind::string)
            e.name = k.value->text;
      }
      return finish(c, d);
    }
    e.base = callee.e;
    return finish(c, d);
  }

  node parse_atom() {
    const token& t = peek();
    switch (t.kind) {
    case tok::name: {
      next();
      if (t.text == "True" || t.text == "False") {
        node b = make(expression::kind::boolean, t.where, 1);
        b.e->value = t.text == "True";
        return b;
      }
      if (t.text == "None")
        return make(expression::kind::none, t.where, 1);
      if (is_reserved(t.text))
        fail(t.where, "unexpected '" + std::string(t.text) + "'");
      node n = make(expression::kind::name, t.where, 1);
      auto it = names_.find(std::string(t.text));
      if (it != names_.end())
        n.e->var = it->second;
      else
        n.e->text = std::string(t.text);
      return n;
    }
    case tok::number: {
      next();
      return number(t);
    }
    case tok::string: {
      node s = make(expression::kind::string, t.where, 1);
      while (peek().kind == tok::string) // adjacent literals concatenate
        s.e->text += strings_[next().str];
      return s;
    }
    case tok::op:
      if (t.text == "(") {
        next();
        if (is_op(")")) {
          next();
          return make(expression::kind::tuple, t.where, 1);
        }
        node first = parse_expression();
        if (is_op(")")) {
          next();
          return first; // parentheses only group
        }
        node tup = make(expression::kind::tuple, t.where, 1);
        std::uint32_t d = first.depth;
        tup.e->args.push_back(first.e);
        while (is_op(",")) {
          next();
          if (is_op(")"))
            break;
          node x = parse_expression();
          d = std::max(d, x.depth);
          tup.e->args.push_back(x.e);
        }
        expect_op(")");
        return finish(tup, d);
      }
      if (t.text == "[") {
        next();
        node l = make(expression::kind::list, t.where, 1);
        std::uint32_t d = 0;
        while (!is_op("]")) {
          node x = parse_expression();
          d = std::max(d, x.depth);
          l.e->args.push_back(x.e);
          if (!is_op(","))
            break;
          next();
        }
        expect_op("]");
        return finish(l, d);
      }
      break;
    default:
      break;
    }
    unexpected("an expression");
  }

  node number(const token& t) {
    const std::string_view s = t.text;
    auto fail_number = [&] { fail(t.where, "invalid number '" + std::string(s) + "'"); };
    unsigned base = 10;
    std::size_t b = 0;
    if (s.size() > 1 && s[0] == '0' &&
        std::string_view("xXoObB").find(s[1]) != std::string_view::npos) {
      base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
      b = 2;
    }
    bool is_float = false;
    std::string digits;
    for (std::size_t i = b; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '_')
        continue;
      const int v = (c >= '0' && c <= '9')   ? c - '0'
                    : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                             : -1;
      if (base == 10 && (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
        is_float = true;
        continue;
      }
      if (v < 0 || static_cast<unsigned>(v) >= base)
        fail_number();
      digits += c;
    }
    if (s.empty() || s.back() == '_' || s.find("__") != std::string_view::npos)
      fail_number();
    if (is_float) {
      // Opaque: an unbound-name-like literal printed back as written.
      const std::size_t e = s.find_first_of("eE");
      if (s.find('.') != s.rfind('.') || (e != std::string_view::npos && e + 1 == s.size()))
        fail_number();
      node f = make(expression::kind::name, t.where, 1);
      f.e->text = std::string(s);
      return f;
    }
    if (digits.empty())
      fail_number();
    if (base == 10 && digits.size() > 1 && digits[0] == '0' &&
        digits.find_first_not_of('0') != std::string::npos)
      fail(t.where, "leading zeros in a decimal integer literal are not permitted");
    node n = make(expression::kind::integer, t.where, 1);
    std::uint64_t v = 0;
    bool overflow = false;
    for (char c : digits) {
      const unsigned d = (c >= '0' && c <= '9')   ? static_cast<unsigned>(c - '0')
                         : (c >= 'a' && c <= 'f') ? static_cast<unsigned>(c - 'a' + 10)
                                                  : static_cast<unsigned>(c - 'A' + 10);
      if (v > (static_cast<std::uint64_t>(INT64_MAX) - d) / base) {
        overflow = true;
        break;
      }
      v = v * base + d;
    }
    if (overflow) {
      n.e->overflow = true;
      n.e->text = std::string(s);
    } else {
      n.e->value = static_cast<std::int64_t>(v);
    }
    return n;
  }

  std::deque<token> t_;
  std::vector<std::string> strings_;
  std::size_t i_ = 0;
  std::uint32_t depth_ = 0;
  std::uint32_t next_id_ = 0;
  std::unordered_map<std::string, std::shared_ptr<variable>> names_;
  std::unordered_map<std::uint32_t, window_buffer_ptr> windows_;
  std::vector<open_scope> scopes_;
  std::unordered_map<std::string, signature_ptr> signatures_;
  std::vector<std::pair<std::shared_ptr<expression>, std::string>> pending_calls_;
};

} // namespace parser_detail

inline parse_result parse(std::string_view text) {
  parse_result r;
  try {
    auto toks = parser_detail::lexer(text).run();
    r.program = parser_detail::parser(std::move(toks)).run();
  } catch (const parser_detail::failure& f) {
    r.program = nullptr;
    r.error = syntax_error{f.where.line, f.where.column, f.message};
  } catch (const std::bad_alloc&) {
    r.program = nullptr;
    r.error = syntax_error{1, 1, "out of memory"};
  } catch (const std::exception& e) {
    r.program = nullptr;
    r.error = syntax_error{1, 1, std::string("internal error: ") + e.what()};
  }
  return r;
}

} // namespace commscope::reference
