// The DSL parser's class, private to the front end's sources: it reads the DSL functions
// of one program into the reference IR. Its members are defined by concern in
// parse_program.cpp (functions, names), parse_statements.cpp, parse_compound.cpp (loops,
// branches, `with`), parse_expressions.cpp, parse_atoms.cpp, callbacks.cpp (the functions
// a method may be given) and lower_dsl.cpp (the DSL's operations, comm domains and
// signatures).
#pragma once

#include "imports_internal.hpp"
#include "module_scan.hpp"
#include "returned_parameters.hpp"
#include "source_text.hpp"
#include "tokens.hpp"

#include <commscope/detail/operations.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/reference/ir.hpp>
#include <commscope/reference/name_table.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

/// Whether the file may reach a function's frame, and through it its local names, where
/// no call spells `currentframe` or `_getframe` (which the parser reads where they are):
/// those names held as values (`gf = sys._getframe`, `from sys import _getframe as gf`),
/// a frame's attributes (`tb.tb_frame.f_locals`, `gen.gi_frame`), `inspect.stack()` and
/// the like, or `locals`, `vars`, `eval` or `exec` held as a value or reached as an
/// attribute (`L = locals`, `builtins.locals()`).
bool reaches_frames(const token_stream& ts);

/// The names of the file's host orchestrators (and of the defs they wrap) that it may hand to
/// a DSL function as a value: any use of one in a DSL function's body (a call, a string of
/// it), and elsewhere a use as a value (`build = make`, `HOSTS["m"] = make`, a default
/// `def test(build=make)`). A call elsewhere (`make(x)` at the module's level or in a plain
/// function) is the runtime's, which the views of a finished scope cannot reach a device
/// through, and is none.
std::unordered_set<std::string_view> names_used_as_values(const token_stream& ts,
                                                          const module_scan& scan);

using namespace commscope::reference;
using commscope::detail::hash_name;
using commscope::detail::name_table;

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

/// The operation a dotted spelling names (docs/commscope-opt.md, "Expressions and
/// operations"), or none: `pld.NAME` or `pld.tensor.NAME` with NAME from the analysis's
/// table of operations (world_size is `pld.world_size` or `pld.system.world_size`).
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
/// What a scope binds, for the functions a method may be given (callbacks.cpp).
struct scope_functions {
  std::unordered_set<std::string_view> functions; ///< bound by def, class or a lambda
  /// Every name the scope binds, and its binding records (indices into the scope's).
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> records_of;
  /// The first tokens of the statements that begin with a name's method or item, made
  /// when first asked (changes_of_scope).
  std::optional<std::unordered_map<std::string_view, std::vector<std::uint32_t>>> changed_at;
};

/// What the programs of one file share, each part made by the first program that needs
/// it: what its scopes bind and the answers found through them (callbacks.cpp), what its
/// chip functions may return of their parameters, its definitions by name.
struct file_tables {
  std::unordered_map<std::int32_t, scope_functions> scopes;
  std::unordered_map<std::string, std::string> sources;         ///< function_held_by's, by source
  std::unordered_map<std::uint32_t, std::size_t> definition_at; ///< by `def`/`class` token
  std::unordered_map<std::int32_t, std::size_t> definition_of_scope; ///< by its body's scope
  /// The definitions made in each scope (a class's methods).
  std::unordered_map<std::int32_t, std::vector<std::size_t>> definitions_in;
  /// The classes by their first decorator's token (the first class of a token).
  std::unordered_map<std::uint32_t, std::size_t> program_class_at;
  bool definitions_indexed = false; ///< the four tables above (index_definitions)
  std::optional<returned_parameter_table> returned;
  /// How many functions (no classes) each scope defines by each name.
  std::optional<std::map<std::pair<std::int32_t, std::string_view>, std::uint32_t>>
      definitions_by_name;
};

class dsl_parser {
public:
  dsl_parser(const token_stream& ts, const module_scan& scan, constants& consts)
      : ts_(ts), t_(ts.tokens), tokens_(ts.tokens.data()), last_(ts.tokens.size() - 1), scan_(scan),
        consts_(consts), w_(first_chunk(ts)) {}

  program_unit run(const candidate_program& cp, std::string_view stem);

  /// The run's imported modules, and where this file's imports start.
  /// `path`: the file's own, by which other input files of the run import its hosts.
  /// Where the file keeps its names_used_as_values, made by the first of its programs that
  /// needs them; else each program makes them.
  void use_names(std::optional<std::unordered_set<std::string_view>>* uses) { uses_ = uses; }
  /// Where the file keeps its reaches_frames, made by the first program that asks.
  void use_frames(std::optional<bool>* frames) { frames_ = frames; }
  /// Where the file keeps what its programs share; else each program makes its own.
  void use_file_tables(file_tables* tables) { shared_tables_ = tables; }

  void use_imports(loader_state* loader, importer from, std::string_view path) {
    loader_ = loader;
    importer_ = from;
    path_ = path;
  }

private:
  /// The arena's first chunk: a share of the source, so that a large program starts with
  /// large chunks.
  static std::size_t first_chunk(const token_stream& ts) {
    return std::clamp<std::size_t>(ts.source.size() / 64, 4096, std::size_t{1} << 20);
  }

