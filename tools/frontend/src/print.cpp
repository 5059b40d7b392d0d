// Prints the reference IR in the text form that the parser reads back
// (docs/commscope-opt.md, "The text form: Python modules").
//
// Both printers work off explicit stacks, never the call stack: a program built in
// memory (not parsed) may nest statements and expressions arbitrarily deep.
#include "keywords.hpp"
#include "source_text.hpp"

#include <commscope/detail/operations.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/ir.hpp>
#include <commscope/traits.hpp>

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace commscope::frontend {

using namespace commscope::reference;
using detail::source_text;
using detail::statement_text;

void append_progression(std::string& out, device_progression p, std::string_view world_size) {
  out += "range(";
  out += std::to_string(p.start);
  out += ", ";
  out += world_size;
  if (p.stop_offset != 0) {
    out += " - ";
    out += std::to_string(p.stop_offset);
  }
  if (p.step != 1) {
    out += ", ";
    out += std::to_string(p.step);
  }
  out += ')';
}

namespace {

constexpr int primary = 9; ///< atoms, calls, attributes, subscripts

int precedence(const expression& e) {
  using k = expression::kind;
  switch (e.what) {
  case k::binary: {
    const std::string_view t = e.text();
    if (t == "or")
      return 1;
    if (t == "and")
      return 2;
    if (t == "+" || t == "-")
      return 5;
    if (t == "*" || t == "/" || t == "//" || t == "%")
      return 6;
    return 4; // comparisons
  }
  case k::unary:
    return e.text() == "not" ? 3 : 7;
  case k::integer:
    return e.value() < 0 ? 7 : primary;
  case k::opaque:
    return 0; // a Python form as written: parenthesized inside any operator
  default:
    return primary;
  }
}

/// The long spelling of an operation (`pld.tensor.allreduce`, `pld.window`): names from
/// the analysis's table of operations.
std::string_view default_spelling(commscope::operation op) {
  static const auto spellings = [] {
    std::array<std::string, commscope::detail::operation_table.size()> a;
    a[0] = "pld.operation";
    for (std::size_t i = 1; i < a.size(); ++i) {
      const auto& r = commscope::detail::operation_table[i];
      a[i] = std::string(r.collective ? "pld.tensor." : "pld.") + std::string(r.name);
    }
    return a;
  }();
  const auto i = static_cast<std::size_t>(op);
  return i < spellings.size() ? std::string_view(spellings[i]) : std::string_view(spellings[0]);
}

void append_string_literal(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
}

/// One step of the expression printer: print `e` (parenthesized below `min_prec`), or
/// emit `text`.
struct task {
  const expression* e = nullptr;
  int min_prec = 0;
  std::string_view text;
  bool quoted = false; ///< emit `text` as a string literal
};

/// A leaf printed as is wherever it stands: a name, or an integer that is neither
/// negative nor too large for 64 bits.
bool is_plain_leaf(const expression& e) {
  using k = expression::kind;
  return (e.what == k::integer && !e.overflow() && e.value() >= 0) || e.what == k::name;
}
void append_plain_leaf(std::string& out, const expression& e) {
  if (e.what == expression::kind::name) {
    out += e.var() ? e.var()->name.view() : e.text().view();
    return;
  }
  char digits[24];
  const auto r = std::to_chars(digits, digits + sizeof digits, e.value());
  out.append(digits, r.ptr);
}

/// An allocation's size such as `1 * 64 * 4`: a chain of binary operators, each the left
/// operand of the next, over plain leaves, none needing parentheses. Printed here the
/// way the general printer below prints it, without its task stacks; false (nothing
/// written) for any other expression.
bool append_leaf_chain(std::string& out, const expression& root) {
  constexpr std::size_t max_links = 8;
  const expression* links[max_links];
  std::size_t n = 0;
  const expression* e = &root;
  while (e->what == expression::kind::binary) {
    const auto args = e->args();
    if (n == max_links || args.size() != 2 || !args[0] || !args[1] || !is_plain_leaf(*args[1]))
      return false;
    links[n++] = e;
    const expression& left = *args[0];
    if (left.what == expression::kind::binary && precedence(left) < precedence(*e))
      return false; // printed in parentheses
    e = &left;
  }
  if (!is_plain_leaf(*e))
    return false;
  append_plain_leaf(out, *e);
  while (n > 0) {
    const expression& link = *links[--n];
    out += ' ';
    out += link.text().view();
    out += ' ';
    append_plain_leaf(out, *link.args()[1]);
  }
  return true;
}

/// Prints `root`; `extra_name`, when not empty, is appended as a `name="..."` keyword
/// (an allocation whose name differs from its variable's and was not spelled).
void write_expression(std::string& out, const expression& root, std::string_view extra_name = {}) {
  using k = expression::kind;
  // Leaves, the most common operands, directly.
  if (root.what == k::integer && !root.overflow()) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, root.value());
    out.append(digits, r.ptr);
    return;
  }
  if (root.what == k::name) {
    out += root.var() ? root.var()->name.view() : root.text().view();
    return;
  }
  if (root.what == k::binary && append_leaf_chain(out, root))
    return;
  // Scratch stacks kept between calls (the printer never calls itself back).
  thread_local std::vector<task> stack;
  thread_local std::vector<task> seq; // one node's pieces in order, pushed reversed
  stack.clear();
  stack.push_back({&root, 0, {}, false});
  auto args_into = [&](const expression& e, bool with_keywords, std::string_view name_kw) {
    bool first = true;
    for (const auto& a : e.args()) {
      if (!first)
        seq.push_back({nullptr, 0, ", ", false});
      first = false;
      seq.push_back({a.get(), 0, {}, false});
    }
    if (!with_keywords)
      return;
    for (const auto& kw : e.keywords()) {
      if (!first)
        seq.push_back({nullptr, 0, ", ", false});
      first = false;
      seq.push_back({nullptr, 0, kw.name.view(), false});
      seq.push_back({nullptr, 0, "=", false});
      seq.push_back({kw.value.get(), 0, {}, false});
    }
    if (!name_kw.empty()) {
      if (!first)
        seq.push_back({nullptr, 0, ", ", false});
      seq.push_back({nullptr, 0, "name=", false});
      seq.push_back({nullptr, 0, name_kw, true});
    }
  };
  while (!stack.empty()) {
    const task t = stack.back();
    stack.pop_back();
    if (!t.e) {
      if (t.quoted)
        append_string_literal(out, t.text);
      else
        out += t.text;
      continue;
    }
    const expression& e = *t.e;
    seq.clear();
    const bool paren = precedence(e) < t.min_prec;
    if (paren) {
      out += '(';
      stack.push_back({nullptr, 0, ")", false});
    }
    switch (e.what) {
    case k::integer:
      if (e.overflow()) {
        out += e.text().view();
      } else {
        char digits[24];
        const auto r = std::to_chars(digits, digits + sizeof digits, e.value());
        out.append(digits, r.ptr);
      }
      break;
    case k::boolean:
      out += e.value() ? "True" : "False";
      break;
    case k::none:
      out += "None";
      break;
    case k::string:
      append_string_literal(out, e.text());
      break;
    case k::name:
      out += e.var() ? e.var()->name.view() : e.text().view();
      break;
    case k::attribute:
      if (const auto b = e.base()) {
        // `1.real` would lex as a float: an integer base needs parentheses.
        const bool int_base = b->what == k::integer;
        seq.push_back({b.get(), int_base ? primary + 1 : primary, {}, false});
        seq.push_back({nullptr, 0, ".", false});
      }
      seq.push_back({nullptr, 0, e.text().view(), false});
      break;
    case k::operation:
      seq.push_back(
          {nullptr, 0, e.text().empty() ? default_spelling(e.op) : e.text().view(), false});
      seq.push_back({nullptr, 0, "(", false});
      if (e.op == commscope::operation::alloc_window_buffer && e.base() && e.args().size() == 1) {
        // An allocation by shape: the shape as written (args[0] is its byte size).
        seq.push_back({e.base().get(), 0, {}, false});
        for (const auto& kw : e.keywords()) {
          seq.push_back({nullptr, 0, ", ", false});
          seq.push_back({nullptr, 0, kw.name.view(), false});
          seq.push_back({nullptr, 0, "=", false});
          seq.push_back({kw.value.get(), 0, {}, false});
        }
        if (&e == &root && !extra_name.empty()) {
          seq.push_back({nullptr, 0, ", name=", false});
          seq.push_back({nullptr, 0, extra_name, true});
        }
      } else {
        args_into(e, true, &e == &root ? extra_name : std::string_view{});
      }
      seq.push_back({nullptr, 0, ")", false});
      break;
    case k::opaque:
      out += e.text().view();
      break;
    case k::function_call:
      seq.push_back({nullptr, 0, "self.", false});
      seq.push_back({nullptr, 0, e.text().view(), false});
      seq.push_back({nullptr, 0, "(", false});
      args_into(e, true, {});
      seq.push_back({nullptr, 0, ")", false});
      break;
    case k::call:
      if (e.base())
        seq.push_back({e.base().get(), primary, {}, false});
      else
        seq.push_back({nullptr, 0, e.text().view(), false});
      seq.push_back({nullptr, 0, "(", false});
      args_into(e, true, {});
      seq.push_back({nullptr, 0, ")", false});
      break;
    case k::subscript:
      if (e.base())
        seq.push_back({e.base().get(), primary, {}, false});
      seq.push_back({nullptr, 0, "[", false});
      if (e.args().empty())
        seq.push_back({nullptr, 0, "()", false});
      args_into(e, false, {});
      seq.push_back({nullptr, 0, "]", false});
      break;
    case k::list:
      seq.push_back({nullptr, 0, "[", false});
      args_into(e, false, {});
      seq.push_back({nullptr, 0, "]", false});
      break;
    case k::tuple:
      seq.push_back({nullptr, 0, "(", false});
      args_into(e, false, {});
      if (e.args().size() == 1)
        seq.push_back({nullptr, 0, ",", false});
      seq.push_back({nullptr, 0, ")", false});
      break;
    case k::unary: {
      const bool is_not = e.text() == "not";
      seq.push_back({nullptr, 0, is_not ? "not " : "-", false});
      if (!e.args().empty())
        seq.push_back({e.args()[0].get(), is_not ? 3 : 7, {}, false});
      break;
    }
    case k::binary: {
      const int p = precedence(e);
      if (e.args().size() == 2) {
        seq.push_back({e.args()[0].get(), p, {}, false});
        seq.push_back({nullptr, 0, " ", false});
        seq.push_back({nullptr, 0, e.text().view(), false});
        seq.push_back({nullptr, 0, " ", false});
        seq.push_back({e.args()[1].get(), p + 1, {}, false});
      }
      break;
    }
    }
    for (auto it = seq.rbegin(); it != seq.rend(); ++it)
      stack.push_back(*it);
  }
}

