// platform/platform_info_def.h - the platform headers' common part, which
// platform/platform_infos_def.h includes.  As CANN's does, it makes
// std::map, std::vector and std::string visible at global scope: op host
// code of CANN's libraries names `string`/`vector`/`map` unqualified
// (ops-nn's BatchNormV3 tiling) and CANN's compile accepts it through this
// header.
#ifndef ARC_HOST_PLATFORM_PLATFORM_INFO_DEF_H
#define ARC_HOST_PLATFORM_PLATFORM_INFO_DEF_H

#include <map>
#include <string>
#include <vector>

using std::map;
using std::string;
using std::vector;

#endif