  // ---- tokens (the stream ends with an END token, which peek() never passes)
  [[gnu::always_inline]] const token& peek(std::size_t k = 0) const {
    return tokens_[std::min<std::size_t>(i_ + k, last_)];
  }
  [[gnu::always_inline]] const token& next() {
    const token& t = tokens_[i_];
    if (i_ < last_)
      ++i_;
    if (t.kind() < tok::newline) // a real token: name, number, string, operator
      last_end_ = ts_.end(t);
    return t;
  }
  [[gnu::always_inline]] std::string_view text(const token& t) const { return ts_.text(t); }
  [[gnu::always_inline]] bool is_op(operator_code o, std::size_t k = 0) const {
    return peek(k).is_op(o);
  }
  [[gnu::always_inline]] bool is_name(keyword_id n, std::size_t k = 0) const {
    return peek(k).is_keyword(n);
  }
  bool at_line_end() const {
    return peek().kind() == tok::newline || peek().kind() == tok::end || is_op(";");
  }
  [[gnu::always_inline]] source_location where(const token& t) const { return ts_.where(t); }
  [[noreturn]] void unexpected(std::string_view wanted) const;
  void expect_op(operator_code o) {
    if (!is_op(o)) {
      // Built by appends: g++ 12 at -O3 sees a false -Wrestrict in "'" + std::string(...).
      std::string wanted(1, '\'');
      wanted.append(o.spelling);
      wanted.push_back('\'');
      unexpected(wanted);
    }
    next();
  }
  void expect_line_end() {
    if (peek().kind() == tok::newline)
      next();
    else if (peek().kind() != tok::end && peek().kind() != tok::dedent)
      unexpected("end of line");
  }

  /// The targets of the comprehensions of the brackets just opened (`[f(r) for r in
  /// ...]`), shadowed while the brackets are parsed: their element comes before its `for`,
  /// and must not read the function's variables of those names.
  struct comprehension_scope {
    dsl_parser& p;
    std::size_t shadowed;
    explicit comprehension_scope(dsl_parser& q) : p(q), shadowed(q.shadow_.size()) {
      q.shadow_comprehension_targets();
    }
    ~comprehension_scope() { p.unshadow(shadowed); }
    comprehension_scope(const comprehension_scope&) = delete;
    comprehension_scope& operator=(const comprehension_scope&) = delete;
  };
  void shadow_comprehension_targets();

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

  /// Inside brackets, a conditional expression is whole again: `for t in (a if c else b,
  /// d)` is a comprehension's iterable, where an `if` after it would begin a filter.
  struct brackets {
    dsl_parser& p;
    bool saved;
    explicit brackets(dsl_parser& q) : p(q), saved(q.no_conditional_) { q.no_conditional_ = false; }
    ~brackets() { p.no_conditional_ = saved; }
    brackets(const brackets&) = delete;
    brackets& operator=(const brackets&) = delete;
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
  /// first line's indentation, lines inside a string marked with '\0' (see source_text.hpp).
  void verbatim(std::string& out, std::uint32_t b, std::uint32_t e) const;

  /// A statement's text: the pending leading comments, tokens [b, e) as written, then
  /// `comment` (its own trailing comment; `mark` records where it starts).
  statement_text make_text(std::uint32_t b, std::uint32_t e, std::string_view comment, bool mark);

  // ---- functions
  signature* make_signature(const definition& d);
  signature* make_signature_of_decorators(const definition& d);

  function_ptr parse_function(const definition& d, signature* sig, bool method);

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
  std::uint64_t hash_of_binding(std::string_view name);
  void fetch_binding(std::size_t k);

  /// The dotted name an attribute chain spells, in the DSL's own aliases (`pl.`, `pld.`).
  std::string spelling(const expression& e) const { return scan_.names.canonical(raw_spelling(e)); }
  /// The same as written.
  static std::string raw_spelling(const expression& e);

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
  node_list<statement_ptr> parse_indented_block();

  /// The comment and blank lines between the last token read and line `line`, each as
  /// written without its indentation, ending in a line break (empty: none).
  std::string leading_trivia(std::uint32_t line) const;

  /// The comment after the last token read on its line ("  # ..."), without a
  /// `# window_buffer=` comment this printer wrote there.
  std::string trailing_comment() const;

  /// A compound statement's header text (tokens [b, colon]), with its trailing comment:
  /// made before its body, which reads its own leading comments.
  /// Records a statement's text: the origin to give the statement.
  std::uint32_t note(const statement_text& t) { return texts_->add(t); }
  statement_text header_text(std::uint32_t b, std::uint32_t colon) {
    return make_text(b, colon + 1, trailing_comment(), false);
  }

  void parse_statement();

  void parse_one_statement();

  bool compound_soft_keyword() const {
    std::size_t k = 1;
    while (peek(k).kind() != tok::newline && peek(k).kind() != tok::end)
      ++k;
    return k > 1 && peek(k - 1).kind() == tok::op && text(peek(k - 1)) == ":";
  }

  /// The end of a compound header: the index of its ':' (lambdas inside consume theirs).
  std::uint32_t header_end() const;

