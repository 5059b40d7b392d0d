// Python 3's lexical rules (docs/commscope-opt.md, "Lexical rules"): what Python reads is
// read, what Python refuses while tokenizing is a syntax error at the place Python points
// to.
#include "tokens.hpp"

#include <commscope/frontend/frontend.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace ref = commscope::reference;
namespace fe = commscope::frontend;
using fe::detail::tok;

namespace {

std::vector<std::string> kinds_and_texts(std::string_view src) {
  const auto ts = fe::detail::tokenize(src);
  std::vector<std::string> out;
  for (const auto& t : ts.tokens) {
    switch (t.kind()) {
    case tok::newline:
      out.emplace_back("NL");
      break;
    case tok::indent:
      out.emplace_back("IN");
      break;
    case tok::dedent:
      out.emplace_back("DE");
      break;
    case tok::end:
      out.emplace_back("END");
      break;
    default:
      out.emplace_back(ts.text(t));
    }
  }
  return out;
}

fe::syntax_error module_error(std::string_view src) {
  auto m = fe::parse_module(src);
  REQUIRE(m.error);
  return *m.error;
}

void module_ok(std::string_view src) {
  auto m = fe::parse_module(src);
  if (m.error)
    FAIL_CHECK(m.error->line << ":" << m.error->column << ": " << m.error->message);
}

using strings = std::vector<std::string>;

} // namespace

TEST_CASE("brackets join lines, a closing bracket may stand at any indentation") {
  CHECK(kinds_and_texts("def f(\n    a,\n    b,\n):\n    pass\n") ==
        strings{"def", "f", "(", "a", ",", "b", ",", ")", ":", "NL", "IN", "pass", "NL", "DE",
                "END"});
  CHECK(kinds_and_texts("x = [\n1,\n        2]\ny = 3\n") ==
        strings{"x", "=", "[", "1", ",", "2", "]", "NL", "y", "=", "3", "NL", "END"});
  // A backslash joins lines; blank and comment-only lines do not count.
  CHECK(kinds_and_texts("x = 1 + \\\n  2\n\n   # c\ny = 3") ==
        strings{"x", "=", "1", "+", "2", "NL", "y", "=", "3", "NL", "END"});
}

TEST_CASE("tabs count to the next multiple of 8, ambiguity is an error") {
  CHECK(kinds_and_texts("if x:\n\ty = 1\n\tz = 2\n") ==
        strings{"if", "x", ":", "NL", "IN", "y", "=", "1", "NL", "z", "=", "2", "NL", "DE", "END"});
  module_ok("if x:\n        y = 1\nif z:\n\tw = 2\n"); // different blocks may differ
  module_ok("if x:\n\tif y:\n\t    z = 1\n");          // tab then spaces, consistently
  const auto e = module_error("if x:\n        y = 1\n\tz = 2\n");
  CHECK(e.message == "inconsistent use of tabs and spaces in indentation");
  CHECK(e.line == 3);
  CHECK(module_error("if x:\n    y = 1\n  z = 2\n").message ==
        "unindent does not match any outer indentation level");
}

TEST_CASE("every string form, f-strings nested, prefixes in any case") {
  for (std::string_view s : {"'a'",
                             "\"a\"",
                             "'''a\n'b'\n'''",
                             "\"\"\"a\"\"\"",
                             "r'\\\\'",
                             "Rb'x'",
                             "bR\"x\"",
                             "u'x'",
                             "F'{x}'",
                             "rf'{x}\\d'",
                             "fR'{x}'",
                             "f'{x!r:>{width}}'",
                             "f\"{d['k']}\"",
                             "f\"{d[\"k\"]}\"",
                             "f'{{literal}}'",
                             "f'''{\nx\n}'''",
                             "f'{x:{y}.{z}f}'",
                             "f'{f\"{1}\"}'",
                             "f'{x=}'",
                             "f'{a if b else c}'",
                             "f'{(lambda: 1)()}'",
                             "'a' \"b\" f'c'",
                             "f'{x:%H:%M}'",
                             "f'{ {1: 2}[1] }'"}) {
    CAPTURE(s);
    const std::string src = "x = " + std::string(s) + "\n";
    const auto ts = fe::detail::tokenize(src);
    REQUIRE(ts.tokens.size() >= 4);
    CHECK(ts.tokens[2].kind() == tok::string);
    CHECK(ts.tokens[ts.tokens.size() - 2].kind() == tok::newline);
  }
  std::string v;
  CHECK(fe::detail::string_value("'a\\nb\\x41\\''", 0, v));
  CHECK(v == "a\nbA'");
  v.clear();
  CHECK(fe::detail::string_value("r'a\\n'", fe::detail::string_raw, v));
  CHECK(v == "a\\n");
}

TEST_CASE("unterminated strings and f-strings point at their start") {
  auto e = module_error("x = 1\ny = 'abc\n");
  CHECK(e.line == 2);
  CHECK(e.column == 5);
  CHECK(e.message == "unterminated string literal");
  e = module_error("x = '''abc\n\n");
  CHECK(e.message == "unterminated triple-quoted string literal");
  e = module_error("x = f'{a'\n"); // the quote opens a nested string (Python 3.12)
  CHECK(e.line == 1);
  e = module_error("x = f'a}'\n");
  CHECK(e.message == "f-string: single '}' is not allowed");
  e = module_error("x = f'{}'\n");
  CHECK(e.message.find("valid expression required") != std::string::npos);
}

