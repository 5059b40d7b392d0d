// The separately compiled core (optional). By default commscope is header-only: every
// translation unit that runs the pass compiles all of it. Built with
// COMMSCOPE_SEPARATE_COMPILATION defined in every translation unit (CMake: link
// commscope::separate, which defines it), the code that does not depend on the IR, and
// the reference IR's rewrite, are compiled once, in the one translation unit that
// includes <commscope/separate_compilation.hpp>, and the others call them there.
//
// Each such function keeps its definition in the header, renamed `..._impl`: constant
// evaluation (the compile-time IR runs the pass in the compiler) runs it in both builds,
// and the compiled core compiles it. Its public name begins with COMMSCOPE_RUN_COMPILED,
// which calls the compiled definition at run time. The large, less frequent `_impl`
// functions (a symbolic join, a resolution, the end of a statement) are never inlined,
// so that the walk's own functions stay small: measured, that is faster in the
// header-only build too; the small ones (a lookup, a table's reset) are left to the
// inliner there. A step that only its caller reaches, off the caller's common path
// (device_set::join_rest), has no public name: the caller calls it after its own
// COMMSCOPE_RUN_COMPILED, so that a header-only build compiles no forwarding function.
// The compiled definitions call the `_impl` ones, never the public names, so that no
// inline copy can call back into itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace commscope {

class device_set;
struct device_progression;
struct device_interval;
enum class control_flow : std::uint8_t;
template <class Location> struct diagnostic;

namespace detail {

struct binding;
struct bound;
template <class> class basic_coverage;
using coverage = basic_coverage<void>;
struct coverage_inputs;
class definitions;
struct descriptor;
struct site_ref;
template <class> struct basic_erased_records;
using erased_records = basic_erased_records<std::vector<diagnostic<site_ref>>>;
class device_pool;
class index_table;
class may_sets;
struct message_fields;
struct index_order;
struct keyed_index;
struct listed_devices;
template <class T> class trivial_vector;

#if defined(COMMSCOPE_SEPARATE_COMPILATION)
/// `COMMSCOPE_RUN_COMPILED(f(args))` returns compiled::f(args) at run time, never in
/// constant evaluation. In the header-only build it is nothing at all, so that no
/// translation unit refers to the compiled definitions, even unoptimized. Spelled so
/// that g++ drops the `_impl` call that follows as it reads the function: the builtin,
/// not std::is_constant_evaluated() (a call until inlined), as the condition itself (g++
/// does not fold it negated), the run-time return in the else branch. Otherwise the
/// `_impl` call is dead only after early inlining, when every `_impl` function and what
/// it calls has been lowered and optimized in the pass TU.
#define COMMSCOPE_RUN_COMPILED(...)                                                                \
  if (__builtin_is_constant_evaluated()) {                                                         \
  } else                                                                                           \
    return ::commscope::detail::compiled::__VA_ARGS__
#else
#define COMMSCOPE_RUN_COMPILED(...)
#endif

/// Whether this translation unit calls the separately compiled core: a path that is
/// cheaper to compile only when the core holds its code is taken then.
#if defined(COMMSCOPE_SEPARATE_COMPILATION)
inline constexpr bool separate_core = true;
#else
inline constexpr bool separate_core = false;
#endif

/// How a function that is neither constexpr nor a template, and is defined out of its
/// class (the reference IR's rewrite), is declared: inline in the header-only build;
/// in the separate one, an ordinary function that the compiled core defines once.
#if defined(COMMSCOPE_SEPARATE_COMPILATION)
#define COMMSCOPE_DECL
#else
#define COMMSCOPE_DECL inline
#endif

/// The separately compiled definitions (defined in <commscope/separate_compilation.hpp>).
/// Declared in both builds; called, and so needed at link time, only in the separate one.
struct compiled {
  static bool canonicalize(device_set& s, std::int64_t min_world);
  static bool includes(const device_set& s, const device_set& other, std::int64_t min_world);
  static bool join_symbolic(device_set& s, const device_set& other);
  static bool join_rest(device_set& s, const device_set& other);
  static void accumulate(device_set& s, const device_set& other);
  static void accumulate_rest(device_set& s, device_interval r);
  static bool join_intervals(device_set& s, const device_set& other);
  static void sort_intervals(device_set& s);
  static bool equal_arrays(const device_set& a, const device_set& b);
  static device_set progression(device_progression p);
  static void append(std::vector<device_set>& v, device_set&& s);
  static void append(std::vector<std::uint32_t>& v, std::uint32_t i);
  static device_set scope_devices(const listed_devices& l);
  static bool canonical_scope(const listed_devices& l, std::int64_t world);
  static descriptor range_descriptor(std::int64_t start, std::int64_t stop, std::int64_t step,
                                     std::int64_t limit);
  static descriptor loop_descriptor(bound start, bound stop, bound step, bool symbolic,
                                    std::int64_t limit);
  static std::string format_message(std::string_view pattern, const message_fields& f);
  static trivial_vector<std::uint32_t> sorted_indices(std::size_t n, const index_order& order);
  static void sort_keyed(keyed_index* first, std::size_t n);
  static std::uint32_t unite(may_sets& sets, std::uint32_t a, std::uint32_t b);
  static void reset(definitions& t);
  static std::uint32_t bind(definitions& t, std::uint32_t x, binding b, bool first_merges);
  static void open(definitions& t, control_flow how);
  static void branch(definitions& t);
  static void jump(definitions& t);
  static void close(definitions& t);
  static std::uint32_t derive(definitions& t, const std::uint32_t* defs, std::size_t n);
  static void end_walk(definitions& t);
  static void release_definitions(definitions& t);
  static void set_view(definitions& t, std::uint32_t def, std::uint32_t view);
  static std::uint32_t view_of(definitions& t, std::uint32_t d);
  static void views_of(definitions& t, std::uint32_t* defs, std::size_t n);
  static std::uint32_t reach(definitions& t, std::uint32_t x, std::uint32_t d, bool binding_it);
  static std::uint32_t resolve(definitions& t, std::uint32_t d, std::uint8_t mode);
  static void find_sources(definitions& t, std::uint32_t d, bool pointers);
  static std::uint32_t pointer_allocation(definitions& t, std::uint32_t d);
  static std::uint32_t intern(device_pool& p, const device_set& s);
  static std::uint32_t id_of(device_pool& p, const device_set& s);
  static void reset(index_table& t, std::size_t n);
  static void grow(index_table& t);
  static std::uint32_t join_sets(device_pool& p, std::uint32_t x, std::uint32_t y);
  static void judge(coverage& c, const erased_records& p, const coverage_inputs& in);
};

} // namespace detail
} // namespace commscope