  /// Reads every expression of tokens [i_, end) that parses as one, for the analysis
  /// (the header of a `try`, `except E as e`, `case`), and binds `as` names.
  void read_header_expressions(std::uint32_t end, gathered<expression_ptr>& values,
                               gathered<variable_ptr>& targets);

  /// try/except/else/finally, match/case, async ..., a loop's else: a generic block.
  statement_ptr parse_block_statement();
  void read_case_header(std::uint32_t end, gathered<expression_ptr>& values,
                        gathered<variable_ptr>& targets);
  std::vector<expression_ptr> variable_uses(std::span<const expression_ptr> roots);
  /// The variables the subjects of the enclosing `match` statements read (innermost last).
  std::vector<std::vector<expression_ptr>> match_subjects_;

  /// A def or class inside a host orchestrator: kept as written.
  statement_ptr parse_nested_definition();

  void parse_simple_line();

  statement* parse_simple();

  /// Whether the simple statement at `NAME =` has no other '=' at bracket depth 0 (a
  /// chain `a = b = v`, or a lambda's default, which the general path reads).
  bool single_target() const;

  static bool is_docstring(const expression& e);

  static bool is_augmented(std::string_view o) {
    return o.size() >= 2 && o.back() == '=' && o != "==" && o != "!=" && o != "<=" && o != ">=" &&
           o != ":=";
  }

  mutable_expr parse_value() {
    if (is_name("yield"))
      return parse_yield();
    return parse_expression_list(nullptr, true);
  }

  /// Names that targets such as `a, (b, *c)` rebind: fresh opaque variables. Returns the
  /// first attribute or element among them (`x.a`, `l[i]`), where the value is stored.
  const expression* rebind_targets(const expression& target, gathered<variable_ptr>& out);

  /// `targets = value` (chains `a = b = v` too).
  statement* assignment(statement_spec& s, std::span<const expression_ptr> gathered_targets,
                        mutable_expr value);

  /// A statement that reads `reads` and rebinds `targets` to something the pass does not
  /// follow (`x += e`, `a[i], b = v`, a nested def): an assignment of an opaque value made
  /// of what it reads, so that the analysis sees the targets rebound (it prints as
  /// written). One that rebinds nothing is verbatim.
  statement* opaque_binding(statement_spec& s, std::span<const expression_ptr> reads,
                            std::span<const variable_ptr> targets);
  expression_ptr opaque_of(source_location at, std::span<const expression_ptr> reads);
  expression_ptr store_into(const expression& target, expression_ptr value);
  /// How a store's target is spelled in messages (`owner[...]`, `self.cache[...]`); the
  /// keys of its subscripts appended to `keys`, outermost first.
  std::string stored_path(const expression& target, std::vector<expression_ptr>& keys);
  /// An opaque value named `text` that stores `value` where the analysis cannot follow.
  mutable_expr store_of(source_location at, std::string_view text, expression_ptr value);
  mutable_expr store_of(source_location at, std::string_view text,
                        std::span<const expression_ptr> values);
  /// `reader` says who reads them ("read by def NAME"), for the names it makes cells.
  /// With `note_only`, no reads are made: the names are only made cells.
  std::vector<expression_ptr> closure_reads(std::uint32_t b, std::uint32_t e, variable_ptr self,
                                            std::string_view reader, bool note_only = false);
  /// A run of string literals [b, i_) of which one is an f-string: a plain value, or an
  /// escape of what its fields read when a field may call something.
  mutable_expr formatted_string(std::uint32_t b);
  /// The assignment that binds a block's targets as its body begins (ir.hpp).
  void bind_block_targets(statement& block);

  statement* assign_name(statement_spec& s, std::string_view target, mutable_expr value) {
    const std::string_view names[] = {target};
    return assign_names(s, names, value);
  }

  /// `names = value`, each name bound to a fresh variable (an allocation's, a view's,
  /// a copy of a pointer's gets what the analysis reads of it).
  statement* assign_names(statement_spec& s, std::span<const std::string_view> names,
                          mutable_expr value);

  /// `n` expressions, none starred: each is one value.
  static bool are_values(node_span<expression_ptr> items, std::size_t n);
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
  void bind_slot(const variable& v, const expression& alloc);

  statement_ptr parse_for();

  /// A loop body's closing `pl.yield_(e, ...)` binds the loop-carried targets for the
  /// next iteration: it becomes an assignment of them, each to its own argument (printed
  /// as written all the same). In the assignment form, `r, ... = pl.yield_(e, ...)`, it
  /// binds `results` (the assignment's targets) too.
  void yield_as_assignment(const node_list<statement_ptr>& body, node_span<variable_ptr> carried,
                           std::span<const variable_ptr> results);
  /// An if branch's closing `y, ... = pl.yield_(e, ...)` binds each target to its own
  /// argument, as `y, ... = e, ...` would: the DSL's phi of the branches.
  void yield_as_parallel(const node_list<statement_ptr>& body);
  /// A call `pl.yield_(e, ...)` of n values, without keywords, that is the value of st;
  /// in an assignment, of n targets.
  bool is_yield(const statement& st, std::size_t n) const;

  statement_ptr parse_while();

  statement_ptr parse_if();

