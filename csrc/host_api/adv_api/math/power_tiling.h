// adv_api/math/power_tiling.h - a path of CANN's SDK for the Power scratch
// queries (ops-nn's LpNormUpdate includes it): the host tiling API.
#include "tiling/tiling_api.h"
