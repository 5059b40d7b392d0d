// Per-variable bookkeeping of one function, flow-sensitive (docs/semantics.md,
// "Resolution of a variable to a view" and "Rebinding and control flow"): every binding
// is a definition of its own, and a use is recorded as the definition that reaches it in
// the walk. Where several can reach a use, a merge definition stands for them, as a phi
// does in SSA construction, placed by how the enclosing statements run (adapter.hpp,
// control):
//   - a loop body (repeat) that reads a variable bound before it reads a merge of the value
//     before the loop and the values at the end of its body and at each jump out of an
//     iteration, created at the first read and dropped at the loop's end if the body never
//     rebinds the variable; after the loop the variable is that merge;
//   - alternatives: each branch starts from the value before the statement, and after it
//     the variable merges the values at the end of every branch (so a binding on every
//     path replaces the value before);
//   - a block that may be skipped: after it, the value before merged with the value after;
//     a block that runs once needs no merge.
// A merge resolves to the union of what the definitions it merges resolve to: a may-set
// of views (may_set.hpp). Resolution to a constant or an allocation (device inference, a
// window's pointer) needs one definition; "not bound" (a parameter, a value from
// outside) then conflicts with any other.
//
// The tables live outside the IR, keyed by a dense id: the adapter's variable_index when it
// has one, else an interned key. Resolution is iterative (Tarjan's strongly connected
// components over merges, memoized; copies are passed through, each pointed at the end of
// its chain): a chain of a million copies resolves in linear total time without growing
// the call stack, and a cycle of merges resolves to what enters it.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/compiled.hpp>
#include <commscope/detail/may_set.hpp>
#include <commscope/detail/segmented.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

namespace commscope::detail {

/// What one definition binds a variable to.
struct binding {
  enum class kind : std::uint8_t {
    unbound,           ///< no definition reaches (a parameter, a value from outside)
    copy,              ///< x = y: ref = the definition of y that reached
    integer,           ///< x = N: value
    world_size,        ///< x = world_size()
    world_offset,      ///< x = y - value, y world_size() (ref = no_index) or the definition of y
    loop,              ///< the variable of for loop `ref`
    allocation,        ///< x = alloc_window_buffer(...): ref = allocation index
    window,            ///< x = window(ptr, ...): ref = ptr's definition; value = its view,
                       ///< or -1 - the position of its assignment while it is none
    collective_result, ///< x = allreduce(a, ...) etc.: ref = the definition of a
    opaque,            ///< bound to something the pass does not follow
    merge,             ///< ref and value: the two definitions merged
    /// x = an expression derived from variables (a slice, a tuple, a pure op's result):
    /// ref and value (no_index: none) the definitions of two of them, the others chained
    /// through value. It may be (part of) any of their views, or a copy of any of their
    /// window pointers; it is no copy of their values (no device, no size).
    derived,
  };
  kind what = kind::unbound;
  std::uint32_t ref = no_index;
  std::int64_t value = 0;
};

/// The definitions of one function's variables, by dense variable id: everything of the
/// table but how the adapter's variables become ids (variable_table, below), so that it
/// is IR-independent and, built for it, compiled once (compiled.hpp).
class definitions {
  static constexpr std::uint32_t unknown = no_index - 1;
  static constexpr std::uint32_t top = no_index - 2;    ///< reaches nothing yet
  static constexpr std::uint32_t bottom = no_index - 3; ///< reaches two different things

public:
  using sets_type = may_sets;
  using set_handle = typename sets_type::handle;

  /// `dense`: the ids are the adapter's own variable indices, below `bound` (a table
  /// sized to the program); else they are interned per function, from 0. The table is
  /// sized by the first reset(), which every walk begins with: a table that never walks
  /// (the verifier's second walker, on most programs) costs nothing.
  constexpr definitions(bool dense, std::size_t bound) : dense_(dense), bound_(bound) {}

  /// Forget the previous function: O(1) for the variables (entries stored below the new
  /// base read as unbound), linear in the previous function's definitions.
  constexpr void reset() {
    COMMSCOPE_RUN_COMPILED(reset(*this));
    reset_impl();
  }
  [[gnu::noinline]] constexpr void reset_impl() {
    defs_.clear();
    no_pointer_.clear();
    wide_.clear();
    resolutions_.clear();
    on_stack_.clear();
    node_bits_.clear();
    node_rank_.clear();
    indexed_ = 0;
    nodes_ = 0;
    frames_.clear();
    merging_.clear();
    reach_from_ = 0;
    stopping_ = 0;
    stopped_.clear();
    records_.clear();
    sets_.clear();
    if (!dense_)
      vars_.clear();
    else if (vars_.size() < bound_) // given back after a large walk (end_walk)
      vars_.resize(bound_);
    if (top_ > base_limit) { // entries near overflow: clear them all, once per 2^31
      vars_.assign(vars_.size(), 0);
      top_ = 0;
    }
    base_ = top_;
  }

  // ---- during the walk

  /// The definition of variable x that reaches this point of the walk (no_index: none).
  [[nodiscard]] constexpr std::uint32_t use(std::uint32_t x) {
    const std::uint32_t d = current(x);
    if (d + 1 >= reach_from_) // no_index + 1 wraps to 0
      return d;
    return reach(x, d, false);
  }

