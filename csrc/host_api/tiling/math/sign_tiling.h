// tiling/math/sign_tiling.h - a path of CANN's SDK for the Sign scratch
// queries (ops-nn and ops-math host code include it): the host tiling API.
#include "tiling/tiling_api.h"
