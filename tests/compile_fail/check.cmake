# Compiles SOURCE with CXX (syntax only) and passes when the compilation fails and its
# first error is the intended diagnosis (REGEX) rather than a consequence of it.
execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -I${INCLUDE} -I${TESTS} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "compile-fail: ${SOURCE} compiled")
endif()
string(REPLACE ";" "," err_lines "${err}") # a CMake list must not split a message
string(REGEX MATCHALL "[^\n]*error:[^\n]*" errors "${err_lines}")
list(LENGTH errors count)
list(GET errors 0 first)
if(NOT first MATCHES "${REGEX}")
  message(FATAL_ERROR "compile-fail: the first error is not the diagnosis\n${first}\n--\n${err}")
endif()
if(ONE_ERROR AND NOT count EQUAL 1)
  message(FATAL_ERROR "compile-fail: ${count} errors, not one\n--\n${err}")
endif()
message("compile-fail: ok, first of ${count} error(s): ${first}")