  /// A new definition of variable x; returns it. `first_merges`: whether a first binding
  /// (x not bound yet) merges with "not bound" at the statements around it, as it must
  /// (a parameter's value, which the IR does not bind); a loop's own variable need not,
  /// since no use outside its loop takes it for a device.
  constexpr std::uint32_t bind(std::uint32_t x, binding b, bool first_merges = true) {
    COMMSCOPE_RUN_COMPILED(bind(*this, x, b, first_merges));
    return bind_impl(x, b, first_merges);
  }
  [[gnu::noinline]] constexpr std::uint32_t bind_impl(std::uint32_t x, binding b,
                                                      bool first_merges) {
    const std::uint32_t d = current(x);
    // Inside a statement that may stop, even a loop's own variable may be seen after it.
    if (d + 1 < reach_from_ && (d != no_index || first_merges || stopping_ > 0))
      reach(x, d, true);
    const auto def = make(b);
    set(x, def);
    if (stopping_ > 0) { // what follows a statement that may stop may see it
      stopped_.emplace_back(x);
      stopped_.emplace_back(def);
    }
    return def;
  }

  /// A definition derived from the `n` definitions at `defs` (no_index among them is
  /// skipped): no_index for none, else one definition that leads to each of them.
  constexpr std::uint32_t derive(const std::uint32_t* defs, std::size_t n) {
    COMMSCOPE_RUN_COMPILED(derive(*this, defs, n));
    return derive_impl(defs, n);
  }
  constexpr std::uint32_t derive_impl(const std::uint32_t* defs, std::size_t n) {
    std::uint32_t r = no_index;
    for (std::size_t k = 0; k < n; ++k)
      if (defs[k] != no_index)
        r = make({binding::kind::derived, defs[k], static_cast<std::int64_t>(r)});
    return r;
  }

  /// A statement with children begins; `how` its children run.
  constexpr void open(control_flow how) {
    COMMSCOPE_RUN_COMPILED(open(*this, how));
    open_impl(how);
  }
  [[gnu::noinline]] constexpr void open_impl(control_flow how) {
    if (how != control_flow::block) {
      merging_.emplace_back(static_cast<std::uint32_t>(frames_.size()));
      reach_from_ = static_cast<std::uint32_t>(defs_.size()) + 1;
    }
    frames_.emplace_back(frame{static_cast<std::uint32_t>(defs_.size()), no_index, how, 0,
                               static_cast<std::uint32_t>(stopped_.size())});
    stopping_ += how == control_flow::may_stop ? 1 : 0;
  }

  /// The next branch of the innermost statement (alternatives) begins: what the previous
  /// one bound is set aside for the merge at its end, and each variable it bound starts
  /// again from its value before the statement.
  constexpr void branch() {
    COMMSCOPE_RUN_COMPILED(branch(*this));
    branch_impl();
  }
  [[gnu::noinline]] constexpr void branch_impl() {
    auto& f = frames_.back();
    if (f.branches++ == 0)
      return;
    for (auto r = f.last_record; r != no_index; r = records_[r].previous) {
      auto& rec = records_[r];
      rec.def = join(rec.def, current(rec.variable));
      // A definition of its own, made inside the statement: to the walk, the variable is
      // then bound here, and a binding later in this branch makes no second record.
      set(rec.variable, make({binding::kind::copy, rec.entry, 0}));
    }
  }

  /// A break or continue: the values here reach the innermost loop's next iteration and
  /// its end as the values at the end of its body do.
  constexpr void jump() {
    COMMSCOPE_RUN_COMPILED(jump(*this));
    jump_impl();
  }
  [[gnu::noinline]] constexpr void jump_impl() {
    auto k = frames_.size();
    while (k > 0 && frames_[k - 1].how != control_flow::repeat)
      --k;
    if (k == 0)
      return;
    for (auto r = frames_[k - 1].last_record; r != no_index; r = records_[r].previous) {
      auto& rec = records_[r];
      rec.extra = join(rec.extra, current(rec.variable));
    }
  }

  /// The statement ends: its merges get their other definitions.
  constexpr void close() {
    COMMSCOPE_RUN_COMPILED(close(*this));
    close_impl();
  }
  [[gnu::noinline]] constexpr void close_impl() {
    const frame f = frames_.back();
    if (f.how == control_flow::may_stop)
      join_stopped(f);
    for (auto r = f.last_record; r != no_index; r = records_[r].previous) {
      const record rec = records_[r];
      const std::uint32_t end = current(rec.variable);
      if (f.how == control_flow::alternatives) {
        set(rec.variable, join(rec.def, end));
        continue;
      }
      const std::uint32_t last = join(end, rec.extra);
      auto& m = defs_[rec.def];
      if (last == rec.def || last == rec.entry) { // never rebound in it: its entry value
        m = pack({binding::kind::copy, past_copies(rec.entry), 0});
        set(rec.variable, rec.entry);
      } else {
        set_index(m, last);
        set(rec.variable, rec.def);
      }
    }
    if (f.how == control_flow::may_stop && --stopping_ == 0)
      stopped_.clear(); // an enclosing statement that may stop saw them too
    if (f.how != control_flow::block) {
      merging_.pop_back();
      reach_from_ = merging_.empty() ? 0 : frames_[merging_.back()].first_def + 1;
    }
    frames_.pop_back();
    // The closed statement's records are dead where they lie (each statement walks its
    // own chain, never the others'); all are dead at the top level.
    if (frames_.empty())
      records_.clear();
  }

  // ---- after the walk

