// commscope-opt's configuration: the globs, finding the pyproject.toml, reading
// [tool.commscope] and every error it reports.
#include "commscope-opt/config.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using commscope::opt::config;
using commscope::opt::config_error;
using commscope::opt::find_pyproject;
using commscope::opt::load_config;
using commscope::opt::matches_glob;

namespace {

// A fresh directory under the system's temporary one, removed with everything in it.
struct temp_dir {
  fs::path path;
  temp_dir() {
    std::random_device rd;
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    path = fs::temp_directory_path() /
           ("commscope-config-test-" + std::to_string(rd()) + "-" + std::to_string(stamp));
    fs::create_directories(path);
    path = fs::canonical(path);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  // Writes `text` to `rel`, creating its directories; returns the file's path.
  fs::path write(const fs::path& rel, const std::string& text) const {
    const fs::path p = path / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

// The current directory changed for the scope of a test.
struct in_directory {
  fs::path saved = fs::current_path();
  explicit in_directory(const fs::path& p) { fs::current_path(p); }
  in_directory(const in_directory&) = delete;
  in_directory& operator=(const in_directory&) = delete;
  ~in_directory() {
    std::error_code ec;
    fs::current_path(saved, ec);
  }
};

// The message load_config throws for a pyproject.toml holding `text`.
std::string error_of(const std::string& text, const commscope::opt::code_check& known = {}) {
  temp_dir d;
  const fs::path f = d.write("pyproject.toml", text);
  try {
    (void)load_config(f, known);
  } catch (const config_error& e) {
    return e.message;
  }
  return "(no error)";
}

// error_of, with the file's name replaced by FILE.
std::string error_with_file(const std::string& text, const commscope::opt::code_check& known = {}) {
  std::string m = error_of(text, known);
  const std::string marker = "pyproject.toml";
  const auto at = m.find(marker);
  if (at == std::string::npos)
    return m;
  const auto start = m.rfind(' ', at) == std::string::npos ? 0 : m.rfind(' ', at) + 1;
  return m.replace(start, at + marker.size() - start, "FILE");
}

} // namespace

// ---- globs --------------------------------------------------------------------------------

TEST_CASE("glob star question mark and classes within one segment") {
  CHECK(matches_glob("*.py", "a.py"));
  CHECK(matches_glob("*.py", ".py"));
  CHECK(matches_glob("*.py", ".hidden.py"));
  CHECK_FALSE(matches_glob("*.py", "a.pyc"));
  CHECK(matches_glob("a?c.py", "abc.py"));
  CHECK_FALSE(matches_glob("a?c.py", "ac.py"));
  CHECK(matches_glob("src/[abc].py", "src/b.py"));
  CHECK_FALSE(matches_glob("src/[abc].py", "src/d.py"));
  CHECK(matches_glob("src/[a-c]x.py", "src/bx.py"));
  CHECK_FALSE(matches_glob("src/[!a-z].py", "src/q.py"));
  CHECK(matches_glob("src/[!a-z].py", "src/Q.py"));
  CHECK(matches_glob("src/[^a-z].py", "src/7.py"));
  CHECK(matches_glob("src/[]]x", "src/]x"));
  CHECK(matches_glob("src/[a-]x", "src/-x"));
  CHECK(matches_glob("src/[ab", "src/[ab")); // no closing ']': literal
  CHECK(matches_glob("src/\\*.py", "src/*.py"));
  CHECK_FALSE(matches_glob("src/\\*.py", "src/a.py"));
  CHECK_FALSE(matches_glob("A.py", "a.py"));
}

TEST_CASE("glob star and question mark never cross a slash") {
  CHECK_FALSE(matches_glob("src/*.py", "src/x/a.py"));
  CHECK_FALSE(matches_glob("src?a.py", "src/a.py"));
  CHECK_FALSE(matches_glob("src[/]a.py", "src/a.py"));
  CHECK(matches_glob("src/*/a.py", "src/x/a.py"));
}

TEST_CASE("glob double star spans whole segments including none") {
  CHECK(matches_glob("tests/**", "tests/a.py"));
  CHECK(matches_glob("tests/**", "tests/x/y/a.py"));
  CHECK(matches_glob("tests/**", "tests"));
  CHECK_FALSE(matches_glob("tests/**", "src/tests/a.py"));
  CHECK(matches_glob("**/foo.py", "foo.py"));
  CHECK(matches_glob("**/foo.py", "a/b/foo.py"));
  CHECK_FALSE(matches_glob("**/foo.py", "a/b/xfoo.py"));
  CHECK(matches_glob("a/**/b", "a/b"));
  CHECK(matches_glob("a/**/b", "a/x/y/b"));
  CHECK_FALSE(matches_glob("a/**/b", "a/x/y/c"));
  CHECK(matches_glob("tests/ut/ir/parser/**", "tests/ut/ir/parser/p.py"));
  CHECK(matches_glob("**", "anything/at/all.py"));
  // Within a segment `**` is `*`.
  CHECK(matches_glob("a/x**.py", "a/xyz.py"));
  CHECK_FALSE(matches_glob("a/x**.py", "a/x/z.py"));
}

TEST_CASE("glob without a slash matches the last segment anywhere") {
  CHECK(matches_glob("build", "build"));
  CHECK(matches_glob("build", "a/b/build"));
  CHECK_FALSE(matches_glob("build", "a/build/x.py")); // excluded() tries the parents
  CHECK(matches_glob("build/", "a/build"));           // a trailing slash is ignored
  CHECK(matches_glob("*.py", "deep/down/x.py"));
  CHECK_FALSE(matches_glob("/build", "a/build")); // a leading slash anchors
  CHECK(matches_glob("/build", "build"));
  CHECK(matches_glob("./src/*.py", "src/a.py"));
  CHECK(matches_glob("src//*.py", "src/a.py"));
  CHECK(matches_glob("src/*.py", "./src//a.py"));
}

TEST_CASE("glob empty pattern or path matches nothing") {
  CHECK_FALSE(matches_glob("", "a.py"));
  CHECK_FALSE(matches_glob("/", "a.py"));
  CHECK_FALSE(matches_glob("*", ""));
  CHECK_FALSE(matches_glob("**", ""));
}

TEST_CASE("glob adversarial patterns take polynomial time") {
  // Exponential backtracking would not finish on these.
  std::string many_stars;
  for (int i = 0; i < 40; ++i)
    many_stars += "**/";
  std::string deep;
  for (int i = 0; i < 2000; ++i)
    deep += "d/";
  CHECK_FALSE(matches_glob(many_stars + "a", deep + "b"));
  CHECK(matches_glob(many_stars + "a", deep + "a"));
  CHECK_FALSE(matches_glob("**/**/**/a/**/**/b/**/c", deep + "a/" + deep + "b/" + deep + "x"));

  const std::string as(5000, 'a');
  std::string star_a;
  for (int i = 0; i < 30; ++i)
    star_a += "*a";
  CHECK_FALSE(matches_glob(star_a + "*b", as));
  CHECK(matches_glob(star_a + "*", as));
  CHECK_FALSE(matches_glob(std::string(20000, '['), std::string(20000, 'x')));
  CHECK(matches_glob(std::string(1000, '?'), std::string(1000, 'x')));
  // Unclosed classes are scanned once, not once per character tried.
  const std::string brackets(200000, '[');
  CHECK_FALSE(matches_glob("*" + brackets + "x", brackets));
  CHECK(matches_glob("*" + brackets, "a" + brackets));
}

// ---- finding the pyproject.toml -------------------------------------------------------------

TEST_CASE("find_pyproject walks up from a file's directory") {
  temp_dir d;
  const fs::path p = d.write("pyproject.toml", "[tool.commscope]\njobs = 2\n");
  const fs::path model = d.write("pkg/sub/model.py", "");
  CHECK(find_pyproject(model) == p);
  CHECK(find_pyproject(d.path / "pkg/sub") == p);
  CHECK(find_pyproject(d.path / "pkg/sub/") == p);
  CHECK(find_pyproject(d.path) == p);
  CHECK(find_pyproject(d.path / "pkg/not-yet-there.py") == p);
}

TEST_CASE("find_pyproject skips one without [tool.commscope]") {
  temp_dir d;
  const fs::path outer = d.write("pyproject.toml", "[tool.commscope]\n");
  d.write("pkg/pyproject.toml", "[project]\nname = 'x'\n[tool.ruff]\nline-length = 100\n");
  const fs::path model = d.write("pkg/model.py", "");
  CHECK(find_pyproject(model) == outer);
  // The nearer one wins once it has the table, even empty and as a dotted key.
  const fs::path inner = d.write("pkg/pyproject.toml", "tool.commscope.jobs = 1\n");
  CHECK(find_pyproject(model) == inner);
}

TEST_CASE("find_pyproject returns a pyproject it cannot parse") {
  temp_dir d;
  d.write("pyproject.toml", "[tool.commscope]\n");
  const fs::path broken = d.write("pkg/pyproject.toml", "[tool\n");
  CHECK(find_pyproject(d.write("pkg/m.py", "")) == broken);
}

TEST_CASE("find_pyproject resolves relative starts and stdin against the current directory") {
  temp_dir d;
  const fs::path p = d.write("pyproject.toml", "[tool.commscope]\n");
  d.write("pkg/m.py", "");
  in_directory cd(d.path / "pkg");
  CHECK(find_pyproject("m.py") == p);
  CHECK(find_pyproject("-") == p);
  CHECK(find_pyproject("") == p);
  CHECK(find_pyproject("../pkg/./m.py") == p);
}

TEST_CASE("find_pyproject finds nothing where no directory has one") {
  temp_dir d;
  d.write("pyproject.toml", "[tool.black]\n");
  const auto found = find_pyproject(d.write("m.py", ""));
  // The system's temporary directory and those above it are outside this test's control:
  // whatever they hold, nothing inside the test's directory may be returned.
  CHECK((!found || found->string().find(d.path.string()) == std::string::npos));
}

// ---- reading [tool.commscope] ---------------------------------------------------------------

TEST_CASE("load_config reads every key") {
  temp_dir d;
  const fs::path f = d.write("proj/pyproject.toml", R"([project]
name = "model"

[tool.commscope]
include-dirs = ["src", "../shared_layers", "/abs/dir/"]
define = { nr = 4, TP_SIZE = 8, alpha = -3 }
select = ["unconsumed-alloc", "collective-in-loop"]
ignore = ["duplicate-name"]
exclude = ["tests/ut/ir/parser/**", "build/**"]
per-file-ignores = { "tests/**" = ["dead-alloc"], "a.py" = [] }
jobs = 4
)");
  const config c = load_config(f);
  CHECK(c.file == f);
  CHECK(c.root == d.path / "proj");
  CHECK(c.include_dirs == std::vector<std::string>{(d.path / "proj/src").string(),
                                                   (d.path / "shared_layers").string(),
                                                   "/abs/dir"});
  // File order, not key order.
  CHECK(c.defines == std::vector<std::pair<std::string, std::int64_t>>{
                         {"nr", 4}, {"TP_SIZE", 8}, {"alpha", -3}});
  REQUIRE(c.select);
  CHECK(*c.select == std::vector<std::string>{"unconsumed-alloc", "collective-in-loop"});
  CHECK(c.ignore == std::vector<std::string>{"duplicate-name"});
  CHECK(c.exclude == std::vector<std::string>{"tests/ut/ir/parser/**", "build/**"});
  REQUIRE(c.per_file_ignores.size() == 2);
  CHECK(c.per_file_ignores[0].first == "tests/**");
  CHECK(c.per_file_ignores[0].second == std::vector<std::string>{"dead-alloc"});
  CHECK(c.per_file_ignores[1].first == "a.py");
  CHECK(c.per_file_ignores[1].second.empty());
  CHECK(c.jobs == 4u);
}

TEST_CASE("load_config of a relative path roots it in the current directory") {
  temp_dir d;
  d.write("pyproject.toml", "[tool.commscope]\ninclude-dirs = ['lib']\n");
  in_directory cd(d.path);
  const config c = load_config("pyproject.toml");
  CHECK(c.file == "pyproject.toml");
  CHECK(c.root == d.path);
  CHECK(c.include_dirs == std::vector<std::string>{(d.path / "lib").string()});
}

TEST_CASE("load_config without [tool.commscope] gives an empty config") {
  temp_dir d;
  const fs::path f = d.write("pyproject.toml", "[tool.ruff]\nselect = ['E']\n");
  const config c = load_config(f);
  CHECK(c.file == f);
  CHECK(c.root == d.path);
  CHECK(c.include_dirs.empty());
  CHECK(c.defines.empty());
  CHECK_FALSE(c.select);
  CHECK(c.ignore.empty());
  CHECK(c.exclude.empty());
  CHECK(c.per_file_ignores.empty());
  CHECK_FALSE(c.jobs);
  // An empty table: select stays absent, while `select = []` selects nothing.
  CHECK_FALSE(load_config(d.write("b/pyproject.toml", "[tool.commscope]\n")).select);
  const auto none = load_config(d.write("c/pyproject.toml", "[tool.commscope]\nselect = []\n"));
  REQUIRE(none.select);
  CHECK(none.select->empty());
}

TEST_CASE("load_config errors name the key and the file") {
  CHECK(error_with_file("[tool.commscope]\nfoo = 1\n") ==
        "unknown key 'foo' in [tool.commscope] of FILE");
  CHECK(error_with_file("[tool.commscope.sub]\nx = 1\n") ==
        "unknown key 'sub' in [tool.commscope] of FILE");
  CHECK(error_with_file("[tool.commscope]\ninclude_dirs = []\n") ==
        "unknown key 'include_dirs' in [tool.commscope] of FILE (did you mean 'include-dirs'?)");
  CHECK(error_with_file("[tool]\ncommscope = 3\n") == "[tool.commscope] of FILE must be a table");
}

TEST_CASE("load_config errors for a wrong type of every key") {
  const std::string strings = " in [tool.commscope] of FILE must be an array of strings";
  for (const char* key : {"include-dirs", "select", "ignore", "exclude"}) {
    CAPTURE(key);
    const std::string k = key;
    CHECK(error_with_file("[tool.commscope]\n" + k + " = 'src'\n") == "'" + k + "'" + strings);
    CHECK(error_with_file("[tool.commscope]\n" + k + " = ['a', 1]\n") == "'" + k + "'" + strings);
    CHECK(error_with_file("[tool.commscope]\n" + k + " = { a = 'b' }\n") ==
          "'" + k + "'" + strings);
  }
  CHECK(error_with_file("[tool.commscope]\ndefine = ['nr=4']\n") ==
        "'define' in [tool.commscope] of FILE must be a table of integers");
  CHECK(error_with_file("[tool.commscope]\ndefine = { nr = '4' }\n") ==
        "'define.nr' in [tool.commscope] of FILE must be an integer");
  CHECK(error_with_file("[tool.commscope]\ndefine = { nr = 4.0 }\n") ==
        "'define.nr' in [tool.commscope] of FILE must be an integer");
  CHECK(error_with_file("[tool.commscope]\nper-file-ignores = ['a']\n") ==
        "'per-file-ignores' in [tool.commscope] of FILE must be a table of arrays of strings");
  CHECK(error_with_file("[tool.commscope]\nper-file-ignores = { \"tests/**\" = 'dead-alloc' }\n") ==
        "'per-file-ignores.\"tests/**\"' in [tool.commscope] of FILE must be an array of strings");
  CHECK(error_with_file("[tool.commscope.per-file-ignores]\nx = [1]\n") ==
        "'per-file-ignores.x' in [tool.commscope] of FILE must be an array of strings");
  const std::string jobs = "'jobs' in [tool.commscope] of FILE must be a positive integer";
  for (const char* v : {"'4'", "0", "-1", "4.0", "true", "4294967296", "[4]"}) {
    CAPTURE(v);
    CHECK(error_with_file(std::string("[tool.commscope]\njobs = ") + v + "\n") == jobs);
  }
  temp_dir d;
  CHECK(load_config(d.write("pyproject.toml", "[tool.commscope]\njobs = 4294967295\n")).jobs ==
        4294967295u);
}

TEST_CASE("load_config rejects define names that are not names") {
  for (const char* name : {"\"1x\"", "\"a-b\"", "\"\"", "class", "\"a b\""}) {
    CAPTURE(name);
    const std::string m =
        error_with_file(std::string("[tool.commscope]\ndefine = { ") + name + " = 1 }\n");
    CHECK(m.starts_with("'define' in [tool.commscope] of FILE: '"));
    CHECK(m.ends_with("' is not a name (an identifier, not a reserved word)"));
  }
}

TEST_CASE("load_config reports bad TOML with its line and column") {
  const std::string m = error_with_file("[tool.commscope]\njobs = 4\njobs = 5\n");
  CHECK(m.starts_with("FILE:3:"));
  CHECK(m.find(": invalid TOML: ") != std::string::npos);
  CHECK(error_with_file("[tool.commscope\n").starts_with("FILE:1:"));
  CHECK(error_with_file("x = \"\x1b[2J\n").find('\x1b') == std::string::npos);
  // Nesting too deep for the parser is an error, not a crash.
  CHECK(error_with_file("x = " + std::string(100000, '[')).find(": invalid TOML: ") !=
        std::string::npos);
  std::string inline_tables = "x = ";
  for (int i = 0; i < 100000; ++i)
    inline_tables += "{a=";
  CHECK(error_with_file(inline_tables).find(": invalid TOML: ") != std::string::npos);
}

TEST_CASE("load_config reports a file it cannot read") {
  temp_dir d;
  try {
    (void)load_config(d.path / "missing.toml");
    FAIL("no error");
  } catch (const config_error& e) {
    CHECK(e.message ==
          "cannot read " + (d.path / "missing.toml").string() + ": No such file or directory");
  }
  try {
    (void)load_config(d.path);
    FAIL("no error");
  } catch (const config_error& e) {
    CHECK(e.message == "cannot read " + d.path.string() + ": Is a directory");
  }
  if (fs::exists("/dev/zero")) {
    try {
      (void)load_config("/dev/zero");
      FAIL("no error");
    } catch (const config_error& e) {
      CHECK(e.message == "cannot read /dev/zero: larger than 16 MiB");
    }
  }
}

TEST_CASE("load_config checks codes with the caller's table") {
  const auto known = [](std::string_view c) { return c == "dead-alloc" || c == "duplicate-name"; };
  CHECK(error_with_file("[tool.commscope]\nselect = ['dead-alloc', 'nope']\n", known) ==
        "unknown code 'nope' in 'select' in [tool.commscope] of FILE");
  CHECK(error_with_file("[tool.commscope]\nignore = ['nope']\n", known) ==
        "unknown code 'nope' in 'ignore' in [tool.commscope] of FILE");
  CHECK(error_with_file("[tool.commscope]\nper-file-ignores = { 'a.py' = ['nope'] }\n", known) ==
        "unknown code 'nope' in 'per-file-ignores.\"a.py\"' in [tool.commscope] of FILE");
  CHECK(error_with_file("[tool.commscope]\nselect = ['dead-alloc']\nignore = ['duplicate-name']\n",
                        known) == "(no error)");
  // Without the table, the codes are the caller's to check.
  CHECK(error_with_file("[tool.commscope]\nselect = ['nope']\n") == "(no error)");
}

// ---- exclude and per-file-ignores -----------------------------------------------------------

TEST_CASE("excluded matches the file and the directories above it under the root") {
  temp_dir d;
  config c = load_config(d.write("pyproject.toml", R"([tool.commscope]
exclude = ["tests/ut/ir/parser/**", "build", "gen/*.py", "/top.py"]
)"));
  CHECK(c.excluded(d.write("tests/ut/ir/parser/p.py", "")));
  CHECK(c.excluded(d.path / "tests/ut/ir/parser"));
  CHECK_FALSE(c.excluded(d.write("tests/ut/ir/other.py", "")));
  CHECK(c.excluded(d.write("build/x.py", "")));
  CHECK(c.excluded(d.write("pkg/build/deep/x.py", ""))); // `build` anywhere, and under it
  CHECK(c.excluded(d.path / "pkg/build"));
  CHECK_FALSE(c.excluded(d.write("pkg/builder/x.py", "")));
  CHECK(c.excluded(d.write("gen/a.py", "")));
  CHECK_FALSE(c.excluded(d.write("gen/sub/a.py", "")));
  CHECK_FALSE(c.excluded(d.write("pkg/gen/a.py", "")));
  CHECK(c.excluded(d.write("top.py", "")));
  CHECK_FALSE(c.excluded(d.write("pkg/top.py", "")));
  CHECK_FALSE(c.excluded(d.path));                              // the root itself
  CHECK_FALSE(c.excluded(d.path.parent_path() / "build/x.py")); // outside the root
  CHECK(c.excluded(d.path / "pkg/../build/y.py"));              // not there yet, normalized
  {
    in_directory cd(d.path / "pkg");
    CHECK(c.excluded("build/deep/x.py"));
    CHECK(c.excluded("../gen/a.py"));
    CHECK_FALSE(c.excluded("../top.py/../pkg/top.py"));
  }
  // --exclude adds a glob the same way.
  c.exclude.push_back("pkg/**");
  CHECK(c.excluded(d.path / "pkg/top.py"));
}

TEST_CASE("excluded resolves symbolic links of the root and the file") {
  temp_dir d;
  const config c =
      load_config(d.write("real/pyproject.toml", "[tool.commscope]\nexclude = ['build/**']\n"));
  std::error_code ec;
  fs::create_directory_symlink(d.path / "real", d.path / "link", ec);
  if (ec)
    return; // no symbolic links here
  CHECK(c.excluded(d.path / "link/build/x.py"));
  CHECK_FALSE(c.excluded(d.path / "link/src/x.py"));
}

TEST_CASE("excluded matches a symbolic link below the root where it stands") {
  temp_dir d;
  const config c = load_config(
      d.write("real/pyproject.toml", "[tool.commscope]\nexclude = ['build/**']\nper-file-ignores = "
                                     "{ 'tests/**' = ['dead-alloc'] }\n"));
  const fs::path outside = d.write("shared/layer.py", "");
  const fs::path inside = d.write("real/src/model.py", "");
  std::error_code ec;
  fs::create_directories(d.path / "real/tests", ec);
  fs::create_directories(d.path / "real/build", ec);
  fs::create_symlink(outside, d.path / "real/tests/layer.py", ec);
  if (ec)
    return; // no symbolic links here
  fs::create_symlink(inside, d.path / "real/build/model.py", ec);
  CHECK(c.ignored_codes_for(d.path / "real/tests/layer.py") ==
        std::vector<std::string>{"dead-alloc"});
  CHECK(c.excluded(d.path / "real/build/model.py"));
  CHECK_FALSE(c.excluded(inside));
}

TEST_CASE("excluded takes a glob written as an absolute path below the root relative to it") {
  temp_dir d;
  config c = load_config(d.write("pyproject.toml", "[tool.commscope]\n"));
  c.exclude = {(d.path / "build").generic_string() + "/", (d.path / "gen/*.py").generic_string(),
               "/top.py"};
  CHECK(c.excluded(d.write("build/x.py", "")));
  CHECK_FALSE(c.excluded(d.write("pkg/build/x.py", ""))); // still anchored at the root
  CHECK(c.excluded(d.write("gen/a.py", "")));
  CHECK(c.excluded(d.write("top.py", ""))); // not below the root: a leading '/' anchors
  CHECK_FALSE(c.excluded(d.write("src/x.py", "")));
  c.per_file_ignores = {{(d.path / "tests").generic_string(), {"dead-alloc"}}};
  CHECK(c.ignored_codes_for(d.path / "tests/a.py") == std::vector<std::string>{"dead-alloc"});
  CHECK(c.ignored_codes_for(d.path / "src/tests/a.py").empty());
}

TEST_CASE("excluded without a pyproject is relative to the current directory") {
  temp_dir d;
  config c;
  c.exclude = {"build"};
  in_directory cd(d.path);
  CHECK(c.excluded("a/build/x.py"));
  CHECK_FALSE(c.excluded("a/x.py"));
  CHECK_FALSE(c.excluded(""));
  CHECK_FALSE(config{}.excluded("build/x.py"));
}

TEST_CASE("ignored_codes_for is the union of the matching entries") {
  temp_dir d;
  const config c = load_config(d.write("pyproject.toml", R"([tool.commscope]
per-file-ignores = { "tests/**" = ["dead-alloc", "duplicate-name"], "*_test.py" = ["dead-alloc", "collective-in-loop"], "legacy" = ["unconsumed-alloc"] }
)"));
  CHECK(c.ignored_codes_for(d.path / "tests/a/b_test.py") ==
        std::vector<std::string>{"dead-alloc", "duplicate-name", "collective-in-loop"});
  CHECK(c.ignored_codes_for(d.path / "tests/a.py") ==
        std::vector<std::string>{"dead-alloc", "duplicate-name"});
  CHECK(c.ignored_codes_for(d.path / "src/x_test.py") ==
        std::vector<std::string>{"dead-alloc", "collective-in-loop"});
  CHECK(c.ignored_codes_for(d.path / "src/legacy/old.py") ==
        std::vector<std::string>{"unconsumed-alloc"});
  CHECK(c.ignored_codes_for(d.path / "src/x.py").empty());
  CHECK(c.ignored_codes_for(d.path.parent_path() / "tests/a.py").empty());
}