void indent_to(std::string& out, std::size_t level) { out.append(4 * level, ' '); }

bool is_implicit(const expression_ptr& e, std::int64_t v) {
  return !e || (e->what == expression::kind::integer && !e->overflow() && e->value() == v);
}

void append_window_comment(std::string& out, const statement& s) {
  out += " # window_buffer=";
  const std::string_view name = s.targets()[0]->var_type->window->name;
  if (is_plain_name(name)) // a comment: a raw line break in a name would end it
    out += name;
  else
    append_string_literal(out, name);
}

bool has_window_comment(const statement& s) {
  if (s.what != statement::kind::assign)
    return false;
  const auto targets = s.targets();
  return targets.size() == 1 && targets[0] && targets[0]->var_type && targets[0]->var_type->window;
}

/// `module`: how the file spells pypto.language.distributed, for a scope's header.
void append_header(std::string& out, const statement& s, bool elif_as_if = false,
                   std::string_view module = "pld");

/// A statement's text (source_text.hpp) and where its trailing comment starts in it.
struct spelling {
  std::string_view text;
  std::uint32_t comment_at = 0;
};

/// The text a statement prints from: as its author wrote it (`texts`), or, made in
/// memory, its own spelling (ir.hpp); for one a rewrite respelled, the statement spelled
/// from its parts followed by the author's comment (made in `buffer`).
spelling text_of(const statement& s, const source_text* texts, std::string& buffer) {
  using k = statement::kind;
  const statement_text* recorded = texts ? texts->of(s.origin()) : nullptr;
  const spelling written =
      recorded ? spelling{recorded->text, recorded->comment_at} : spelling{s.text(), 0};
  if (!s.respelled() || written.text.empty())
    return written;
  buffer.clear();
  if (s.what == k::block || s.what == k::verbatim)
    buffer += s.what == k::block ? "if True:" : "pass";
  else
    append_header(buffer, s, /*elif_as_if=*/true);
  const std::string_view comment =
      written.comment_at != 0 ? written.text.substr(written.comment_at) : std::string_view();
  std::uint32_t comment_at = 0;
  if (!comment.empty()) {
    comment_at = static_cast<std::uint32_t>(buffer.size());
    buffer += comment;
  }
  return {buffer, comment_at};
}