  /// The variables' entries are read by the walk only. A table sized to the program is
  /// given back after a walk that made at least half as many definitions as the program
  /// has variables (its largest functions), off the analysis' peak: sizing it again for
  /// the next function then costs at most twice what this walk did.
  constexpr void end_walk() {
    COMMSCOPE_RUN_COMPILED(end_walk(*this));
    end_walk_impl();
  }
  constexpr void end_walk_impl() {
    // The entries first: trimming copies the last segment, and should not add it on top.
    if (dense_ && 2 * defs_.size() >= vars_.size())
      vec<std::uint32_t>().swap(vars_);
    defs_.trim(); // resolving may still add a few: they grow it again
  }

  /// Frees the definitions and their resolutions once nothing resolves any more (the
  /// variables' entries stay: they are sized to the program, not the function; the
  /// may-sets stay: the analysis reads them to the end).
  constexpr void release_definitions() {
    COMMSCOPE_RUN_COMPILED(release_definitions(*this));
    release_definitions_impl();
  }
  constexpr void release_definitions_impl() {
    defs_.clear();
    vec<wide_value>().swap(wide_);
    vec<resolution>().swap(resolutions_);
    vec<std::uint8_t>().swap(on_stack_);
    vec<std::uint64_t>().swap(node_bits_);
    vec<std::uint32_t>().swap(node_rank_);
    indexed_ = 0;
    nodes_ = 0;
  }

  [[nodiscard]] constexpr binding at(std::uint32_t def) const {
    if (def >= defs_.size())
      return {};
    const auto& d = defs_[def];
    return {d.what(), ref_of(d), value_of(d)};
  }
  /// A window definition found to be a view gets its view's index.
  constexpr void set_view(std::uint32_t def, std::uint32_t view) {
    COMMSCOPE_RUN_COMPILED(set_view(*this, def, view));
    set_index(defs_[def], view);
  }

  /// Follows copies and merges to the one definition they start from, or no_index (none,
  /// or several: see sources()).
  [[nodiscard]] constexpr std::uint32_t root(std::uint32_t d) {
    if (d == no_index)
      return no_index;
    const auto& b = defs_[d];
    if (b.what() != binding::kind::copy && b.what() != binding::kind::merge)
      return d;
    const auto r = resolve(d, root_mode);
    return r == top || r == bottom ? no_index : r;
  }

  /// Calls f(definition) for every definition copies and merges lead d to that is
  /// neither (no_index for "not bound"), each once; `pointers`: derived definitions are
  /// followed too (what a window pointer may name). For the rare use that several may
  /// reach where one was needed (root() gave none): not memoized, linear in what it visits.
  template <class F> constexpr void sources(std::uint32_t d, F&& f, bool pointers = false) {
    const auto mark = found_.size();
    find_sources(d, pointers);
    const auto end = found_.size();
    // f may look for sources itself: those go after `end`, and are gone when it returns.
    for (auto i = mark; i < end; ++i)
      f(found_[i]);
    found_.resize(mark);
  }

  /// Appends what sources() calls f for to found_: the search, IR-independent and so
  /// compiled once; the calls, a loop per caller.
  constexpr void find_sources(std::uint32_t d, bool pointers) {
    COMMSCOPE_RUN_COMPILED(find_sources(*this, d, pointers));
    find_sources_impl(d, pointers);
  }
  [[gnu::noinline]] constexpr void find_sources_impl(std::uint32_t d, bool pointers) {
    if (seen_.size() < defs_.size())
      seen_.resize(defs_.size(), 0);
    if (++stamp_ == 0) { // wrapped: start the stamps again
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    bool unbound = false;
    stack_.clear();
    stack_.emplace_back(d);
    while (!stack_.empty()) {
      const auto x = stack_.back();
      stack_.pop_back();
      if (x == no_index || x >= defs_.size()) {
        unbound = true;
        continue;
      }
      if (seen_[x] == stamp_)
        continue;
      seen_[x] = stamp_;
      if (!follow(defs_[x], pointers))
        found_.emplace_back(x);
    }
    if (unbound)
      found_.emplace_back(no_index);
  }

  /// The allocation (the smallest index) whose window pointer d may hold, through copies,
  /// merges and derived values, or no_index: what a dispatch argument that is no view may
  /// hand the chip. Asked of every dispatch argument, so the definitions a search finds
  /// to reach no pointer are remembered (one bit each), and each is searched once;
  /// release_pointer_searches() forgets them. A search that finds one (an error) is not
  /// remembered.
  constexpr std::uint32_t pointer_allocation(std::uint32_t d) {
    COMMSCOPE_RUN_COMPILED(pointer_allocation(*this, d));
    return pointer_allocation_impl(d);
  }
  [[gnu::noinline]] constexpr std::uint32_t pointer_allocation_impl(std::uint32_t d) {
    if (d >= defs_.size())
      return no_index;
    // A copy chain (`x = v`) is passed at once, its links pointed at its end: most
    // arguments are then a view's own definition, and need no search.
    if (defs_[d].what() == binding::kind::copy)
      d = past_copies(d);
    if (d >= defs_.size())
      return no_index;
    switch (defs_[d].what()) {
    case binding::kind::allocation:
      return ref_of(defs_[d]);
    case binding::kind::merge:
    case binding::kind::derived:
    case binding::kind::world_offset:
      break;
    default:
      return no_index;
    }
    const std::size_t words = (defs_.size() + 63) / 64;
    if (no_pointer_.size() < words)
      no_pointer_.resize(words, 0);
    // Each definition visited is marked at once as reaching no pointer, which every
    // search that ends without one makes true; one that finds a pointer (an error: rare)
    // takes its marks back.
    std::uint32_t found = no_index;
    const auto mark = found_.size(); // the definitions this search visits
    stack_.clear();
    stack_.emplace_back(d);
    while (!stack_.empty()) {
      const auto x = stack_.back();
      stack_.pop_back();
      if (x >= defs_.size())
        continue;
      auto& word = no_pointer_[x / 64];
      const std::uint64_t bit = std::uint64_t{1} << (x % 64);
      if ((word & bit) != 0)
        continue;
      word |= bit;
      found_.emplace_back(x);
      const auto& b = defs_[x];
      if (!follow(b, true) && b.what() == binding::kind::allocation)
        found = std::min(found, ref_of(b)); // any other source, a view or a value: none
    }
    if (found != no_index)
      for (auto i = mark; i < found_.size(); ++i)
        no_pointer_[found_[i] / 64] &= ~(std::uint64_t{1} << (found_[i] % 64));
    found_.resize(mark);
    return found;
  }
  /// Gives back what pointer_allocation() remembers.
  constexpr void release_pointer_searches() { vec<std::uint64_t>().swap(no_pointer_); }

  /// The allocation a window's pointer names (through copies), or no_index.
  [[nodiscard]] constexpr std::uint32_t allocation_of(std::uint32_t d) {
    const auto& b = at(root(d));
    return b.what == binding::kind::allocation ? b.ref : no_index;
  }

  /// The views (indices into the function plan's views) a definition may resolve to,
  /// through copies, merges and collective results: a may-set (sets()).
  [[nodiscard]] constexpr set_handle view_of(std::uint32_t d) {
    COMMSCOPE_RUN_COMPILED(view_of(*this, d));
    return view_of_impl(d);
  }
  /// Replaces each of the `n` definitions at `defs` by view_of it: one call into the
  /// compiled core for a whole block of arguments.
  constexpr void views_of(std::uint32_t* defs, std::size_t n) {
    COMMSCOPE_RUN_COMPILED(views_of(*this, defs, n));
    views_of_impl(defs, n);
  }
  constexpr void views_of_impl(std::uint32_t* defs, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k)
      defs[k] = view_of_impl(defs[k]);
  }
  [[nodiscard]] constexpr set_handle view_of_impl(std::uint32_t d) {
    if (d == no_index || d >= defs_.size())
      return sets_type::empty;
    if (!followed(defs_[d], view_mode))
      return source(d, view_mode);
    return resolve(d, view_mode);
  }