  struct open_scope {
    std::vector<std::string> names;
    std::vector<window_buffer_ptr> found;
    /// Per name, the first of its slots that no allocation has taken yet; next_same[i],
    /// the next slot after i with the same name (or none). A materialized body's
    /// allocations find their slots in constant time, not by a scan of every slot.
    static constexpr std::uint32_t no_slot = 0xffffffffu;
    std::unordered_map<std::string_view, std::uint32_t> first_open;
    std::vector<std::uint32_t> next_same;
    /// Fills first_open and next_same from names (the views point into names' strings,
    /// which stay where they are when the scope is moved).
    void index_slots();
  };

  void front_end_error(source_location at, std::string message) {
    unit_->diagnostics.push_back({"malformed-op", std::move(message), at, {}, {}, {}});
  }

  /// `with pld.comm_domain(...)` is a scope; any other `with` a block read as inline.
  statement_ptr parse_with();

  /// The slots of a well-formed `pld.comm_domain("NAME", devices=..., slots=[...])`;
  /// nullopt (after a diagnostic) for a malformed one, which is then an ordinary block.
  std::optional<open_scope> comm_domain(const expression& e, source_location at);
  /// A device of a symbolic set, `range(START, pld.world_size() [- C] [, STEP])`.
  std::optional<commscope::device_progression> device_range(const expression& e) const;

  // ---- expressions
  mutable_expr leaf(expression::kind k, source_location at) {
    expression_spec s;
    s.what = k;
    s.where = at;
    return w_.make(s);
  }
  /// An opaque node spanning tokens from `b` to the last one consumed.
  mutable_expr opaque(std::uint32_t b, std::span<const expression_ptr> operands);
  mutable_expr opaque(std::uint32_t b, std::initializer_list<expression_ptr> operands) {
    return opaque(b, std::span<const expression_ptr>(operands.begin(), operands.size()));
  }
  mutable_expr binary(const expression_ptr& l, std::string_view op, const expression_ptr& r);

  /// EXPR or EXPR, EXPR, ... (a tuple without parentheses); *bare tells which.
  mutable_expr parse_expression_list(bool* bare, bool starred);

  mutable_expr parse_star_or_named();

  /// NAME := test, or test.
  mutable_expr parse_named();

  mutable_expr parse_yield();

  mutable_expr parse_test();

  mutable_expr parse_lambda();

  /// The level of the binary operator at peek(k) (0: none), from loosest to tightest:
  /// or 1, and 2, (not 3, a prefix), comparisons 4, | ^ & << >> 5, + - 6, * / // % @ 7.
  int binary_level(std::size_t k = 0) const;