void append_header(std::string& out, const statement& s, bool elif_as_if, std::string_view module) {
  using k = statement::kind;
  switch (s.what) {
  case k::assign: {
    const auto targets = s.targets();
    for (std::size_t i = 0; i < targets.size(); ++i) {
      if (i)
        out += ", ";
      out += targets[i] ? targets[i]->name.view() : std::string_view("_");
    }
    out += " = ";
    std::string_view extra;
    const auto value = s.value();
    if (value && value->what == expression::kind::operation &&
        value->op == commscope::operation::alloc_window_buffer && targets.size() == 1 &&
        targets[0] && !value->name().empty() && value->name() != targets[0]->name) {
      bool spelled = false;
      for (const auto& kw : value->keywords())
        spelled = spelled || kw.name == "name";
      if (!spelled)
        extra = value->name();
    }
    if (value)
      write_expression(out, *value, extra);
    else
      out += "None";
    if (has_window_comment(s))
      append_window_comment(out, s);
    break;
  }
  case k::evaluate:
    if (const auto v = s.value())
      write_expression(out, *v);
    else
      out += "pass";
    break;
  case k::return_: {
    out += "return";
    const auto values = s.values();
    for (std::size_t i = 0; i < values.size(); ++i) {
      out += i ? ", " : " ";
      write_expression(out, *values[i]);
    }
    break;
  }
  case k::pass:
    out += "pass";
    break;
  case k::for_loop: {
    out += "for ";
    out += s.loop_var() ? s.loop_var()->name.view() : std::string_view("_");
    out += s.builtin_range() ? " in range(" : " in pl.range(";
    int arity = s.range_arity();
    if (!is_implicit(s.step(), 1))
      arity = 3;
    else if (!is_implicit(s.start(), 0) && arity < 2)
      arity = 2;
    if (arity < 1)
      arity = 1;
    auto put = [&](const expression_ptr& e, std::int64_t dflt) {
      if (e)
        write_expression(out, *e);
      else
        out += std::to_string(dflt);
    };
    if (arity >= 2) {
      put(s.start(), 0);
      out += ", ";
    }
    put(s.stop(), 0);
    if (arity == 3) {
      out += ", ";
      put(s.step(), 1);
    }
    out += "):";
    break;
  }
  case k::while_loop:
    out += "while ";
    if (const auto v = s.value())
      write_expression(out, *v);
    else
      out += "True";
    out += ':';
    break;
  case k::if_else:
    out += (s.is_elif() && !elif_as_if) ? "elif " : "if ";
    if (const auto v = s.value())
      write_expression(out, *v);
    else
      out += "True";
    out += ':';
    break;
  case k::block:
  case k::verbatim:
    out += s.text().empty() ? std::string_view("pass") : s.text().view();
    break;
  case k::scope: {
    out += "with ";
    out += module;
    out += ".comm_domain(";
    append_string_literal(out, s.scope_name());
    out += ", devices=";
    const auto devices = s.devices();
    const auto progressions = s.progressions(); // triples: start, step, stop offset
    if (devices.empty() && progressions.empty()) {
      out += "\"all\"";
    } else {
      out += '[';
      for (std::size_t i = 0; i < devices.size(); ++i) {
        if (i)
          out += ", ";
        out += std::to_string(devices[i]);
      }
      const std::string world_size = std::string(module) + ".world_size()";
      for (std::size_t i = 0; i + 2 < progressions.size(); i += 3) {
        if (i || !devices.empty())
          out += ", ";
        append_progression(out, {progressions[i], progressions[i + 1], progressions[i + 2]},
                           world_size);
      }
      out += ']';
    }
    out += ", slots=[";
    const auto slots = s.slots();
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (i)
        out += ", ";
      if (!slots[i])
        out += "None";
      else if (is_plain_name(slots[i]->name))
        out += slots[i]->name.view();
      else
        append_string_literal(out, slots[i]->name);
    }
    out += "]):";
    break;
  }
  }
}

} // namespace