  [[nodiscard]] constexpr const sets_type& sets() const { return sets_; }

private:
  template <class> friend class variable_table; // numbers the variables: vars_
  enum mode : std::uint8_t { root_mode = 0, view_mode = 1 };

  /// A binding as stored: 8 bytes where a binding takes 16 (the definitions are the
  /// largest table of the analysis' peak). `word` holds the kind, the form and `low`: the
  /// value is `low` (form index; all ones: no_index) or -1 - `low` (form negative), both
  /// below 2^26 in magnitude (definitions, views, positions, most integers); any other
  /// value is wide, and `ref` then indexes wide_, which holds the value and the real ref.
  /// Read both through ref_of() and value_of().
  struct definition {
    enum form_kind : std::uint8_t { index, negative, wide };
    static constexpr unsigned low_bits = 26;
    static constexpr std::uint32_t low_mask = (std::uint32_t{1} << low_bits) - 1;
    std::uint32_t ref = no_index;
    std::uint32_t word = 0;
    constexpr definition() = default;
    constexpr definition(std::uint32_t r, binding::kind what, form_kind form, std::uint32_t low)
        : ref(r), word(low | (static_cast<std::uint32_t>(what) << low_bits) |
                       (static_cast<std::uint32_t>(form) << (low_bits + 4))) {}
    [[nodiscard]] constexpr binding::kind what() const {
      return static_cast<binding::kind>((word >> low_bits) & 15);
    }
    [[nodiscard]] constexpr form_kind form() const {
      return static_cast<form_kind>(word >> (low_bits + 4));
    }
    [[nodiscard]] constexpr std::uint32_t low() const { return word & low_mask; }
  };
  static_assert(static_cast<unsigned>(binding::kind::derived) < 16, "a kind takes 4 bits");
  struct wide_value {
    std::int64_t value;
    std::uint32_t ref;
  };
  /// What resolution keeps per merge, collective result or derived definition (the nodes
  /// of its graph: a copy is an edge, passed through), in a table of its own, made only
  /// once the walk is over and a resolution is asked for, so that the walk's definitions
  /// stay small; most definitions are copies, windows and allocations, which need none.
  /// The flags that say a memo holds a visit index live apart (on_stack_): beside the
  /// memo they would pad each entry from 8 bytes to 12.
  struct resolution {
    std::uint32_t memo[2]{unknown, unknown}; ///< a result; on the stack: the visit index
  };
  struct frame {
    std::uint32_t first_def;
    std::uint32_t last_record; ///< its newest record; each links to the one before
    control_flow how;
    std::uint32_t branches;  ///< alternatives: how many have begun
    std::uint32_t stop_mark; ///< stopped_'s size when it began
  };
  /// A merge to complete when its statement ends. Alternatives: `def` is what the
  /// branches so far ended with (no_index: none yet), `entry` the value before.
  /// Otherwise `def` is the merge and `extra` what jumps out of an iteration carried.
  struct record {
    std::uint32_t variable, def, entry, extra;
    std::uint32_t previous; ///< the statement's record before this one
  };

