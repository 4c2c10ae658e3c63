# ASCConfig.cmake - find_package(ASC) for ascendrtc's simulated NPU.
#
# Loaded before project(... LANGUAGES ASC CXX): it puts the ASC language's
# modules (compiler detection, rules, test) on CMAKE_MODULE_PATH, which is how
# CMake finds a language it does not ship (the "CMakeDetermine<LANG>Compiler"
# mechanism of cmake-language extension).  The compiler is ascendrtc's
# bisheng-like driver, `ascendrtc cc`: .asc files are single-source programs
# (kernels + host code) whose kernels run on the simulated NPU.
#
# Variables read (as CANN's ASC language reads them):
#   CMAKE_ASC_ARCHITECTURES  dav-2201 (default) or dav-3510: adds --npu-arch=
#   CMAKE_ASC_ENABLE_SIMT    ON: adds --enable-simt
#   CMAKE_ASC_RUN_MODE       npu (default), cpu or sim: all run on the simulator
# Set: ASC_FOUND, ASC_HOME (the simulated CANN home), ASC_INCLUDE_DIRS.
get_filename_component(ASC_HOME "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(ASC_INCLUDE_DIRS "${ASC_HOME}/include")
list(FIND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules" _asc_at)
if(_asc_at EQUAL -1)
  list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules")
endif()
unset(_asc_at)
set(ASC_FOUND TRUE)
set(ASC_VERSION "${PACKAGE_VERSION}")

# ascendc_compile_definitions(<target> <PRIVATE|PUBLIC|INTERFACE> -DNAME[=VALUE]...):
# CANN's ASC package's way to give definitions to a target's ASC compiles
# only (the host C++ sources of the target do not see them).
function(ascendc_compile_definitions target scope)
  foreach(_asc_def IN LISTS ARGN)
    string(REGEX REPLACE "^-D" "" _asc_def "${_asc_def}")
    target_compile_definitions(${target} ${scope} "$<$<COMPILE_LANGUAGE:ASC>:${_asc_def}>")
  endforeach()
endfunction()
