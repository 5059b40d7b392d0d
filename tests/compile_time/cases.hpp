// The table of test programs and their expected plans, written once. static_test.cpp has
// the compiler run the pass on each program and check the plan; reference_test.cpp
// rebuilds each program in the reference IR and checks the same expectation at run time.
// Every scenario of the descriptor table (docs/semantics.md, "Device descriptors"), every
// collective and every error code.
#pragma once

#include <commscope/compile_time/builder.hpp>
#include <commscope/compile_time/expect.hpp>

#include <cstddef>
#include <string_view>

namespace ct_cases {

using namespace commscope::compile_time;

template <class P> struct test_case {
  std::string_view name;
  P program;
  expectation expected;
};
template <class P> test_case(std::string_view, P, expectation) -> test_case<P>;

/// The common frame: one chip orchestrator "chip", one host orchestrator "host".
template <class... S> constexpr auto host(const S&... body) {
  return program(chip_orchestrator<"chip">(), host_orchestrator<"host">(body...));
}

/// `buf = alloc(64); data = window(buf)`, the most common start.
constexpr auto buffer() { return let<"buf">(alloc(64)); }
constexpr auto view() { return let<"data">(window(use<"buf">)); }
constexpr auto run_on(const auto& device) { return dispatch(call<"chip">(use<"data">), device); }

// ---- descriptor table ------------------------------------------------------------------

inline constexpr test_case constant_device{
    "descriptor: integer constant N >= 0 gives {N}",
    host(buffer(), view(), run_on(3)),
    {.domains = {{"3", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case constant_temporary{
    "descriptor: a constant temporary and a copy of it",
    host(buffer(), view(), let<"n">(2), let<"d">(use<"n">), run_on(use<"d">)),
    {.domains = {{"2", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case negative_constant{
    "descriptor: a negative constant is negative-device",
    host(buffer(), view(), run_on(-1)),
    {.views = {{"data", "buf"}}, .diagnostics = {"negative-device"}}};

inline constexpr test_case world_loop{"descriptor: the variable of range(world_size()) gives all",
                                      host(buffer(), view(), for_world<"r">(run_on(use<"r">))),
                                      {.domains = {{"all", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case world_through_temporaries{
    "descriptor: range(start, world_size()) through temporaries, device through a copy",
    host(buffer(), view(), let<"n">(world_size()), let<"m">(use<"n">), let<"zero">(0),
         for_range<"r">(use<"zero">, use<"m">)(let<"d">(use<"r">), run_on(use<"d">))),
    {.domains = {{"all", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case partial_world_start{
    "descriptor: range(1, world_size()) is partial-world-range",
    host(buffer(), view(), for_range<"r">(1, world_size())(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"partial-world-range"}}};

inline constexpr test_case partial_world_step{
    "descriptor: range(0, world_size(), 2) is partial-world-range",
    host(buffer(), view(), for_range<"r">(0, world_size(), 2)(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"partial-world-range"}}};

inline constexpr test_case constant_loop{
    "descriptor: range(4) gives {0, 1, 2, 3}",
    host(buffer(), view(), for_range<"r">(4)(run_on(use<"r">))),
    {.domains = {{"0..3", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case constant_loop_step{
    "descriptor: range(1, 7, 3) gives {1, 4}",
    host(buffer(), view(), for_range<"r">(1, 7, 3)(run_on(use<"r">))),
    {.domains = {{"1,4", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case descending_loop{
    "descriptor: range(6, 0, -2) gives {2, 4, 6}",
    host(buffer(), view(), for_range<"r">(6, 0, -2)(run_on(use<"r">))),
    {.domains = {{"2,4,6", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case empty_loop{
    "descriptor: an empty range contributes nothing: empty-coverage",
    host(buffer(), view(), for_range<"r">(3, 3)(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"empty-coverage"}}};

inline constexpr test_case negative_loop_element{
    "descriptor: range(-2, 2) has a negative element: negative-device",
    host(buffer(), view(), for_range<"r">(-2, 2)(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"negative-device"}}};

inline constexpr test_case zero_step{
    "descriptor: step 0 is unsupported-device",
    host(buffer(), view(), for_range<"r">(0, 4, 0)(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"unsupported-device"}}};

inline constexpr test_case loop_variable_after_loop{
    "descriptor: a loop variable outside its loop is unsupported-device",
    host(buffer(), view(), for_range<"r">(4)(eval(0)), run_on(use<"r">)),
    {.views = {{"data", "buf"}}, .diagnostics = {"unsupported-device"}}};

inline constexpr test_case unknown_bound{
    "descriptor: a loop with an unknown bound is unsupported-device",
    host(buffer(), view(), let<"n">(opaque(4)), for_range<"r">(use<"n">)(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"unsupported-device"}}};

inline constexpr test_case other_device_expression{
    "descriptor: any other expression is unsupported-device",
    host(buffer(), view(), run_on(opaque(1, 2))),
    {.views = {{"data", "buf"}}, .diagnostics = {"unsupported-device"}}};

inline constexpr test_case constant_out_of_range{
    "descriptor: a device at the limit is device-out-of-range",
    host(buffer(), view(), run_on(1048576)),
    {.views = {{"data", "buf"}}, .diagnostics = {"device-out-of-range"}}};

inline constexpr test_case huge_loop_out_of_range{
    "descriptor: range(4000000000) fails fast: device-out-of-range",
    host(buffer(), view(), for_range<"r">(4000000000)(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"device-out-of-range"}}};

inline constexpr test_case no_device{
    "descriptor: a dispatch without device= contributes nothing",
    host(buffer(), view(), eval(call<"chip">(use<"data">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"unconsumed-alloc"}}};

// ---- views, merge, clustering ----------------------------------------------------------

inline constexpr test_case copied_pointer{
    "view: window of a copy of the allocation's pointer",
    host(buffer(), let<"p">(use<"buf">), let<"data">(window(use<"p">)), run_on(0)),
    {.domains = {{"0", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case many_views{
    "view: two views of one allocation, a copied view",
    host(buffer(), view(), let<"other">(window(use<"buf">)), let<"alias">(use<"other">), run_on(0),
         dispatch(call<"chip">(use<"alias">), 1)),
    {.domains = {{"0,1", {"buf"}}}, .views = {{"data", "buf"}, {"other", "buf"}}}};

inline constexpr test_case merge_union{
    "merge: descriptors join by union",
    host(buffer(), view(), run_on(5), for_range<"r">(0, 4, 2)(run_on(use<"r">))),
    {.domains = {{"0,2,5", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case merge_all_absorbs{
    "merge: all absorbs a finite set",
    host(buffer(), view(), run_on(5), for_world<"r">(run_on(use<"r">))),
    {.domains = {{"all", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case clustering{
    "cluster: equal device sets share a domain; domains and slots in source order",
    host(let<"a">(alloc(8)), let<"va">(window(use<"a">)), //
         let<"b">(alloc(8)), let<"vb">(window(use<"b">)), //
         let<"c">(alloc(8)), let<"vc">(window(use<"c">)), //
         for_range<"r">(2)(dispatch(call<"chip">(use<"va">), use<"r">)),
         for_world<"w">(dispatch(call<"chip">(use<"vb">), use<"w">)),
         dispatch(call<"chip">(use<"vc">), 1), dispatch(call<"chip">(use<"vc">), 0)),
    {.domains = {{"0,1", {"a", "c"}}, {"all", {"b"}}},
     .views = {{"va", "a"}, {"vb", "b"}, {"vc", "c"}}}};

inline constexpr test_case nested_blocks{
    "walk: dispatches inside while loops and branches count",
    host(buffer(), view(), while_loop(1)(branch(opaque(use<"buf">))(run_on(2)))),
    {.domains = {{"2", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case not_dispatch_targets{
    "walk: calls of kernels and graphs are not dispatches: a view passed to one escapes",
    program(declare<"kernel">(commscope::level::chip, false, false),
            declare<"graph">(commscope::level::chip, true, true),
            host_orchestrator<"host">(buffer(), view(), dispatch(call<"kernel">(use<"data">), 0),
                                      dispatch(call<"graph">(use<"data">), 1))),
    {.views = {{"data", "buf"}}, .diagnostics = {"view-escapes", "view-escapes"}}};

inline constexpr test_case two_hosts{
    "functions: each host orchestrator on its own; a host without allocations is left alone",
    program(chip_orchestrator<"chip">(), host_orchestrator<"idle">(eval(0)),
            host_orchestrator<"main">(buffer(), view(), run_on(7))),
    {.domains = {{"7", {"buf"}}}, .views = {{"data", "buf"}}, .function = "main"}};

// ---- collectives -----------------------------------------------------------------------

/// `sbuf = alloc; sig = window(sbuf)`: a signal buffer that only a collective uses.
constexpr auto signal() { return let<"sbuf">(alloc(4)); }
constexpr auto signal_view() { return let<"sig">(window(use<"sbuf">)); }

inline constexpr test_case allreduce_inherits{
    "collective: allreduce(data, signal): signal <- data",
    host(buffer(), view(), signal(), signal_view(), for_world<"r">(run_on(use<"r">)),
         eval(allreduce(use<"data">, use<"sig">))),
    {.domains = {{"all", {"buf", "sbuf"}}}, .views = {{"data", "buf"}, {"sig", "sbuf"}}}};

inline constexpr test_case broadcast_inherits{
    "collective: broadcast(data, signal): signal <- data",
    host(buffer(), view(), signal(), signal_view(), run_on(1),
         eval(broadcast(use<"data">, use<"sig">))),
    {.domains = {{"1", {"buf", "sbuf"}}}, .views = {{"data", "buf"}, {"sig", "sbuf"}}}};

inline constexpr test_case reduce_scatter_inherits{
    "collective: reduce_scatter(data, signal): signal <- data",
    host(buffer(), view(), signal(), signal_view(), for_range<"r">(2)(run_on(use<"r">)),
         eval(reduce_scatter(use<"data">, use<"sig">))),
    {.domains = {{"0,1", {"buf", "sbuf"}}}, .views = {{"data", "buf"}, {"sig", "sbuf"}}}};

inline constexpr test_case barrier_own_coverage{
    "collective: barrier(signal) needs coverage of its own",
    host(signal(), signal_view(), dispatch(call<"chip">(use<"sig">), 0), eval(barrier(use<"sig">))),
    {.domains = {{"0", {"sbuf"}}}, .views = {{"sig", "sbuf"}}}};

/// input, target and signal buffers for the three-argument collectives.
template <class Collective> constexpr auto gather_case(Collective c) {
  return host(let<"ibuf">(alloc(8)), let<"in">(window(use<"ibuf">)),  //
              let<"tbuf">(alloc(8)), let<"tgt">(window(use<"tbuf">)), //
              signal(), signal_view(),                                //
              dispatch(call<"chip">(use<"in">), 0),
              for_range<"r">(2)(dispatch(call<"chip">(use<"tgt">), use<"r">)), eval(c));
}

inline constexpr test_case allgather_inherits{
    "collective: allgather(input, target, signal): signal <- target",
    gather_case(allgather(use<"in">, use<"tgt">, use<"sig">)),
    {.domains = {{"0", {"ibuf"}}, {"0,1", {"tbuf", "sbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}}}};

inline constexpr test_case all_to_all_inherits{
    "collective: all_to_all(input, target, signal): signal <- target",
    gather_case(all_to_all(use<"in">, use<"tgt">, use<"sig">)),
    {.domains = {{"0", {"ibuf"}}, {"0,1", {"tbuf", "sbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}}}};

inline constexpr test_case all_to_all_v_inherits{
    "collective: all_to_all_v: signal <- target, recv_counts <- target",
    host(let<"ibuf">(alloc(8)), let<"in">(window(use<"ibuf">)),  //
         let<"tbuf">(alloc(8)), let<"tgt">(window(use<"tbuf">)), //
         signal(), signal_view(),                                //
         let<"cbuf">(alloc(8)), let<"sc">(window(use<"cbuf">)),  //
         let<"rbuf">(alloc(8)), let<"rc">(window(use<"rbuf">)),  //
         for_world<"r">(dispatch(call<"chip">(use<"in">, use<"tgt">, use<"sc">), use<"r">)),
         eval(all_to_all_v(use<"in">, use<"tgt">, use<"sig">, use<"sc">, use<"rc">))),
    {.domains = {{"all", {"ibuf", "tbuf", "sbuf", "cbuf", "rbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}, {"sc", "cbuf"}, {"rc", "rbuf"}}}};

inline constexpr test_case transitive_inheritance{
    "collective: inheritance is transitive and order-independent",
    host(buffer(), view(), signal(), signal_view(), let<"s2buf">(alloc(4)),
         let<"sig2">(window(use<"s2buf">)), eval(allreduce(use<"sig">, use<"sig2">)),
         eval(allreduce(use<"data">, use<"sig">)), run_on(3)),
    {.domains = {{"3", {"buf", "sbuf", "s2buf"}}},
     .views = {{"data", "buf"}, {"sig", "sbuf"}, {"sig2", "s2buf"}}}};

inline constexpr test_case collective_result{
    "resolution: the result of allreduce resolves through its data argument",
    host(buffer(), view(), signal(), signal_view(), let<"out">(allreduce(use<"data">, use<"sig">)),
         dispatch(call<"chip">(use<"out">), 6)),
    {.domains = {{"6", {"buf", "sbuf"}}}, .views = {{"data", "buf"}, {"sig", "sbuf"}}}};

// ---- error codes -----------------------------------------------------------------------

inline constexpr test_case dead_alloc{
    "error: an allocation without a window view is dead-alloc",
    host(buffer(), let<"other">(alloc(8)), let<"data">(window(use<"other">)), run_on(0)),
    {.domains = {{"0", {"other"}}}, .views = {{"data", "other"}}, .diagnostics = {"dead-alloc"}}};

inline constexpr test_case duplicate_name{
    "error: two allocations named alike in one domain: duplicate-name",
    host(let<"a">(alloc(8).named("shared")), let<"va">(window(use<"a">)),
         let<"b">(alloc(8).named("shared")), let<"vb">(window(use<"b">)),
         dispatch(call<"chip">(use<"va">, use<"vb">), 0)),
    {.domains = {{"0", {"shared", "shared"}}},
     .views = {{"va", "shared"}, {"vb", "shared"}},
     .diagnostics = {"duplicate-name"}}};

inline constexpr test_case same_name_other_domains{
    "error: the same name in different domains is fine",
    host(let<"a">(alloc(8).named("shared")), let<"va">(window(use<"a">)),
         let<"b">(alloc(8).named("shared")), let<"vb">(window(use<"b">)),
         dispatch(call<"chip">(use<"va">), 0), dispatch(call<"chip">(use<"vb">), 1)),
    {.domains = {{"0", {"shared"}}, {"1", {"shared"}}},
     .views = {{"va", "shared"}, {"vb", "shared"}}}};

inline constexpr test_case malformed_collective{
    "error: allreduce with one argument is malformed-op",
    host(buffer(), view(), run_on(0),
         eval(malformed<commscope::operation::allreduce>(use<"data">))),
    {.domains = {{"0", {"buf"}}}, .views = {{"data", "buf"}}, .diagnostics = {"malformed-op"}}};

inline constexpr test_case malformed_operations{
    "error: malformed-op for arity, an allocation not assigned, an unknown callee",
    host(buffer(), view(), run_on(0), let<"w">(malformed<commscope::operation::window>(use<"buf">)),
         let<"x">(malformed<commscope::operation::alloc_window_buffer>(1, 2)), eval(alloc(4)),
         eval(unknown_call<"nowhere">(use<"data">))),
    {.domains = {{"0", {"buf"}}},
     .views = {{"data", "buf"}},
     .diagnostics = {"malformed-op", "malformed-op", "malformed-op", "malformed-op"}}};

inline constexpr test_case collective_arg_not_window{
    "error: a collective's data that is no view is collective-arg-not-window",
    host(signal(), signal_view(), dispatch(call<"chip">(use<"sig">), 0),
         eval(allreduce(5, use<"sig">))),
    {.domains = {{"0", {"sbuf"}}},
     .views = {{"sig", "sbuf"}},
     .diagnostics = {"collective-arg-not-window"}}};

inline constexpr test_case uncovered_collective{
    "error: a collective whose data has no coverage is uncovered-collective",
    host(buffer(), view(), signal(), signal_view(), eval(allreduce(use<"data">, use<"sig">))),
    {.views = {{"data", "buf"}, {"sig", "sbuf"}}, .diagnostics = {"uncovered-collective"}}};

inline constexpr test_case barrier_no_coverage{
    "error: a barrier whose signal has no coverage of its own",
    host(signal(), signal_view(), eval(barrier(use<"sig">))),
    {.views = {{"sig", "sbuf"}}, .diagnostics = {"barrier-no-coverage"}}};

inline constexpr test_case collective_in_for{
    "error: all_to_all_v inside a for loop is collective-in-loop",
    host(let<"ibuf">(alloc(8)), let<"in">(window(use<"ibuf">)),  //
         let<"tbuf">(alloc(8)), let<"tgt">(window(use<"tbuf">)), //
         signal(), signal_view(),                                //
         dispatch(call<"chip">(use<"in">, use<"tgt">, use<"sig">), 0),
         for_range<"k">(2)(
             eval(all_to_all_v(use<"in">, use<"tgt">, use<"sig">, use<"in">, use<"tgt">)))),
    {.domains = {{"0", {"ibuf", "tbuf", "sbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}},
     .diagnostics = {"collective-in-loop"}}};

inline constexpr test_case collective_in_while{
    "error: all_to_all_v inside a while loop is collective-in-loop; allreduce there is fine",
    host(let<"ibuf">(alloc(8)), let<"in">(window(use<"ibuf">)),  //
         let<"tbuf">(alloc(8)), let<"tgt">(window(use<"tbuf">)), //
         signal(), signal_view(),                                //
         dispatch(call<"chip">(use<"in">, use<"tgt">), 0),
         while_loop(1)(
             eval(allreduce(use<"tgt">, use<"sig">)),
             eval(all_to_all_v(use<"in">, use<"tgt">, use<"sig">, use<"in">, use<"tgt">)))),
    {.domains = {{"0", {"ibuf", "tbuf", "sbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}},
     .diagnostics = {"collective-in-loop"}}};

inline constexpr test_case no_cascades{
    "errors: one per cause: a reported dispatch hides the collective and inheritance after it",
    host(buffer(), view(), signal(), signal_view(), run_on(-3),
         eval(allreduce(use<"data">, use<"sig">))),
    {.views = {{"data", "buf"}, {"sig", "sbuf"}}, .diagnostics = {"negative-device"}}};

inline constexpr test_case all_errors_in_source_order{
    "errors: all of them, in source order",
    host(let<"dead">(alloc(1)),                             // dead-alloc
         buffer(), view(), run_on(-1),                      // negative-device
         let<"b2">(alloc(8)), let<"v2">(window(use<"b2">)), // unconsumed-alloc
         eval(malformed<commscope::operation::barrier>()),  // malformed-op
         let<"b3">(alloc(8)), let<"v3">(window(use<"b3">)),
         for_range<"r">(3, world_size(), -1)(dispatch(call<"chip">(use<"v3">), use<"r">))),
    {.views = {{"data", "buf"}, {"v2", "b2"}, {"v3", "b3"}},
     .diagnostics = {"dead-alloc", "negative-device", "unconsumed-alloc", "malformed-op",
                     "partial-world-range"}}};

// ---- aliased windows: two window arguments of one collective, one allocation ----------

/// `v2`, a second view of `buf`.
constexpr auto second_view() { return let<"v2">(window(use<"buf">)); }

inline constexpr test_case aliased_allreduce{
    "error: allreduce(data, v2) with both views of buf is collective-aliased-windows",
    host(buffer(), view(), second_view(), run_on(0), eval(allreduce(use<"data">, use<"v2">))),
    {.domains = {{"0", {"buf"}}},
     .views = {{"data", "buf"}, {"v2", "buf"}},
     .diagnostics = {"collective-aliased-windows"}}};

inline constexpr test_case aliased_broadcast{
    "error: broadcast(data, data) passes one view twice: collective-aliased-windows",
    host(buffer(), view(), run_on(0), eval(broadcast(use<"data">, use<"data">))),
    {.domains = {{"0", {"buf"}}},
     .views = {{"data", "buf"}},
     .diagnostics = {"collective-aliased-windows"}}};

inline constexpr test_case aliased_reduce_scatter{
    "error: reduce_scatter over two views of one buffer is collective-aliased-windows",
    host(buffer(), view(), second_view(), run_on(0), eval(reduce_scatter(use<"v2">, use<"data">))),
    {.domains = {{"0", {"buf"}}},
     .views = {{"data", "buf"}, {"v2", "buf"}},
     .diagnostics = {"collective-aliased-windows"}}};

inline constexpr test_case aliased_allgather{
    "error: allgather whose input and signal share a buffer is collective-aliased-windows",
    gather_case(allgather(use<"sig">, use<"tgt">, use<"sig">)),
    {.domains = {{"0", {"ibuf"}}, {"0,1", {"tbuf", "sbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}},
     .diagnostics = {"collective-aliased-windows"}}};

inline constexpr test_case aliased_all_to_all{
    "error: all_to_all whose input is its target is collective-aliased-windows",
    gather_case(all_to_all(use<"tgt">, use<"tgt">, use<"sig">)),
    {.domains = {{"0", {"ibuf"}}, {"0,1", {"tbuf", "sbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}},
     .diagnostics = {"collective-aliased-windows"}}};

inline constexpr test_case aliased_all_to_all_v{
    "error: all_to_all_v whose send and receive counts share a buffer",
    host(let<"ibuf">(alloc(8)), let<"in">(window(use<"ibuf">)),  //
         let<"tbuf">(alloc(8)), let<"tgt">(window(use<"tbuf">)), //
         signal(), signal_view(),                                //
         let<"cbuf">(alloc(8)), let<"sc">(window(use<"cbuf">)),  //
         let<"rc">(window(use<"cbuf">)),                         //
         for_world<"r">(dispatch(call<"chip">(use<"in">, use<"tgt">, use<"sc">), use<"r">)),
         eval(all_to_all_v(use<"in">, use<"tgt">, use<"sig">, use<"sc">, use<"rc">))),
    {.domains = {{"all", {"ibuf", "tbuf", "sbuf", "cbuf"}}},
     .views = {{"in", "ibuf"}, {"tgt", "tbuf"}, {"sig", "sbuf"}, {"sc", "cbuf"}, {"rc", "cbuf"}},
     .diagnostics = {"collective-aliased-windows"}}};

inline constexpr test_case aliased_after_suppressed_check{
    "error: aliasing is judged even where an earlier check of the call was suppressed",
    host(buffer(), view(), second_view(), run_on(-1), eval(allreduce(use<"data">, use<"v2">))),
    {.views = {{"data", "buf"}, {"v2", "buf"}},
     .diagnostics = {"negative-device", "collective-aliased-windows"}}};

/// The table both runners walk.
template <const auto&... Cases> struct table {
  static constexpr std::size_t size = sizeof...(Cases);
  template <class F> static constexpr void for_each(F&& f) { (f(Cases), ...); }
};

using all =
    table<constant_device, constant_temporary, negative_constant, world_loop,
          world_through_temporaries, constant_loop, constant_loop_step, descending_loop, empty_loop,
          negative_loop_element, zero_step, loop_variable_after_loop, unknown_bound,
          other_device_expression, constant_out_of_range, huge_loop_out_of_range, no_device,
          copied_pointer, many_views, merge_union, merge_all_absorbs, clustering, nested_blocks,
          not_dispatch_targets, two_hosts, allreduce_inherits, broadcast_inherits,
          reduce_scatter_inherits, barrier_own_coverage, allgather_inherits, all_to_all_inherits,
          all_to_all_v_inherits, transitive_inheritance, collective_result, dead_alloc,
          duplicate_name, same_name_other_domains, malformed_collective, malformed_operations,
          collective_arg_not_window, uncovered_collective, barrier_no_coverage, collective_in_for,
          collective_in_while, no_cascades, all_errors_in_source_order, aliased_allreduce,
          aliased_broadcast, aliased_reduce_scatter, aliased_allgather, aliased_all_to_all,
          aliased_all_to_all_v, aliased_after_suppressed_check>;

// ---- loops over part of the world (docs/semantics.md, "Symbolic device sets"): an
// adapter without symbolic device sets reports them (the index IR, the plain compile-time
// traits) --------------------------------------------------------------------------------

inline constexpr test_case partial_world_offset{
    "descriptor: range(1, world_size() - 1) is unsupported-device without symbolic sets",
    host(buffer(), view(), for_range<"r">(1, minus(world_size(), 1))(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"unsupported-device"}}};

using partial_world = table<partial_world_start, partial_world_step, partial_world_offset>;

// ... and one with them (symbolic_traits, the reference IR) gives progressions, compared
// in canonical form.

constexpr auto other_buffer() { return let<"buf2">(alloc(64)); }
constexpr auto other_view() { return let<"data2">(window(use<"buf2">)); }
constexpr auto run_second_on(const auto& device) {
  return dispatch(call<"chip">(use<"data2">), device);
}

inline constexpr test_case symbolic_start{
    "symbolic: range(1, world_size()) is a progression",
    host(buffer(), view(), for_range<"r">(1, world_size())(run_on(use<"r">))),
    {.domains = {{"range(1,ws)", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case symbolic_step{
    "symbolic: range(0, world_size(), 2) is a progression",
    host(buffer(), view(), for_range<"r">(0, world_size(), 2)(run_on(use<"r">))),
    {.domains = {{"range(0,ws,2)", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case symbolic_offset_direct{
    "symbolic: range(1, world_size() - 1)",
    host(buffer(), view(), for_range<"r">(1, minus(world_size(), 1))(run_on(use<"r">))),
    {.domains = {{"range(1,ws-1)", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case symbolic_offset_temporaries{
    "symbolic: the stop through temporaries, n = w - 1 with w = world_size(); 3 kept",
    host(buffer(), view(), let<"w">(world_size()), let<"n">(minus(use<"w">, 1)),
         for_range<"r">(0, use<"n">, 2)(run_on(use<"r">)), run_on(3)),
    {.domains = {{"3,range(0,ws-1,2)", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case symbolic_zero_joins_all{
    "symbolic: {0} and range(1, world_size()) are all, one domain with the world loop",
    host(buffer(), view(), other_buffer(), other_view(), run_on(0),
         for_range<"r">(1, world_size())(run_on(use<"r">)),
         for_world<"r">(run_second_on(use<"r">))),
    {.domains = {{"all", {"buf", "buf2"}}}, .views = {{"data", "buf"}, {"data2", "buf2"}}}};

inline constexpr test_case symbolic_parities_all{
    "symbolic: range(0, ws, 2) and range(1, ws, 2) are all",
    host(buffer(), view(), for_range<"r">(0, world_size(), 2)(run_on(use<"r">)),
         for_range<"r">(1, world_size(), 2)(run_on(use<"r">))),
    {.domains = {{"all", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case symbolic_id_past_stop{
    "symbolic: {0} and range(1, world_size() - 1) stay as written",
    host(buffer(), view(), run_on(0), for_range<"r">(1, minus(world_size(), 1))(run_on(use<"r">))),
    {.domains = {{"0,range(1,ws-1)", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case symbolic_open_start{
    "symbolic: range(k, world_size()) with an open k is unsupported-device",
    host(buffer(), view(), let<"k">(opaque()),
         for_range<"r">(use<"k">, world_size())(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"unsupported-device"}}};

inline constexpr test_case symbolic_descending{
    "symbolic: a descending or zero step over the world stays partial-world-range",
    host(buffer(), view(), for_range<"r">(3, world_size(), -1)(run_on(use<"r">)),
         for_range<"r">(0, world_size(), 0)(run_on(use<"r">))),
    {.views = {{"data", "buf"}}, .diagnostics = {"partial-world-range", "partial-world-range"}}};

using symbolic = table<symbolic_start, symbolic_step, symbolic_offset_direct,
                       symbolic_offset_temporaries, symbolic_zero_joins_all, symbolic_parities_all,
                       symbolic_id_past_stop, symbolic_open_start, symbolic_descending>;

// ---- rebinding (docs/semantics.md, "Rebinding and control flow"): a name bound several
// times is one variable bound several times, in every IR that runs these tables (the
// compile-time and index IRs by name, the reference IR by name_id) -----------------------

inline constexpr test_case rebind_collective_result{
    "rebinding: data = allreduce(data, sig) leaves data a view of its buffer",
    host(buffer(), view(), signal(), signal_view(), for_world<"r">(run_on(use<"r">)),
         let<"data">(allreduce(use<"data">, use<"sig">)), run_on(0)),
    {.domains = {{"all", {"buf", "sbuf"}}}, .views = {{"data", "buf"}, {"sig", "sbuf"}}}};

inline constexpr test_case rebind_other_view{
    "rebinding: a view rebound to a view of another buffer; each use sees its own",
    host(buffer(), view(), run_on(1), let<"b2">(alloc(8)), let<"data">(window(use<"b2">)),
         run_on(2)),
    {.domains = {{"1", {"buf"}}, {"2", {"b2"}}}, .views = {{"data", "buf"}, {"data", "b2"}}}};

inline constexpr test_case rebind_in_loop{
    "rebinding: data = allreduce(data, sig) in a loop body, dispatched before it",
    host(buffer(), view(), signal(), signal_view(),
         for_world<"r">(run_on(use<"r">), let<"data">(allreduce(use<"data">, use<"sig">))),
         run_on(0)),
    {.domains = {{"all", {"buf", "sbuf"}}}, .views = {{"data", "buf"}, {"sig", "sbuf"}}}};

inline constexpr test_case rebind_copy_in_branch{
    "rebinding: a copy of itself in a branch keeps the view",
    host(buffer(), view(), branch(1)(let<"data">(use<"data">)), run_on(3)),
    {.domains = {{"3", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case rebind_device{
    "rebinding: a device temporary bound twice: the later binding reaches",
    host(let<"d">(1), let<"d">(2), buffer(), view(), run_on(use<"d">)),
    {.domains = {{"2", {"buf"}}}, .views = {{"data", "buf"}}}};

inline constexpr test_case rebind_pointer{
    "rebinding: a pointer rebound before its window is no pointer there: a window of no "
    "allocation",
    host(buffer(), let<"p">(use<"buf">), let<"p">(0), let<"data">(window(use<"p">)), run_on(0)),
    {.diagnostics = {"dead-alloc", "malformed-op"}}};

using rebinding = table<rebind_collective_result, rebind_other_view, rebind_in_loop,
                        rebind_copy_in_branch, rebind_device, rebind_pointer>;

// Bindings that a use may or may not see: the use sees each (a may-set), a dispatch
// covers every allocation its argument may view, a collective passes coverage from each
// to each.

inline constexpr test_case branch_rebinds_view{
    "may-set: after an if that rebinds the view, a use sees both views",
    host(buffer(), view(), let<"b2">(alloc(8)), branch(1)(let<"data">(window(use<"b2">))),
         run_on(0)),
    {.domains = {{"0", {"buf", "b2"}}}, .views = {{"data", "buf"}, {"data", "b2"}}}};

inline constexpr test_case loop_rebinds_view{
    "may-set: after a loop that rebinds the view, a use sees both; inside, the binding",
    host(buffer(), view(), let<"b2">(alloc(8)),
         for_range<"k">(2)(let<"data">(window(use<"b2">)), run_on(5)), run_on(0)),
    {.domains = {{"0", {"buf"}}, {"0,5", {"b2"}}}, .views = {{"data", "buf"}, {"data", "b2"}}}};

inline constexpr test_case loop_sees_previous_iteration{
    "may-set: a use at a loop's top sees the binding of the previous iteration",
    host(buffer(), view(), let<"b2">(alloc(8)),
         for_range<"k">(2)(run_on(use<"k">), let<"data">(window(use<"b2">)))),
    {.domains = {{"0,1", {"buf", "b2"}}}, .views = {{"data", "buf"}, {"data", "b2"}}}};

inline constexpr test_case while_sees_previous_iteration{
    "may-set: a while body's use sees the binding of the previous iteration",
    host(buffer(), view(), let<"b2">(alloc(8)),
         while_loop(1)(run_on(4), let<"data">(window(use<"b2">)))),
    {.domains = {{"4", {"buf", "b2"}}}, .views = {{"data", "buf"}, {"data", "b2"}}}};

inline constexpr test_case jump_reaches_exit{
    "may-set: a binding before a break reaches the loop's exit",
    host(buffer(), view(), let<"b2">(alloc(8)), let<"b3">(alloc(8)),
         while_loop(1)(branch(1)(let<"data">(window(use<"b2">)), jump()),
                       let<"data">(window(use<"b3">))),
         run_on(0)),
    {.domains = {{"0", {"buf", "b2", "b3"}}},
     .views = {{"data", "buf"}, {"data", "b2"}, {"data", "b3"}}}};

inline constexpr test_case collective_passes_each{
    "may-set: a collective passes coverage from each allocation its data may view",
    host(buffer(), view(), let<"b2">(alloc(8)), signal(), signal_view(), run_on(1),
         branch(1)(let<"data">(window(use<"b2">)), run_on(2)),
         eval(allreduce(use<"data">, use<"sig">))),
    {.domains = {{"1", {"buf"}}, {"2", {"b2"}}, {"1,2", {"sbuf"}}},
     .views = {{"data", "buf"}, {"sig", "sbuf"}, {"data", "b2"}}}};

inline constexpr test_case may_alias_is_no_error{
    "may-set: windows that may view one allocation are no collective-aliased-windows",
    host(buffer(), view(), let<"b2">(alloc(8)), let<"v2">(window(use<"buf">)),
         branch(1)(let<"v2">(window(use<"b2">))), run_on(0), dispatch(call<"chip">(use<"v2">), 0),
         eval(allreduce(use<"data">, use<"v2">))),
    {.domains = {{"0", {"buf", "b2"}}}, .views = {{"data", "buf"}, {"v2", "buf"}, {"v2", "b2"}}}};

/// The cases above whose branches have no else: an IR without control_of reads them
/// alike (its children as one block that may not run).
using rebinding_without_renaming =
    table<branch_rebinds_view, loop_rebinds_view, loop_sees_previous_iteration,
          while_sees_previous_iteration, jump_reaches_exit, collective_passes_each,
          may_alias_is_no_error>;

// An if's branches are alternatives (control_of and branches): a binding in one branch
// never reaches another; one on every path replaces the value before.

inline constexpr test_case else_sees_old_view{
    "alternatives: a binding in the then branch does not reach the else branch",
    host(buffer(), view(), let<"b2">(alloc(8)),
         branch(1)(let<"data">(window(use<"b2">)), run_on(1)).otherwise(run_on(0))),
    {.domains = {{"0", {"buf"}}, {"1", {"b2"}}}, .views = {{"data", "buf"}, {"data", "b2"}}}};

inline constexpr test_case every_path_replaces{
    "alternatives: a binding on every path replaces the view before the if",
    host(buffer(), view(), let<"b2">(alloc(8)), let<"b3">(alloc(8)),
         branch(1)(let<"data">(window(use<"b2">))).otherwise(let<"data">(window(use<"b3">))),
         run_on(0)),
    {.domains = {{"0", {"b2", "b3"}}},
     .views = {{"data", "buf"}, {"data", "b2"}, {"data", "b3"}},
     .diagnostics = {"unconsumed-alloc"}}};

inline constexpr test_case elif_without_else{
    "alternatives: if/elif without else: after it, every branch's view and the old one",
    host(buffer(), view(), let<"b2">(alloc(8)), let<"b3">(alloc(8)),
         branch(1)(let<"data">(window(use<"b2">)))
             .otherwise(branch(2)(let<"data">(window(use<"b3">)))),
         run_on(0)),
    {.domains = {{"0", {"buf", "b2", "b3"}}},
     .views = {{"data", "buf"}, {"data", "b2"}, {"data", "b3"}}}};

inline constexpr test_case must_alias_on_every_path{
    "alternatives: a second view of one buffer on every path is collective-aliased-windows",
    host(buffer(), view(),
         branch(1)(let<"v2">(window(use<"buf">))).otherwise(let<"v2">(window(use<"buf">))),
         run_on(0), eval(allreduce(use<"data">, use<"v2">))),
    {.domains = {{"0", {"buf"}}},
     .views = {{"data", "buf"}, {"v2", "buf"}, {"v2", "buf"}},
     .diagnostics = {"collective-aliased-windows"}}};

using alternatives =
    table<else_sees_old_view, every_path_replaces, elif_without_else, must_alias_on_every_path>;

} // namespace ct_cases