  /// The operators of levels `min_level` and up, left-associative (precedence climbing):
  /// `or` and `and` and comparisons and + - * / // % are binary nodes; `in`, `is`, the
  /// bitwise operators and `@` are opaque, their operands still read.
  mutable_expr parse_binary(int min_level);
  mutable_expr parse_or() { return parse_binary(1); }
  /// `not` x, x at the level of comparisons and up.
  mutable_expr parse_not();
  mutable_expr parse_factor();
  mutable_expr parse_power();

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
    std::uint32_t target = 0; ///< a comprehension's target: its shadow_ entry + 1
  };
  resolved_name resolve(std::string_view n);
  /// The variable a read of the name n reads here (h = hash_name(n)): its binding so far,
  /// else, when the function binds n anywhere (Python makes it the function's own
  /// throughout), the name's variable made now, so that a read before its binding (of an
  /// earlier iteration's value, in a loop) joins the bindings after it. Null for a name
  /// the function never binds.
  const variable* local_variable(std::string_view n, std::uint64_t h) {
    if (const variable* v = names_.find(n, h))
      return v;
    return bound_later(n, h);
  }
  /// local_variable for a name not bound so far.
  const variable* bound_later(std::string_view n, std::uint64_t h);
  /// A read of every name the function binds (local_variable), each variable once, for
  /// the call at offset `at`.
  std::vector<expression_ptr> every_local(std::uint32_t at);
  /// `x`, an attribute `f_locals` of what `b` begins, as a read of every local name.
  mutable_expr frame_locals(std::uint32_t b, mutable_expr x);
  /// `x` (what `b` begins) as a store of itself and of every local name (every_local), or
  /// `x` where the function binds none.
  mutable_expr with_every_local(std::uint32_t b, mutable_expr x);
  /// A function of the program's own code among the tokens [b, e) of a method call's
  /// arguments, as the message names it ("a lambda", 'by_rank', "'k', which may hold
  /// 'by_rank'"), or empty. The method may call it with its object. (callbacks.cpp)
  std::string program_function_among(std::size_t b, std::size_t e);
  static constexpr std::size_t no_definition = static_cast<std::size_t>(-1);
  /// Where a function may come from that no token spells: a name bound by assignments,
  /// loops or parameters (its bindings' values), a call of a def of the file (what it
  /// returns), an attribute of `self` (what the class body and its methods bind it to).
  struct function_source {
    std::int32_t scope;
    std::string_view name;
    std::size_t definition; ///< of scan_.definitions, or no_definition for a name
    bool attribute = false; ///< `self.NAME` of the class whose body is `scope`
    /// The token of the first name of the attributes read off the value (`cfg.key`,
    /// `cfg.sub.key`: `key`'s and `sub`'s), which an instance of a class of the file
    /// holds as its class makes them; 0: the value itself.
    std::uint32_t chain = 0;
    bool lambda_returns = false; ///< what the lambdas the name is bound to return
    /// The token a message spells the source from (`Config` of `Config.key`), before the
    /// chain; 0: its name.
    std::uint32_t root = 0;
  };
  std::string describe(const function_source& source) const;
  /// A function among the tokens [b, e) read in `scope` that the tokens themselves name: a
  /// lambda, a lookup by name (`globals()`, `getattr`), `self.NAME` of a method of the
  /// class, a def, class or import of one, a function of a module of the program, an
  /// instance of a class with `__call__`; else empty, with the sources it may come from
  /// appended to `held`.
  std::string functions_among(std::int32_t scope, std::size_t b, std::size_t e,
                              std::vector<function_source>& held);
  /// Name `n` read in scope `s`, for functions_among.
  std::string name_function(std::int32_t s, std::string_view n, std::vector<function_source>& held);
  /// A call of `n` read in scope `s`, for functions_among.
  std::string returned_by_call(std::int32_t s, std::string_view n,
                               std::vector<function_source>& held);
  /// A call of what scope `s` binds `n` to (a def's returns, an instance of a class with
  /// `__call__`, a name's values), for returned_by_call and `self.NAME(...)`.
  std::string returned_by_binding(std::int32_t s, std::string_view n,
                                  std::vector<function_source>& held);
  /// What the attributes of `chain_` read off an instance of the class `class_index` (of
  /// scan_.definitions) may hold: a method of it or of a base of the file, else the
  /// class attributes and what the methods set of them, appended to `held`.
  std::string instance_members(std::size_t class_index, std::vector<function_source>& held);
  /// Whether the class whose body is `class_scope` makes `member` a property (a def
  /// decorated `@property` or `@cached_property`): reading it calls it.
  bool reads_property(std::int32_t class_scope, std::string_view member);
  /// The class (of scan_.definitions) that name `n` read in scope `s` is, where `class`
  /// is its only binding.
  std::optional<std::size_t> class_named(std::int32_t s, std::string_view n);
  /// The first attribute read off what the calls and items from token k (before e) give
  /// (`key` of `make_config().key`, of `configs["a"][0].key`); 0: none.
  std::uint32_t attribute_after_brackets(std::size_t k, std::size_t e) const;
  /// An attribute chain from token `first` as the file spells it, calls and items
  /// elided: `.make(...).key`; empty for 0.
  std::string chain_spelling(std::uint32_t first) const;
  /// The names of an attribute chain from token `first` (`cfg`, `sub`, `key` of
  /// `cfg.sub.key`); `called`: the last one is called.
  std::vector<std::string_view> chain_names(std::uint32_t first, bool& called) const;
  /// Whether the attribute chain from name token `root`, read in `scope`, reads an
  /// attribute of a class of another module of the program, or of an instance of one,
  /// that may hold a function (loader_state::member_holds_function).
  bool imported_member_holds_function(std::int32_t scope, std::uint32_t root);
  /// What functions_among finds through `source` and the sources it leads to, searched
  /// breadth first, each once; empty for none.
  std::string function_held_by(const function_source& source);
  static constexpr std::size_t function_source_token_limit = std::size_t{1} << 22;
  /// Fills the file's tables of definitions (by token, by scope, classes by decorator),
  /// once.
  void index_definitions();
  /// The tokens a binding record binds its name to: its value (`k = partial(f, 2)`), the
  /// statement of a binding without one (`for f in (a, b):`), a parameter's default.
  std::pair<std::uint32_t, std::uint32_t> binding_value_tokens(const py_scope::record& r) const;
  /// The module and import level of `module_name.submodules`, read in `scope`, where the
  /// scopes import a module as `module_name` (`submodules` dotted, or empty); none where
  /// the name is a value, or nothing imports it.
  std::optional<std::pair<std::string, std::uint32_t>>
  imported_module(std::int32_t scope, std::string_view module_name, std::string_view submodules);
  const scope_functions& functions_of_scope(std::int32_t s);
  const std::unordered_map<std::string_view, std::vector<std::uint32_t>>&
  changes_of_scope(std::int32_t s);
  file_tables own_tables_;
  file_tables* shared_tables_ = nullptr; ///< use_file_tables
  file_tables& tables() { return shared_tables_ ? *shared_tables_ : own_tables_; }
  /// Whether the file may reach a function's frame where no call spells it (reaches_frames).
  bool frames_reachable();
  std::optional<bool> frames_reachable_; ///< frames_reachable's answer, without use_frames
  std::optional<bool>* frames_ = nullptr; ///< use_frames
  static constexpr std::size_t dynamic_read_limit = std::size_t{1} << 20;
  std::size_t dynamic_reads_ = 0; ///< every_local's reads in this function
  /// A constant of the file seen from this function (cached per function); `h` is
  /// hash_name(n).
  std::optional<std::int64_t> constant(std::string_view n, std::uint64_t h);
  /// A name node for token `t`.
  mutable_expr name_node(const token& t, const resolved_name& r);
  /// The nodes of a dotted name (attributes located where it starts).
  mutable_expr materialize(const dotted& d, const resolved_name& root);
  /// The spelling of attributes [0, n) of a dotted name over an open root, as written.
  std::string_view raw_spelling(const dotted& d, std::uint32_t n);