/// The canonical text of one expression (docs/commscope-opt.md, "Sizes": one space around
/// binary operators, parentheses only where precedence needs them, calls as written).
void append_expression(std::string& out, const expression& e) { write_expression(out, e); }

std::string print_expression(const expression& e) {
  std::string out;
  write_expression(out, e);
  return out;
}

namespace {

/// Appends a statement's text as written (source_text.hpp: continuation lines re-indented, lines
/// inside a string literal kept as they are).
/// `indent_first`: the first line is indented here too (else the caller did it). An
/// empty line gets no indentation.
void append_text(std::string& out, std::string_view text, std::string_view indent,
                 std::string_view newline, bool indent_first = false) {
  std::size_t b = 0;
  bool first = true;
  while (b <= text.size()) {
    std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos)
      e = text.size();
    std::string_view line = text.substr(b, e - b);
    if (!first)
      out += newline;
    if (!line.empty() && line.front() == '\0' && !first)
      line.remove_prefix(1);
    else if (!line.empty() && (!first || indent_first))
      out += indent;
    out += line;
    first = false;
    b = e + 1;
  }
}

/// A statement's first line: its text as written when it was parsed, else canonical.
void append_statement(std::string& out, const statement& s, const source_text* texts,
                      std::string_view indent, std::string_view newline, std::string_view module) {
  using k = statement::kind;
  std::string buffer;
  const spelling spelled = text_of(s, texts, buffer);
  if (spelled.text.empty() || s.what == k::scope) {
    out += indent;
    if (s.what == k::block || s.what == k::verbatim)
      out += s.what == k::block ? "if True:" : "pass";
    else
      append_header(out, s, /*elif_as_if=*/true, module);
    return;
  }
  const std::string_view full = spelled.text;
  std::string_view text = full;
  if (s.what == k::if_else && text.starts_with("elif")) { // not alone in an else block
    out += indent;
    out += "if";
    text.remove_prefix(4);
  } else if (!text.empty() && text.front() != '\n') {
    out += indent;
  }
  // The statement, then the window-buffer comment, then the author's own comment.
  const bool window = has_window_comment(s);
  const std::size_t cut =
      window && spelled.comment_at != 0
          ? std::min<std::size_t>(spelled.comment_at + (text.size() - full.size()), text.size())
          : text.size();
  append_text(out, text.substr(0, cut), indent, newline);
  if (window)
    append_window_comment(out, s);
  out += text.substr(cut);
}

