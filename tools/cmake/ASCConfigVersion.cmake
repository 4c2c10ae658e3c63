# ASCConfigVersion.cmake - any requested version is accepted: the simulated
# NPU follows the current Ascend C language.
set(PACKAGE_VERSION "8.5.0")
set(PACKAGE_VERSION_COMPATIBLE TRUE)
if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