  mutable_expr parse_primary();

  mutable_expr parse_slice();
  /// The keys of the subscripts in a `for` or `with ... as` target that stores, tokens
  /// [b, e) (`d[k]`, `slots[chip(v, device=3)]`), read as one value that may not be
  /// evaluated (Python evaluates a for target on each item): the store keeps them with
  /// the item, and a call among them is judged as anywhere. Null when there are none.
  expression_ptr target_keys(std::uint32_t b, std::uint32_t e);

  /// f(args): a recognized operation, a function of the program, or any call. The
  /// callee is `callee`, or the dotted name `d` (with its root resolved as `root`).
  mutable_expr make_call(std::uint32_t b, mutable_expr callee, const dotted* d,
                         const resolved_name& root);

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

  /// A call of a DSL function the file imports (docs/commscope-opt.md, "Programs across
  /// modules"): the function call, or null when the callee is no imported name (or one
  /// left unresolved without a `device=`, an ordinary call).
  mutable_expr imported_call(expression_spec& s, const dotted* d, std::string_view last,
                             bool is_attribute, bool device);
  /// `m.NAME` after `import M as m`: the constant NAME of module M, if it is one.
  std::optional<std::int64_t> imported_constant(const dotted& d);
  /// Whether the file may store an attribute named `name` of some object (`C.N = 4`,
  /// `setattr(C, "N", 4)`): a module's constant of that name may then be rebound.
  bool stores_attribute(std::string_view name);
  /// The import a dotted use's root names, and the module and name it reaches.
  struct imported_use {
    const import_record* record = nullptr;
    std::string module;
    std::uint32_t level = 0;
    std::string_view name;
  };
  std::optional<imported_use> use_of(const dotted* d, std::string_view last, bool is_attribute);
  /// A name the module binds only by a star import (`from chips import *`): an import
  /// record of it from the last such module that defines a DSL function of that name.
  const import_record* star_import_of(std::string_view name);
  std::deque<import_record> star_records_;
  /// The module a dotted name `root.a1...an` reaches through `rec`, the import of its root:
  /// the module of the use (module_of_use) followed by a1 ... a(n-1).
  std::string dotted_module(const import_record& rec, const dotted& d) const;
  /// Whether the dotted callee `d` is a library's function (program_unit::dotted_call):
  /// its root is the DSL's module, or a module that no file of the search path holds, nor
  /// any package it is in (`numpy` for `np.linalg.norm`). False for a root no import binds,
  /// and, without a loader, for any module but the DSL's.
  bool library_function(const dotted& d);
  /// Why an imported callee was not found, for the malformed-op message.
  std::string unresolved_reason(const resolution& r, const imported_use& u,
                                std::string_view callee) const;

  /// Records the open names a dispatch's `device=` depends on: the name itself, or the
  /// open names in the bounds of the loop whose variable it is.
  void note_open_device_names(const expression& call);
  /// The nearest name within two edits of `name` bound in scope at `at`; failing one, a
  /// name the function binds before `at` that `name` starts with (`r` for `rank`); or
  /// empty (program_unit::name_suggestions).
  std::string_view nearby_name(std::string_view name, source_location at) const;
  /// A call of a chip orchestrator without `device=` dispatches nothing: records the
  /// views it is given by name (program_unit::undispatched_views).
  void note_undispatched(const expression& call, std::string_view callee);
  /// The value of an integer constant expression as Python computes it: integers (the
  /// file's constants among them) combined by `+ - * // % **` and unary `-`; nullopt
  /// for anything else, beyond int64, or where Python would fail (a division by zero).
  std::optional<std::int64_t> fold_integer(const expression& root) const;
  /// e as the integer it is when it is an integer constant expression (fold_integer),
  /// else e: what the DSL binds when it builds the program, where the pass reads an
  /// integer (`device=TP - 1`, `pl.range(N - 1, -1, -1)`, `last = N - 1`). An
  /// allocation's size keeps its form: the plan prints it as written.
  expression_ptr folded(const expression_ptr& e);
  /// The integer node folded() makes of e; null when e is no integer constant expression
  /// (or a plain integer already).
  mutable_expr integer_of(const expression& e);
  struct fold_frame {
    const expression* e;
    bool expanded;
  };
  mutable std::vector<fold_frame> fold_stack_;    ///< fold_integer's scratch
  mutable std::vector<std::int64_t> fold_values_; ///< fold_integer's scratch

  /// `alloc_window_buffer([d0, d1, ...], dtype=pl.T)`: its size is the product of the
  /// shape's elements and the width of T (args[0] becomes that product; base keeps the
  /// shape as written). False, after a diagnostic, for an unknown dtype.
  bool shape_allocation(expression& e);

  mutable_expr comprehension(std::uint32_t b, const expression_ptr& element);

  mutable_expr parse_atom();

  mutable_expr parenthesized(std::uint32_t b);

  mutable_expr list_display(std::uint32_t b);

  /// Dicts, sets and their comprehensions: opaque, their parts still read.
  mutable_expr brace_display(std::uint32_t b);

