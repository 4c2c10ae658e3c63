# CMakeTestASCCompiler.cmake - the driver is checked by its own first
# compile (a failing one names the file and what is missing); here only that
# it runs.
execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --help RESULT_VARIABLE _asc_rc OUTPUT_QUIET ERROR_QUIET)
if(NOT _asc_rc EQUAL 0)
  message(FATAL_ERROR "The ASC compiler ${CMAKE_ASC_COMPILER} does not run (exit ${_asc_rc}); "
                      "try `${CMAKE_ASC_COMPILER} --help`")
endif()
unset(_asc_rc)
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
