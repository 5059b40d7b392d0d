// The reference IR through an adapter that does not number its variables: every member of
// the reference IR's traits but variable_index and variable_bound, so that the analysis
// tells variables apart by their handles, pointers into the IR's arena. That is the
// adapter the README sketches ("pointers hash: no key"), on the same programs as the
// reference IR's own cases.
#pragma once

#include <commscope/reference/traits.hpp>
#include <commscope/traits.hpp>

namespace commscope::bench {

struct reference_hashed_traits : private ir_traits<reference::program_ptr> {
  using base = ir_traits<reference::program_ptr>;
  using base::expression;
  using base::function;
  using base::location;
  using base::program;
  using base::statement;
  using base::variable;
  using base::window_buffer;

  using base::allocation_name;
  using base::arguments;
  using base::body;
  using base::branches;
  using base::call_target_of;
  using base::children;
  using base::constant_of;
  using base::control_of;
  using base::describe;
  using base::device_of;
  using base::expression_kind_of;
  using base::expressions;
  using base::flow_of;
  using base::functions;
  using base::integer_value;
  using base::location_of;
  using base::loop_bounds;
  using base::loop_variable;
  using base::minus_constant;
  using base::scope_devices;
  using base::scope_name;
  using base::scope_progressions;
  using base::scope_slots;
  using base::statement_kind_of;
  using base::subexpressions;
  using base::symbolic_device_sets;
  using base::targets;
  using base::value;
  using base::values;
  using base::variable_of;
  using base::view_window_buffer;
  using base::window_buffer_base;
  using base::window_buffer_name;
  using base::window_buffer_size;
};

// The same adapter in every other respect: what the analysis would derive for a member
// left out here would measure something else.
static_assert(analyzable_ir<reference_hashed_traits>);
static_assert(!provides<reference_hashed_traits, contract::variable_index>);
static_assert(provides<reference_hashed_traits, contract::subexpressions>);
static_assert(provides<reference_hashed_traits, contract::flow_of>);
static_assert(provides<reference_hashed_traits, contract::control_of>);
static_assert(provides<reference_hashed_traits, contract::branches>);
static_assert(provides<reference_hashed_traits, contract::values>);
static_assert(provides<reference_hashed_traits, contract::expressions>);
static_assert(provides<reference_hashed_traits, contract::minus_constant>);
static_assert(provides<reference_hashed_traits, contract::symbolic_device_sets>);
static_assert(provides<reference_hashed_traits, contract::scope_name>);

} // namespace commscope::bench