  /// The statement `f`, which may stop, ends: every value bound in it (stopped_, from its
  /// mark) may be what follows sees, as a value a jump carries out is (its record's
  /// extra). Joined per variable first, then given to the records: linear in both.
  constexpr void join_stopped(const frame& f) {
    for (auto k = f.stop_mark; k < stopped_.size(); k += 2) {
      const auto x = stopped_[k], def = stopped_[k + 1];
      if (x >= stop_joins_.size())
        stop_joins_.resize(x + 1, no_index);
      stop_joins_[x] = join(stop_joins_[x], def);
    }
    for (auto r = f.last_record; r != no_index; r = records_[r].previous) {
      auto& rec = records_[r];
      if (rec.variable < stop_joins_.size())
        rec.extra = join(rec.extra, stop_joins_[rec.variable]);
    }
    for (auto k = f.stop_mark; k < stopped_.size(); k += 2)
      stop_joins_[stopped_[k]] = no_index;
  }

  constexpr void add_record(std::size_t frame_index, record r) {
    auto& f = frames_[frame_index];
    r.previous = f.last_record;
    f.last_record = static_cast<std::uint32_t>(records_.size());
    records_.emplace_back(r);
  }

  constexpr std::uint32_t current(std::uint32_t x) const {
    const std::uint32_t v = vars_[x];
    return v > base_ ? v - base_ - 1 : no_index;
  }
  constexpr void set(std::uint32_t x, std::uint32_t def) {
    const std::uint32_t v = def == no_index ? 0 : base_ + 1 + def;
    vars_[x] = v;
    if (v > top_)
      top_ = v;
  }

  constexpr std::uint32_t make(binding b) {
    if (b.what == binding::kind::copy)
      b.ref = past_copies(b.ref);
    defs_.emplace_back(pack(b));
    return static_cast<std::uint32_t>(defs_.size() - 1);
  }

  /// b as stored: its value in 32 bits when it fits (definitions, views, positions, most
  /// integers), else in wide_.
  constexpr definition pack(binding b) {
    constexpr std::int64_t limit = definition::low_mask;
    if (b.value >= 0 && b.value < limit)
      return {b.ref, b.what, definition::index, static_cast<std::uint32_t>(b.value)};
    if (b.value == no_index) // a merge's or a derivation's "none yet"
      return {b.ref, b.what, definition::index, definition::low_mask};
    if (b.value < 0 && b.value >= -1 - limit)
      return {b.ref, b.what, definition::negative, static_cast<std::uint32_t>(-1 - b.value)};
    wide_.emplace_back(wide_value{b.value, b.ref});
    return {static_cast<std::uint32_t>(wide_.size() - 1), b.what, definition::wide, 0};
  }
  constexpr std::int64_t value_of(const definition& d) const {
    switch (d.form()) {
    case definition::index:
      return d.low() == definition::low_mask ? std::int64_t{no_index} : d.low();
    case definition::negative:
      return -1 - static_cast<std::int64_t>(d.low());
    case definition::wide:
      break;
    }
    return wide_[d.ref].value;
  }
  constexpr std::uint32_t ref_of(const definition& d) const {
    return d.form() == definition::wide ? wide_[d.ref].ref : d.ref;
  }
  /// Stacks what definition b leads to (its sources are what it copies, merges, and with
  /// `pointers` what it is derived from): false for a source, which leads nowhere. One
  /// rule for sources() and pointer_allocation().
  constexpr bool follow(const definition& b, bool pointers) {
    if (b.what() == binding::kind::copy) {
      stack_.emplace_back(b.ref); // a copy's value is 0: never wide
    } else if (b.what() == binding::kind::merge) {
      stack_.emplace_back(ref_of(b));
      stack_.emplace_back(static_cast<std::uint32_t>(value_of(b)));
    } else if (b.what() == binding::kind::derived && pointers) {
      stack_.emplace_back(ref_of(b));
      if (value_of(b) != no_index)
        stack_.emplace_back(static_cast<std::uint32_t>(value_of(b)));
    } else if (b.what() == binding::kind::world_offset && pointers && ref_of(b) != no_index) {
      stack_.emplace_back(ref_of(b)); // its value is the offset, no definition
    } else {
      return false;
    }
    return true;
  }

  /// d's value becomes v, a definition's or a view's index.
  constexpr void set_index(definition& d, std::uint32_t v) {
    d = pack({d.what(), ref_of(d), static_cast<std::int64_t>(v)});
  }

  /// a and b merged ("nothing" merges as nothing).
  constexpr std::uint32_t join(std::uint32_t a, std::uint32_t b) {
    if (a == b || b == no_index)
      return a;
    if (a == no_index)
      return b;
    return make({binding::kind::merge, a, static_cast<std::int64_t>(b)});
  }