  mutable_expr number(const token& t);

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
  loader_state* loader_ = nullptr;
  std::optional<std::unordered_set<std::string_view>>* uses_ = nullptr; ///< use_names
  importer importer_{};
  std::string_view path_;
  /// Imported callees already looked up, by scope and spelling: their signature (null:
  /// unresolved).
  std::unordered_map<std::string, const signature*> imported_;
  /// Modules library_function looked for, by name: whether they are a library's.
  std::unordered_map<std::string, bool> library_modules_;
  /// The attribute names the file stores (stores_attribute), found on first use; any
  /// name when a `setattr` names its attribute by no string literal.
  std::optional<attribute_stores> stored_attributes_;
  std::vector<const scanned_module*> broken_reported_;
  /// What the module's functions may return of their arguments, made for its first chip
  /// orchestrator.
  /// The scope of each function the file defines, by name (make_signature: a chip defined
  /// twice in one scope), made for its first chip orchestrator.
  node_factory w_;
  program_unit* unit_ = nullptr;
  std::shared_ptr<source_text> texts_;
  std::size_t i_ = 0;
  std::uint32_t last_end_ = 0;
  std::uint32_t depth_ = 0;
  std::uint32_t next_id_ = 0;
  std::int32_t scope_ = 0;
  bool jit_ = false;
  bool resolving_ = false;
  /// The function parse_function makes is a host orchestrator that another DSL function
  /// of the file names (function::returns_to_callers).
  bool returns_to_callers_ = false;
  /// The yields and the calls of functions the front end does not know parsed so far:
  /// either may stop the function there (a generator's consumer stops at a yield; a
  /// call may raise), in some worlds and not in others.
  std::uint32_t may_stop_ = 0;
  std::string_view host_name_; ///< its name, when it is
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
  /// Per name of shadow_: for a comprehension's target, the tokens of the iterable it
  /// takes its items from, and how many names of shadow_ that iterable sees (those of
  /// the enclosing comprehensions, and of its own earlier `for` clauses); none for a
  /// lambda's parameter.
  struct shadow_source {
    std::uint32_t begin, end;
    std::uint32_t visible;
  };
  std::vector<shadow_source> shadow_sources_;
  void shadow(std::string_view name) {
    shadow_.push_back(name);
    shadow_sources_.push_back(shadow_source{0, 0, 0});
  }
  void unshadow(std::size_t size) {
    shadow_.resize(size);
    shadow_sources_.resize(size);
  }
  /// A read of a comprehension's target (shadow_ entry `k`): the name as written (open)
  /// with, as operands, the variables its iterable reads (through the targets of
  /// enclosing clauses): it may be (part of) any view among them.
  mutable_expr comprehension_target(const token& t, std::size_t k);
  std::unordered_map<std::uint32_t, window_buffer_ptr> windows_;
  std::unordered_map<const variable*, std::array<expression_ptr, 3>> loop_of_;
  std::vector<open_scope> scopes_;
  name_table<const signature*, signature_name> signatures_;
  std::vector<std::pair<expression*, std::string_view>> pending_calls_;
  /// The statement that binds each view variable (undispatched calls point at it), in
  /// the order they are read; looked up once per program, and only when a chip
  /// orchestrator is called without device= (rare), so no map is kept for every view.
  std::vector<std::pair<const variable*, source_location>> view_statements_;
  /// The plain-name arguments of such calls: (variable, call, callee).
  struct undispatched_argument {
    const variable* var = nullptr;
    source_location call{};
    std::string_view callee;
  };
  std::vector<undispatched_argument> undispatched_;
  /// A `@pl.jit` function of an enclosing scope that a call of the group names (a host
  /// in a test function calling the module's chip orchestrator), as Python finds it.
  const signature* enclosing_function(std::string_view name);
  const signature* lookup_enclosing(std::string_view name);
  /// The nearest scope from `from` outward that binds `name` (-1: none); class bodies
  /// are passed over when `skip_classes`, as Python looks a free name up.
  std::int32_t binding_scope(std::int32_t from, std::string_view name, bool skip_classes) const;
  /// The last binding of `name` in the nearest function from `from` outward that binds it,
  /// when that binding is no DSL function (no_binding: none, or the module binds it).
  std::uint32_t binding_outside_dsl(std::int32_t from, std::string_view name);
  /// The function (no class) of `scope` whose binding is the token `name` (its def's name,
  /// or a wrapping's target), or nullptr.
  const definition* function_bound_by(std::int32_t scope, std::uint32_t name) const;
  /// The token of the last binding of `name` in `scope` (no_binding: none): what the name
  /// holds once the scope has run, as when a host orchestrator runs after its module.
  static constexpr std::uint32_t no_binding = UINT32_MAX;
  std::uint32_t final_binding(std::int32_t scope, std::string_view name);
  /// The first star import of the module's level below token `after` whose module may
  /// bind `name` (it does, or its names cannot be listed); no_binding if none.
  std::uint32_t star_rebinding(std::string_view name, std::uint32_t after);
  /// A program class's functions from the program classes it derives from (same scope).
  void inherit_functions(const candidate_program& cp);
  /// Whether the import `r` makes the last binding of `name` in its scope.
  bool binds_last(const import_record& r, std::string_view name);
  /// enclosing_function's answers, by the group's scope and the name.
  std::unordered_map<std::string, const signature*> enclosing_;
  /// Turns undispatched_ into program_unit::undispatched_views.
  void resolve_undispatched();
  /// The `x ** y` nodes (opaque to the pass), which allocation sizes fold.
  std::unordered_set<const expression*> powers_;
  std::int32_t function_scope_ = -1; ///< the scan's scope of the function being read
  /// Whether `name`, read in the function, is Python's builtin: no scope from the
  /// function out to the module binds it, and no star import may (answers cached by
  /// scope and name).
  bool is_builtin(std::string_view name);
  std::unordered_map<std::string, bool> builtins_seen_;
  /// Whether the expression statement [b, e) is a call that ends the program as a raise
  /// does: `sys.exit(...)`, `os._exit(...)`, the builtins `exit()` and `quit()`, each as
  /// the file's imports and bindings resolve the callee.
  bool exits(std::uint32_t b, std::uint32_t e);
  /// local_variable's view of the names the function binds: a filter of their hashes,
  /// and, made only when a name passes it, the set of them.
  std::vector<std::uint64_t> record_filter_;
  std::unordered_set<std::string_view> function_names_;
  /// The last names it found unbound (hash, name): a few module names take most reads.
  std::array<std::pair<std::uint64_t, std::string_view>, 4> unbound_cache_{};
  std::size_t unbound_next_ = 0;
  std::string_view implicit_self_; ///< a method's `self`, which is no variable
  std::uint32_t chain_ = 0;        ///< function_source::chain of the source being read
  /// The function's names that code the pass does not see may read at any later time,
  /// and what makes them so: those a nested definition reads ("read by def NAME"), and
  /// those declared global or nonlocal. A binding of one after that is a store: what it
  /// binds escapes (into_cell).
  std::unordered_map<std::string_view, std::string> cells_;
  /// The names a `:=` may bind in the function: no statement shows the analysis that
  /// binding, so every binding of them is a value it does not follow (cells_).
  std::unordered_set<std::string_view> walrus_names_;
  /// Fills walrus_names_ from the tokens [b, e) of a body.
  void find_walrus_names(std::uint32_t b, std::uint32_t e);
  /// Where the outermost lambda or generator expression being read begins (no_late:
  /// none). Its body runs when it is called or iterated, maybe after the names it reads
  /// are bound again: each such name is a cell from there on, and one the function binds
  /// after that point is no value the analysis follows in the body (name_node).
  static constexpr std::uint32_t no_late = UINT32_MAX;
  /// Who reads a name late, for the cells it makes.
  static constexpr std::string_view late_reader =
      "read later by a lambda or a generator expression";
  std::uint32_t late_from_ = no_late;
  /// The parameters with default values of the lambdas being read: the analysis reads
  /// them as the host's names, and they hold what they held when the lambda was made.
  std::vector<std::string_view> defaulted_;
  /// The parameters of the lambdas being parsed that have a default, with it: in the
  /// body the name is what its default was when the lambda was made.
  std::vector<std::pair<std::string_view, expression_ptr>> lambda_defaults_;
  /// The reads name_node made opaque because a binding below may be what they read.
  std::unordered_set<const expression*> late_reads_;
  /// Loops open around the statement being read.
  std::uint32_t loops_open_ = 0;
  /// The token of the function's last binding of each name it binds (made when first
  /// needed, from the scan's records).
  std::unordered_map<std::string_view, std::uint32_t> last_binding_;
  bool last_binding_made_ = false;
  std::uint32_t last_binding_of(std::string_view n);
  /// The names that the nested definitions, lambdas and generator expressions in the
  /// tokens [b, e) of a loop read become cells before the loop is read: a later iteration
  /// may call them after any binding in it, above them in the text as well.
  void note_late_reads(std::uint32_t b, std::uint32_t e);
  /// The end of the block whose header ends at `colon` (one past its last token).
  std::uint32_t block_end(std::uint32_t colon) const;
  struct open_loop {
    dsl_parser& p;
    explicit open_loop(dsl_parser& q) : p(q) { ++q.loops_open_; }
    ~open_loop() { --p.loops_open_; }
    open_loop(const open_loop&) = delete;
    open_loop& operator=(const open_loop&) = delete;
  };
  /// Sets late_from_ for what it reads, unless an enclosing lambda or generator
  /// expression has.
  struct late_reading {
    dsl_parser& p;
    std::uint32_t saved;
    late_reading(dsl_parser& q, std::uint32_t b, bool late = true) : p(q), saved(q.late_from_) {
      if (late && saved == no_late)
        q.late_from_ = b;
    }
    ~late_reading() { p.late_from_ = saved; }
    late_reading(const late_reading&) = delete;
    late_reading& operator=(const late_reading&) = delete;
  };
  /// `value` bound to the cell `name`: a store of it where the analysis cannot follow.
  mutable_expr into_cell(std::string_view name, expression_ptr value, source_location at);
  /// The first of `names` that is a cell, or null.
  const std::string_view* first_cell(std::span<const std::string_view> names) const;
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

} // namespace commscope::frontend::detail
