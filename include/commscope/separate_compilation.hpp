// The separately compiled core: include this header in exactly one translation unit of a
// program whose translation units all define COMMSCOPE_SEPARATE_COMPILATION (CMake's
// commscope::separate target does both). It defines what detail/compiled.hpp declares:
// the code that does not depend on the IR, and the reference IR's rewrite, compiled here
// once instead of in every translation unit that runs the pass.
#pragma once

#if !defined(COMMSCOPE_SEPARATE_COMPILATION)
#error "this header is for a build with COMMSCOPE_SEPARATE_COMPILATION defined in every TU"
#endif

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/coverage.hpp>
#include <commscope/detail/device_pool.hpp>
#include <commscope/detail/devices.hpp>
#include <commscope/detail/hash_index.hpp>
#include <commscope/detail/may_set.hpp>
#include <commscope/detail/read_back.hpp>
#include <commscope/detail/sort.hpp>
#include <commscope/detail/variables.hpp>
#include <commscope/device_set.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/reference/impl/rewrite.hpp>
#include <commscope/verify.hpp>

namespace commscope::detail {

bool compiled::canonicalize(device_set& s, std::int64_t min_world) {
  return s.canonicalize_impl(min_world);
}

bool compiled::includes(const device_set& s, const device_set& other, std::int64_t min_world) {
  return s.includes_impl(other, min_world);
}

bool compiled::join_symbolic(device_set& s, const device_set& other) {
  return s.join_symbolic_impl(other);
}

bool compiled::join_rest(device_set& s, const device_set& other) { return s.join_rest(other); }

void compiled::accumulate(device_set& s, const device_set& other) { s.accumulate_impl(other); }

void compiled::accumulate_rest(device_set& s, device_interval r) { s.accumulate_rest(r); }

bool compiled::join_intervals(device_set& s, const device_set& other) {
  return s.join_intervals_impl(other);
}

void compiled::sort_intervals(device_set& s) { s.sort_intervals_impl(); }

bool compiled::equal_arrays(const device_set& a, const device_set& b) {
  return device_set::equal_arrays(a, b);
}

device_set compiled::progression(device_progression p) {
  return device_set::joined(device_set{}, {&p, 1});
}

void compiled::append(std::vector<device_set>& v, device_set&& s) { v.push_back(std::move(s)); }

void compiled::append(std::vector<std::uint32_t>& v, std::uint32_t i) { v.push_back(i); }

device_set compiled::scope_devices(const listed_devices& l) { return scope_devices_impl(l); }

bool compiled::canonical_scope(const listed_devices& l, std::int64_t world) {
  return canonical_scope_impl(l, world);
}

descriptor compiled::range_descriptor(std::int64_t start, std::int64_t stop, std::int64_t step,
                                      std::int64_t limit) {
  return range_descriptor_impl(start, stop, step, limit);
}

descriptor compiled::loop_descriptor(bound start, bound stop, bound step, bool symbolic,
                                     std::int64_t limit) {
  return loop_descriptor_impl(start, stop, step, symbolic, limit);
}

std::string compiled::format_message(std::string_view pattern, const message_fields& f) {
  return format_message_impl(pattern, f);
}

trivial_vector<std::uint32_t> compiled::sorted_indices(std::size_t n, const index_order& order) {
  return sorted_indices_impl(n, order);
}

void compiled::sort_keyed(keyed_index* first, std::size_t n) { sort_keyed_impl(first, n); }

std::uint32_t compiled::unite(may_sets& sets, std::uint32_t a, std::uint32_t b) {
  return sets.unite_impl(a, b);
}

void compiled::reset(definitions& t) { t.reset_impl(); }

std::uint32_t compiled::bind(definitions& t, std::uint32_t x, binding b, bool first_merges) {
  return t.bind_impl(x, b, first_merges);
}

void compiled::open(definitions& t, control_flow how) { t.open_impl(how); }

void compiled::branch(definitions& t) { t.branch_impl(); }

void compiled::jump(definitions& t) { t.jump_impl(); }

void compiled::close(definitions& t) { t.close_impl(); }

std::uint32_t compiled::derive(definitions& t, const std::uint32_t* defs, std::size_t n) {
  return t.derive_impl(defs, n);
}

void compiled::end_walk(definitions& t) { t.end_walk_impl(); }

void compiled::release_definitions(definitions& t) { t.release_definitions_impl(); }

void compiled::set_view(definitions& t, std::uint32_t def, std::uint32_t view) {
  t.set_index(t.defs_[def], view);
}

std::uint32_t compiled::view_of(definitions& t, std::uint32_t d) { return t.view_of_impl(d); }

void compiled::views_of(definitions& t, std::uint32_t* defs, std::size_t n) {
  t.views_of_impl(defs, n);
}

std::uint32_t compiled::reach(definitions& t, std::uint32_t x, std::uint32_t d, bool binding_it) {
  return t.reach_impl(x, d, binding_it);
}

std::uint32_t compiled::resolve(definitions& t, std::uint32_t d, std::uint8_t mode) {
  return t.resolve_impl(d, static_cast<definitions::mode>(mode));
}

void compiled::find_sources(definitions& t, std::uint32_t d, bool pointers) {
  t.find_sources_impl(d, pointers);
}

std::uint32_t compiled::pointer_allocation(definitions& t, std::uint32_t d) {
  return t.pointer_allocation_impl(d);
}

std::uint32_t compiled::intern(device_pool& p, const device_set& s) { return p.intern_impl(s); }

std::uint32_t compiled::id_of(device_pool& p, const device_set& s) { return p.id_of_impl(s); }

void compiled::reset(index_table& t, std::size_t n) { t.reset_impl(n); }

void compiled::grow(index_table& t) { t.grow_impl(); }

std::uint32_t compiled::join_sets(device_pool& p, std::uint32_t x, std::uint32_t y) {
  return p.join_sets_impl(x, y);
}

void compiled::judge(coverage& c, const erased_records& p, const coverage_inputs& in) {
  c.judge_impl(p, in);
}

} // namespace commscope::detail