TEST_CASE("every number form, integers are unbounded") {
  for (std::string_view n :
       {"0", "00", "1_000", "0x_ff", "0XFF", "0o17", "0b1_0", "1.", ".5", "1e10", "1.5E-3",
        "1_0.0_1e+1_0", "3j", "1.5J", "0_0", "123456789012345678901234567890"}) {
    CAPTURE(n);
    const std::string src = "x = " + std::string(n) + "\n";
    const auto ts = fe::detail::tokenize(src);
    CHECK(ts.tokens[2].kind() == tok::number);
    CHECK(ts.text(ts.tokens[2]) == n);
  }
  for (std::string_view n : {"1_", "1__0", "08", "0x", "0b2", "1abc", "0o8"}) {
    CAPTURE(n);
    (void)module_error("x = " + std::string(n) + "\n");
  }
  module_ok("x = 1if y else 2\nz = [0x1for x in y]\n"); // keywords right after numbers
}

TEST_CASE("every operator and delimiter") {
  CHECK(kinds_and_texts("a **= b //= c >>= d <<= e ... f -> g := h != i @= j\n") ==
        strings{"a",  "**=", "b",  "//=", "c",  ">>=", "d",  "<<=", "e",  "...", "f",
                "->", "g",   ":=", "h",   "!=", "i",   "@=", "j",   "NL", "END"});
  auto e = module_error("x = 1 $ 2\n");
  CHECK(e.message == "invalid character '$' (U+0024)");
  CHECK(e.column == 7);
  e = module_error("x = a ! b\n");
  CHECK(e.message.find("invalid character '!'") == 0);
}

TEST_CASE("characters above U+007F: in names where Unicode allows them, else Python's error") {
  // Letters of any script, and what normalizes to them (NFKC), are names.
  module_ok("größe = 1\n\u03c0 = 3\n\u4e2d\u6587 = 2\n\ufb01x = 1\nx\u00b7y = 0\n");
  struct case_ {
    std::string source;
    std::string message;
    std::uint32_t column;
  };
  for (const auto& [source, message, column] : {
           case_{"\u20ac = 1\n", "invalid character '\u20ac' (U+20AC)", 1},
           case_{"x = \u201cquoted\u201d\n", "invalid character '\u201c' (U+201C)", 5},
           case_{"a\u200bb = 1\n", "invalid non-printable character U+200B", 2},
           case_{"x = 1\u00a0\n", "invalid non-printable character U+00A0", 6},
           case_{"x = 1\u200b\n", "invalid non-printable character U+200B", 6},
           case_{"\u00b7x = 1\n", "invalid character '\u00b7' (U+00B7)", 1}, // continues only
           case_{"x = \U0001F600\n", "invalid character '\U0001F600' (U+1F600)", 5},
       }) {
    CAPTURE(source);
    const auto e = module_error(source);
    CHECK(e.message == message);
    CHECK(e.line == 1);
    CHECK(e.column == column);
  }
  // A file in another encoding (PEP 263) is read as bytes: its names are not decoded.
  module_ok("# -*- coding: latin-1 -*-\nx\xe9 = 1\n");
}

TEST_CASE("a line continuation at the end of the file is Python's EOF error") {
  auto e = module_error("x = 1 \\\n");
  CHECK(e.message == "unexpected EOF while parsing");
  CHECK(e.line == 1);
  CHECK(e.column == 8);
  module_ok("x = 1 \\\n\n");
}

TEST_CASE("unbalanced brackets are reported where Python reports them") {
  auto e = module_error("x = (1,\n  2\n");
  CHECK(e.message == "'(' was never closed");
  CHECK(e.line == 1);
  CHECK(e.column == 5);
  e = module_error("x = (1]\n");
  CHECK(e.message == "closing parenthesis ']' does not match opening parenthesis '('");
  CHECK(e.column == 7);
  e = module_error("x = 1)\n");
  CHECK(e.message == "unmatched ')'");
  std::string deep = "x = " + std::string(201, '(') + std::string(201, ')') + "\n";
  CHECK(module_error(deep).message == "too many nested parentheses");
  module_ok("x = " + std::string(200, '(') + std::string(200, ')') + "\n");
}

TEST_CASE("BOM and CRLF, columns count characters") {
  module_ok("\xEF\xBB\xBFx = 1\r\nif x:\r\n    y = 2\r\n");
  CHECK(module_error("\xEF\xBB\xBFx = )\n").column == 5); // as Python: the BOM is no column
  const auto e = module_error("s = '\xC3\xA9\xC3\xA9' $\n");
  CHECK(e.column == 10); // 'éé' is four characters, six bytes
  const std::string nul("x = 1\ny = 2\0\n", 13);
  const auto n = module_error(nul);
  CHECK(n.message == "source code cannot contain null bytes");
  CHECK(n.line == 2);
  CHECK(n.column == 6);
}

TEST_CASE("block structure: headers need a block, a stray indent is an error") {
  auto e = module_error("if x:\ny = 1\n");
  CHECK(e.message == "expected an indented block after 'if' statement on line 1");
  CHECK(e.line == 2);
  e = module_error("x = 1\n    y = 2\n");
  CHECK(e.message == "unexpected indent");
  module_ok("if x: y = 1\nelse: y = 2\nclass C: pass\ndef f(): return 1\n");
  module_ok("match x:\n    case [1, *_]:\n        pass\n    case {}:\n        pass\n"
            "match = 1\ncase = match\n");
  module_ok("def f[T](x: T) -> T:\n    return x\ntype X = int\n");
  module_ok("async def f():\n    async with a as b:\n        pass\n    async for x in y:\n"
            "        await x\n");
  module_ok("try:\n    pass\nexcept* ValueError as e:\n    pass\nfinally:\n    pass\n");
}
