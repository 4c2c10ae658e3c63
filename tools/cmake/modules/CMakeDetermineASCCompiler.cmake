# CMakeDetermineASCCompiler.cmake - finds the ASC compiler: $ASC, else
# CMAKE_ASC_COMPILER, else the driver in the simulated CANN home.
if(NOT CMAKE_ASC_COMPILER)
  if(DEFINED ENV{ASC} AND NOT "$ENV{ASC}" STREQUAL "")
    set(CMAKE_ASC_COMPILER "$ENV{ASC}")
  else()
    get_filename_component(_asc_home "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
    set(CMAKE_ASC_COMPILER "${_asc_home}/bin/ascendrtc-cc")
    unset(_asc_home)
  endif()
endif()
if(NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "The ASC compiler ${CMAKE_ASC_COMPILER} does not exist: run `make home` in the "
                      "ascendrtc source tree, or set CMAKE_ASC_COMPILER")
endif()
set(CMAKE_ASC_COMPILER_ID "ascendrtc")
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
