// platform/platform_ascendc.h - older SDK path of tiling/platform/platform_ascendc.h.
#include "tiling/platform/platform_ascendc.h"