  /// x is read or bound inside statements that began after its definition d: each of
  /// them but a block run once gets its record, outermost first. A read changes what x
  /// is only inside a loop (it sees the loop's merge), and needs records only then: every
  /// statement around it must know that x changed there, as for a binding. Returns what
  /// the innermost statement sees.
  constexpr std::uint32_t reach(std::uint32_t x, std::uint32_t d, bool binding_it) {
    COMMSCOPE_RUN_COMPILED(reach(*this, x, d, binding_it));
    return reach_impl(x, d, binding_it);
  }
  [[gnu::noinline]] constexpr std::uint32_t reach_impl(std::uint32_t x, std::uint32_t d,
                                                       bool binding_it) {
    // Blocks are passed by: only the statements that merge are visited, those that began
    // after d (a suffix: a statement begins after those around it).
    auto k = merging_.size();
    while (k > 0 && (d == no_index || frames_[merging_[k - 1]].first_def > d))
      --k;
    if (!binding_it) {
      auto j = k;
      while (j < merging_.size() && frames_[merging_[j]].how != control_flow::repeat)
        ++j;
      if (j == merging_.size())
        return d; // a read in a branch or a block sees the value before it
    }
    std::uint32_t entry = d;
    for (auto j = k; j < merging_.size(); ++j) {
      const auto i = merging_[j];
      const auto how = frames_[i].how;
      const bool loop = how == control_flow::repeat;
      if (how == control_flow::alternatives) {
        // The branches before this one left x as it was.
        add_record(i, record{x, frames_[i].branches > 1 ? entry : no_index, entry, no_index, 0});
        continue;
      }
      const auto m = make({binding::kind::merge, entry, static_cast<std::int64_t>(no_index)});
      add_record(i, record{x, m, entry, no_index, 0});
      if (loop) // the loop's reads see the merge; a skipped block's see the entry
        entry = m;
    }
    set(x, entry);
    return entry;
  }

  /// Follows copies (each names an earlier definition, so this ends) to the first
  /// definition that is no copy, or to no_index; the copies passed are pointed at it, so
  /// that a chain is walked once.
  constexpr std::uint32_t past_copies(std::uint32_t d) {
    std::uint32_t end = d;
    while (end < defs_.size() && defs_[end].what() == binding::kind::copy)
      end = defs_[end].ref;
    while (d != end) {
      auto& c = defs_[d];
      d = c.ref;
      c.ref = end;
    }
    return end;
  }
  /// A node of the resolution graph in mode m: a definition with a memo. An offset of a
  /// variable leads to it as a derived definition does (edge 0: y; world_size() itself,
  /// ref no_index, is not bound).
  static constexpr bool node(const definition& b, mode m) {
    const auto what = b.what();
    return what == binding::kind::merge || (m == view_mode && derives(what));
  }
  static constexpr bool followed(const definition& b, mode m) {
    const auto what = b.what();
    return what == binding::kind::copy || what == binding::kind::merge ||
           (m == view_mode && derives(what));
  }
  /// Whether a definition of this kind may be (part of) the views it leads to.
  static constexpr bool derives(binding::kind what) {
    return what == binding::kind::collective_result || what == binding::kind::derived ||
           what == binding::kind::world_offset;
  }
  /// What a definition that is not followed contributes: itself (root), or its view.
  constexpr std::uint32_t source(std::uint32_t d, mode m) const {
    if (m == root_mode)
      return d;
    const auto& b = defs_[d];
    return b.what() == binding::kind::window && value_of(b) >= 0
               ? static_cast<std::uint32_t>(value_of(b))
               : sets_type::empty;
  }
  /// Root: one definition, or bottom for two. Views: the union.
  constexpr std::uint32_t combine(std::uint32_t a, std::uint32_t b, mode m) {
    if (m == root_mode)
      return a == top ? b : b == top ? a : a == b ? a : bottom;
    if (a == b || b == sets_type::empty) // most unions: nothing merges
      return a;
    return a == sets_type::empty ? b : sets_.unite(a, b);
  }
  constexpr std::uint32_t nothing(mode m) const { return m == view_mode ? sets_type::empty : top; }
  /// The i-th definition a followed definition leads to, or false past the last.
  constexpr bool edge(std::uint32_t d, std::uint8_t i, std::uint32_t& to) const {
    const auto& b = defs_[d];
    if (i == 0) {
      to = ref_of(b);
      return true;
    }
    if (i == 1 && b.what() == binding::kind::merge) {
      to = static_cast<std::uint32_t>(value_of(b));
      return true;
    }
    if (i == 1 && b.what() == binding::kind::derived && value_of(b) != no_index) {
      to = static_cast<std::uint32_t>(value_of(b));
      return true;
    }
    return false;
  }

