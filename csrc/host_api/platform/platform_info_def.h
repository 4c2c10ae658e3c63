// platform/platform_info_def.h - older name of platform/platform_infos_def.h.
#include "platform/platform_infos_def.h"