/// Appends `body`, each line indented by `indent` and one `unit` more per nested block,
/// lines ended by `newline`; an empty body prints `pass`.
void print_body(std::string& out, const source_text* texts, std::span<const statement_ptr> body,
                std::string_view indent, std::string_view newline, std::string_view unit,
                std::string_view module = "pld") {
  enum class step : std::uint8_t { statement, block, orelse };
  struct item {
    step what;
    const statement* s;
    std::span<const statement_ptr> block;
    std::size_t level;
  };
  std::string prefix;
  auto indent_for = [&](std::size_t level) -> const std::string& {
    prefix.assign(indent);
    for (std::size_t i = 0; i < level; ++i)
      prefix += unit;
    return prefix;
  };
  std::vector<item> stack;
  stack.push_back({step::block, nullptr, body, 0});
  bool first_line = true;
  auto begin_line = [&](std::size_t level) {
    if (!first_line)
      out += newline;
    first_line = false;
    out += indent_for(level);
  };
  while (!stack.empty()) {
    const item it = stack.back();
    stack.pop_back();
    switch (it.what) {
    case step::block:
      if (it.block.empty()) {
        begin_line(it.level);
        out += "pass";
      }
      for (auto r = it.block.rbegin(); r != it.block.rend(); ++r)
        if (*r)
          stack.push_back({step::statement, r->get(), {}, it.level});
      break;
    case step::statement: {
      const statement& s = *it.s;
      if (s.what == statement::kind::verbatim && s.is_jump() && s.text().empty() && s.origin() == 0)
        break; // the front end's jump before a statement that may stop: not in the source
      if (!first_line)
        out += newline;
      first_line = false;
      append_statement(out, s, texts, indent_for(it.level), newline, module);
      switch (s.what) {
      case statement::kind::if_else:
        stack.push_back({step::orelse, &s, {}, it.level});
        [[fallthrough]];
      case statement::kind::for_loop:
      case statement::kind::while_loop:
      case statement::kind::scope:
      case statement::kind::block:
        stack.push_back({step::block, nullptr, s.body(), it.level + 1});
        break;
      default:
        break;
      }
      break;
    }
    case step::orelse: {
      const statement& s = *it.s;
      const auto orelse = s.orelse();
      if (orelse.empty())
        break;
      const statement* only = orelse.size() == 1 ? orelse[0].get() : nullptr;
      begin_line(it.level);
      if (only && only->what == statement::kind::if_else && only->is_elif()) {
        std::string buffer;
        if (const std::string_view text = text_of(*only, texts, buffer).text; !text.empty())
          append_text(out, text, indent_for(it.level), newline);
        else
          append_header(out, *only);
        stack.push_back({step::orelse, only, {}, it.level});
        stack.push_back({step::block, nullptr, only->body(), it.level + 1});
      } else {
        out += "else:";
        stack.push_back({step::block, nullptr, orelse, it.level + 1});
      }
      break;
    }
    }
  }
}