  /// The combination of every source reachable from d along followed definitions, by an
  /// iterative Tarjan walk over the nodes (copies passed through): a strongly connected
  /// component shares one result.
  constexpr std::uint32_t resolve(std::uint32_t d, mode m) {
    COMMSCOPE_RUN_COMPILED(resolve(*this, d, m));
    return resolve_impl(d, m);
  }
  [[gnu::noinline]] constexpr std::uint32_t resolve_impl(std::uint32_t d, mode m) {
    d = past_copies(d);
    if (d >= defs_.size()) // not bound: no view, but no one definition either
      return m == root_mode ? bottom : sets_type::empty;
    if (!node(defs_[d], m))
      return source(d, m);
    index_nodes();
    auto& res = resolutions_;
    const auto at = slot(d);
    if (res[at].memo[m] != unknown && !(on_stack_[at] & (1u << m)))
      return res[at].memo[m];
    // Most nodes lead straight to sources or to resolved nodes (a merge of two resolved
    // definitions): combined at once, as the walk below would, without its stacks.
    // (Nothing is on them between resolutions.)
    std::uint32_t to[2] = {no_index, no_index};
    std::uint8_t n = 0;
    bool direct = true;
    for (std::uint32_t w = no_index; n < 2 && edge(d, n, w); ++n) {
      w = past_copies(w);
      to[n] = w;
      direct =
          direct && (w >= defs_.size() || !node(defs_[w], m) || res[slot(w)].memo[m] != unknown);
    }
    if (direct) {
      std::uint32_t acc = nothing(m);
      for (std::uint8_t i = 0; i < n; ++i) {
        const auto w = to[i];
        if (w >= defs_.size()) { // no_index among them: not bound
          if (m == root_mode)
            acc = bottom;
        } else {
          acc = combine(acc, node(defs_[w], m) ? res[slot(w)].memo[m] : source(w, m), m);
        }
      }
      res[at].memo[m] = acc;
      return acc;
    }
    const auto bit = static_cast<std::uint8_t>(1u << m);
    std::uint32_t counter = 0;
    dfs_.clear();
    component_.clear();
    const auto push = [&](std::uint32_t x, std::uint32_t x_slot) {
      res[x_slot].memo[m] = counter;
      on_stack_[x_slot] = static_cast<std::uint8_t>(on_stack_[x_slot] | bit);
      dfs_.emplace_back(visit{x, 0, counter, nothing(m)});
      component_.emplace_back(x_slot);
      ++counter;
    };
    push(d, at);
    while (!dfs_.empty()) {
      auto& f = dfs_.back();
      std::uint32_t w = no_index;
      if (edge(f.def, f.next++, w)) {
        w = past_copies(w);
        if (w >= defs_.size()) {
          // Not bound: no view, but no one definition either (a parameter's value).
          if (m == root_mode)
            f.acc = bottom;
          continue;
        }
        if (!node(defs_[w], m)) {
          f.acc = combine(f.acc, source(w, m), m);
          continue;
        }
        const auto w_slot = slot(w);
        const auto& e = res[w_slot];
        if (on_stack_[w_slot] & bit)
          f.low = std::min(f.low, e.memo[m]);
        else if (e.memo[m] != unknown)
          f.acc = combine(f.acc, e.memo[m], m);
        else
          push(w, w_slot); // f is not used after this
        continue;
      }
      const visit done = f;
      dfs_.pop_back();
      const auto done_slot = slot(done.def);
      if (done.low == res[done_slot].memo[m]) { // the root of its component
        for (;;) {
          const auto x = component_.back();
          component_.pop_back();
          res[x].memo[m] = done.acc;
          on_stack_[x] = static_cast<std::uint8_t>(on_stack_[x] & ~bit);
          if (x == done_slot)
            break;
        }
      }
      if (!dfs_.empty()) {
        auto& parent = dfs_.back();
        parent.acc = combine(parent.acc, done.acc, m);
        parent.low = std::min(parent.low, done.low);
      }
    }
    return res[at].memo[m];
  }

  /// Numbers the nodes (merges, collective results, derived definitions) among the
  /// definitions made since the last call, and sizes their memos: a bit per definition
  /// and a count per 64 of them give a node's memo in constant time.
  constexpr void index_nodes() {
    if (indexed_ == defs_.size())
      return;
    for (auto i = indexed_; i < defs_.size(); ++i) {
      if ((i & 63) == 0) {
        node_rank_.emplace_back(nodes_);
        node_bits_.emplace_back(0);
      }
      if (node(defs_[i], view_mode)) { // the nodes of either mode: view's include root's
        node_bits_.back() |= std::uint64_t{1} << (i & 63);
        ++nodes_;
      }
    }
    indexed_ = defs_.size();
    resolutions_.resize(nodes_);
    on_stack_.resize(nodes_, 0);
  }
  /// The memo of node d (index_nodes() has seen it).
  [[nodiscard]] constexpr std::uint32_t slot(std::uint32_t d) const {
    const auto below = node_bits_[d >> 6] & ((std::uint64_t{1} << (d & 63)) - 1);
    return node_rank_[d >> 6] + static_cast<std::uint32_t>(std::popcount(below));
  }

  struct visit {
    std::uint32_t def;
    std::uint8_t next;
    std::uint32_t low;
    std::uint32_t acc;
  };

