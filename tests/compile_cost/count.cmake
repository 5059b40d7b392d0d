# Counts the functions a translation unit makes the compiler generate: SOURCE compiled
# with CXX at -O0 (nothing inlined away, so every instantiated function and inline
# function the TU uses is one symbol), the defined code symbols of the object counted.
# Fails above BUDGET. Compile time goes with this count (each function is lowered and
# optimized on its own before any inlining), and unlike a time it does not depend on the
# machine's load: a change that adds instantiations shows here.
#
# FLAGS (a list) replaces -O0: with the separately compiled core, -O2, where the code
# that calls the core's definitions no longer emits its inline ones. FORBID: a regular
# expression that no defined function's (mangled) name may match: code the TU must not
# compile.
#
#   cmake -DCXX=g++-12 -DNM=nm -DSOURCE=... -DINCLUDE=... -DOUT=... -DBUDGET=N
#         [-DFLAGS="-O2;-DCOMMSCOPE_SEPARATE_COMPILATION" -DFORBID=join_symbolic_impl] -P count.cmake
foreach(var CXX NM SOURCE INCLUDE OUT BUDGET)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "count.cmake: -D${var}=... is required")
  endif()
endforeach()

if(NOT DEFINED FLAGS)
  set(FLAGS -O0)
endif()
execute_process(
  COMMAND ${CXX} -std=c++20 ${FLAGS} -I${INCLUDE} -c ${SOURCE} -o ${OUT}
  RESULT_VARIABLE compiled ERROR_VARIABLE errors)
if(NOT compiled EQUAL 0)
  message(FATAL_ERROR "${SOURCE} does not compile:\n${errors}")
endif()
execute_process(COMMAND ${NM} --defined-only ${OUT} OUTPUT_VARIABLE symbols RESULT_VARIABLE listed)
if(NOT listed EQUAL 0)
  message(FATAL_ERROR "${NM} could not read ${OUT}")
endif()
string(REGEX MATCHALL "[0-9a-f]+ [TtWw] [^\n]+" functions "${symbols}")
list(LENGTH functions count)
if(DEFINED FORBID)
  list(FILTER functions INCLUDE REGEX "${FORBID}")
  if(functions)
    list(JOIN functions "\n  " listed)
    message(FATAL_ERROR "${SOURCE} compiles what it should call (matching ${FORBID}):\n  ${listed}")
  endif()
endif()
message(STATUS "${SOURCE}: ${count} functions generated (budget ${BUDGET})")
if(count GREATER BUDGET)
  message(FATAL_ERROR
    "${count} functions generated, over the budget of ${BUDGET}: a change instantiates more "
    "than before (compare `nm -C` of the object with main's). Lower the instantiations "
    "(detail::vec for plain data, no new std::vector element types in hot paths), or raise "
    "the budget in tests/CMakeLists.txt with the reason in the commit.")
endif()