/// Appends `body` at indentation `level` (4 spaces each), one statement a line.
void print_body(std::string& out, const source_text* texts, std::span<const statement_ptr> body,
                std::size_t level) {
  const std::string indent(4 * level, ' ');
  print_body(out, texts, body, indent, "\n", "    ");
  out += '\n';
}

void append_decorator(std::string& out, const signature& sig) {
  out += "@pl.function";
  if (!sig.decorator.empty()) {
    out += '(';
    for (std::size_t i = 0; i < sig.decorator.size(); ++i) {
      if (i)
        out += ", ";
      out += sig.decorator[i].name.view();
      out += '=';
      if (sig.decorator[i].value)
        write_expression(out, *sig.decorator[i].value);
      else
        out += "None";
    }
    out += ')';
    return;
  }
  // A signature built in memory: spell its kind the way the parser reads it back
  // (docs/commscope-opt.md, "Function kinds").
  if (sig.graph)
    out += "(type=pl.FunctionType.Graph)";
  else if (sig.orchestrator && sig.level == commscope::level::host)
    out += "(level=pl.Level.HOST, role=pl.Role.Orchestrator)";
  else if (sig.orchestrator && sig.level == commscope::level::chip)
    out += "(type=pl.FunctionType.Orchestration)";
  else if (sig.orchestrator)
    out += "(level=pl.Level.CLUSTER, role=pl.Role.Orchestrator)";
}

} // namespace

/// The whole program as a module of its own, in the text form (docs/commscope-opt.md, "The
/// text form: Python modules"): a `@pl.program` class, or module-level `@pl.jit` functions
/// for a jit group. Bodies that were not parsed print as `pass`.
void print_statements(std::string& out, const program& in, std::span<const statement_ptr> body,
                      std::string_view indent, std::string_view newline, std::string_view unit,
                      std::string_view module) {
  print_body(out, source_text::of(in), body, indent, newline, unit, module);
}

std::string print(const program& p) {
  const source_text* texts = source_text::of(p);
  const bool jit = p.style == program::form::jit_group;
  const std::size_t level = jit ? 0 : 1;
  std::string out;
  out += "import pypto.language as pl\n";
  out += "import pypto.language.distributed as pld\n\n\n";
  if (!jit) {
    out += "@pl.program\nclass ";
    out += p.name.empty() ? std::string_view("Program") : std::string_view(p.name);
    out += ":\n";
  }
  bool first = true;
  for (const auto& f : p.functions) {
    if (!f)
      continue;
    if (!first)
      out += '\n';
    first = false;
    indent_to(out, level);
    if (jit) {
      const bool host = f->sig && f->sig->orchestrator && f->sig->level == commscope::level::host;
      const bool chip = f->sig && f->sig->orchestrator && f->sig->level == commscope::level::chip;
      out += host ? "@pl.jit.host" : chip ? "@pl.jit" : "@pl.jit.incore";
    } else if (f->sig) {
      append_decorator(out, *f->sig);
    } else {
      out += "@pl.function";
    }
    out += '\n';
    indent_to(out, level);
    out += "def ";
    out += f->sig ? f->sig->name.view() : std::string_view("_");
    out += jit ? "(" : "(self";
    bool first_param = jit;
    for (const auto& prm : f->params) {
      if (!first_param)
        out += ", ";
      first_param = false;
      if (!prm.var) {
        out += '_';
        continue;
      }
      out += prm.var->name.view();
      if (prm.var->var_type && prm.var->var_type->annotation) {
        out += ": ";
        write_expression(out, *prm.var->var_type->annotation);
      }
    }
    out += ')';
    if (f->returns) {
      out += " -> ";
      write_expression(out, *f->returns);
    }
    out += ":\n";
    print_body(out, texts, f->body, level + 1);
  }
  if (first) {
    indent_to(out, level);
    out += "pass\n";
  }
  return out;
}

std::string print(const program_ptr& p) { return p ? print(*p) : std::string(); }

} // namespace commscope::frontend