  friend struct compiled;
  bool dense_;
  /// By variable id: `base_ + 1 + d` for its reaching definition d of this function; a
  /// value at most base_ (0 among them) is unbound or an earlier function's. Each
  /// function's base is above every value stored before it, so forgetting the entries
  /// takes no pass over them, and an entry takes 4 bytes (a generation beside each made
  /// it 8). Values stay below 2^32 while a function makes fewer than 2^31 definitions
  /// (hundreds of gigabytes of IR).
  vec<std::uint32_t> vars_;
  /// In segments: the largest table of the walk, whose count is known only at its end
  /// (a vector's growth copied it and held up to twice its size at the analysis' peak).
  segmented<definition> defs_;
  vec<wide_value> wide_;         ///< values (and refs) of definitions whose value is wide
  vec<resolution> resolutions_;  ///< by node (slot()), once resolution begins
  vec<std::uint8_t> on_stack_;   ///< by node: bit m, on the stack of mode m
  vec<std::uint64_t> node_bits_; ///< by definition: whether it is a node
  vec<std::uint32_t> node_rank_; ///< by 64 definitions: the nodes before them
  std::size_t indexed_ = 0;      ///< the definitions index_nodes() has seen
  std::uint32_t nodes_ = 0;
  vec<frame> frames_;
  /// The indices of frames_ whose statements are no block, innermost last: a binding or a
  /// read passes the blocks around it by, so that a body nested in many scopes (a
  /// materialized one) costs no more per variable than a flat one.
  vec<std::uint32_t> merging_;
  /// 1 + the first definition of the innermost of them, 0 when there is none: a variable
  /// whose definition d has d + 1 (no_index: 0) at least this needs no record anywhere.
  std::uint32_t reach_from_ = 0;
  std::uint32_t stopping_ = 0; ///< frames_ that may stop (control_flow::may_stop)
  /// The bindings made inside them, in order: a variable, then its definition (plain
  /// words: no vector of a type of its own to instantiate).
  vec<std::uint32_t> stopped_;
  vec<std::uint32_t> stop_joins_; ///< join_stopped's values per variable (no_index: none)
  vec<record> records_;
  vec<visit> dfs_;
  vec<std::uint32_t> component_;
  sets_type sets_;
  vec<std::uint32_t> seen_, stack_; ///< sources(): stamps by definition, and its stack
  vec<std::uint32_t> found_;        ///< sources(): what it found, for the callers' calls
  /// pointer_allocation(): by definition, found to reach no window pointer (or visited by
  /// the search under way).
  vec<std::uint64_t> no_pointer_;
  std::uint32_t stamp_ = 0;
  static constexpr std::uint32_t base_limit = std::uint32_t{1} << 31;
  std::uint32_t base_ = 0; ///< values at most this are unbound
  std::uint32_t top_ = 0;  ///< the largest value stored
  std::size_t bound_ = 0;  ///< dense: the program's variable_bound
};

/// Numbers keys densely in the order they are first seen (variables without an index of
/// their own, by their variable_key): the keys in one array, and an open-addressing table
/// of 4-byte slots (a key's number plus one; 0: empty), at most half full: no allocation
/// per variable, as a node-based map makes, and 12 to 24 bytes each (its key, 2 to 4 slots).
/// hash_index.hpp's index_table keeps a hash beside each index, 8-byte slots: twice the
/// table, to spare key comparisons that are one load here.
template <class Key> class interned_keys {
public:
  std::uint32_t id(const Key& k) {
    if (2 * (keys_.size() + 1) > slots_.size())
      grow();
    const auto mask = slots_.size() - 1;
    for (auto pos = slot_of(k) & mask;; pos = (pos + 1) & mask) {
      const std::uint32_t s = slots_[pos];
      if (s == 0) {
        keys_.push_back(k);
        const auto n = static_cast<std::uint32_t>(keys_.size());
        slots_[pos] = n;
        return n - 1;
      }
      if (keys_[s - 1] == k)
        return s - 1;
    }
  }
  /// Forgets every key and gives back the memory.
  void release() {
    std::vector<Key>().swap(keys_);
    vec<std::uint32_t>().swap(slots_);
  }

private:
  /// Not mixed: std::hash of an integer or a pointer is mostly the value itself, and
  /// variables are met in about the order they were made, so nearby keys in nearby slots
  /// keep the walk's lookups in cache (a multiplicative mix made each one a miss). A
  /// pointer's alignment bits are dropped, and the higher bits folded in spread what
  /// alignment is left.
  static std::size_t slot_of(const Key& k) {
    auto h = static_cast<std::uint64_t>(std::hash<Key>{}(k));
    if constexpr (std::is_pointer_v<Key>)
      h >>= 3;
    h ^= (h >> 7) ^ (h >> 17) ^ (h >> 29) ^ (h >> 47);
    return static_cast<std::size_t>(h);
  }
  void grow() {
    vec<std::uint32_t> old(std::max<std::size_t>(16, 2 * slots_.size()), 0);
    old.swap(slots_);
    const auto mask = slots_.size() - 1;
    for (const std::uint32_t s : old)
      if (s != 0) {
        auto pos = slot_of(keys_[s - 1]) & mask;
        while (slots_[pos] != 0)
          pos = (pos + 1) & mask;
        slots_[pos] = s;
      }
  }

  std::vector<Key> keys_;
  vec<std::uint32_t> slots_;
};

/// The definitions, with the adapter's variables numbered: by their variable_index, or
/// interned by their variable_key.
template <class Adapter> class variable_table : public definitions {
  using variable = typename Adapter::variable;
  static constexpr bool dense = Adapter::dense_variables;

public:
  constexpr variable_table(const Adapter& a, const typename Adapter::program& p)
      : definitions(dense, bound_of(a, p)), a_(a) {}

  constexpr void reset() {
    definitions::reset();
    if constexpr (!dense)
      ids_.release();
  }

  [[nodiscard]] constexpr std::uint32_t id(variable v) {
    if constexpr (dense) {
      const auto i = a_.variable_index(v);
      if (i >= vars_.size())
        vars_.resize(i + 1); // an adapter whose bound was low: stay correct
      return static_cast<std::uint32_t>(i);
    } else {
      const auto i = ids_.id(a_.variable_key(v));
      while (i >= vars_.size()) // a new variable is the next id: grows as a push does
        vars_.emplace_back();
      return i;
    }
  }

  /// The walk is over: the interned keys are given back with the definitions' room, off
  /// the analysis' peak. A variable asked for after it is numbered again, the same for
  /// equal keys, which is all that the ids compared after the walk need.
  constexpr void end_walk() {
    definitions::end_walk();
    if constexpr (!dense) {
      ids_.release();
      vec<std::uint32_t>().swap(vars_);
    }
  }

private:
  static constexpr std::size_t bound_of(const Adapter& a, const typename Adapter::program& p) {
    if constexpr (dense)
      return a.variable_bound(p);
    else
      return 0;
  }

  Adapter a_;
  template <class T, bool Dense> struct interning {
    using type = std::uint8_t; // unused: the adapter numbers its variables
  };
  template <class T> struct interning<T, false> {
    using type = interned_keys<std::remove_cvref_t<decltype(std::declval<const T&>().variable_key(
        std::declval<variable>()))>>;
  };
  typename interning<Adapter, dense>::type ids_{};
};

} // namespace commscope::detail
