# CMakeASCInformation.cmake - how CMake compiles and links ASC sources with
# ascendrtc's driver (bisheng's command line: -c, -o, --npu-arch=,
# --enable-simt, -I, -D).
set(CMAKE_ASC_ARCHITECTURES_KNOWN dav-2201 dav-3510)
if(NOT CMAKE_ASC_ARCHITECTURES)
  # a plain variable, not a cache entry: a project's own
  # set(CMAKE_ASC_ARCHITECTURES dav-3510 CACHE ...) after project() must win
  set(CMAKE_ASC_ARCHITECTURES "dav-2201")
endif()
foreach(_asc_arch IN LISTS CMAKE_ASC_ARCHITECTURES)
  if(NOT _asc_arch IN_LIST CMAKE_ASC_ARCHITECTURES_KNOWN)
    message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES=${CMAKE_ASC_ARCHITECTURES}: '${_asc_arch}' is not an NPU "
                        "architecture the simulated NPU has (known: ${CMAKE_ASC_ARCHITECTURES_KNOWN})")
  endif()
endforeach()
list(LENGTH CMAKE_ASC_ARCHITECTURES _asc_n)
if(_asc_n GREATER 1)
  message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES=${CMAKE_ASC_ARCHITECTURES}: one architecture per build")
endif()
unset(_asc_n)
if(CMAKE_ASC_RUN_MODE AND NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|cpu|sim)$")
  message(FATAL_ERROR "CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE}: expected npu, cpu or sim")
endif()

set(CMAKE_ASC_FLAGS_INIT "--npu-arch=${CMAKE_ASC_ARCHITECTURES}")
if(CMAKE_ASC_ENABLE_SIMT)
  string(APPEND CMAKE_ASC_FLAGS_INIT " --enable-simt")
endif()
set(CMAKE_ASC_FLAGS_DEBUG_INIT "-g -O0")
set(CMAKE_ASC_FLAGS_RELEASE_INIT "-O2")
set(CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT "-O2 -g")
set(CMAKE_ASC_FLAGS_MINSIZEREL_INIT "-O2")
# CMakeCommonLanguageInclude turns the *_INIT values into cached CMAKE_ASC_FLAGS*.
include(CMakeCommonLanguageInclude)

set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIE "-fPIE")
if(NOT CMAKE_ASC_COMPILE_OBJECT)
  set(CMAKE_ASC_COMPILE_OBJECT "<CMAKE_ASC_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -o <OBJECT> -c <SOURCE>")
endif()
if(NOT CMAKE_ASC_LINK_EXECUTABLE)
  set(CMAKE_ASC_LINK_EXECUTABLE
      "<CMAKE_ASC_COMPILER> <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_LIBRARY)
  set(CMAKE_ASC_CREATE_SHARED_LIBRARY
      "<CMAKE_ASC_COMPILER> <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> -shared <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_ARCHIVE_CREATE)  # each object carries its own device binary: a plain archive
  set(CMAKE_ASC_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT CMAKE_ASC_ARCHIVE_APPEND)
  set(CMAKE_ASC_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT CMAKE_ASC_ARCHIVE_FINISH)
  set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
endif()
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
# a target linking an ASC shared library finds it where it was built, as
# for C and CXX (the build tree's RPATH; install(TARGETS) rewrites it)
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG "-Wl,-rpath-link,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_ASC_INFORMATION_LOADED 1)
