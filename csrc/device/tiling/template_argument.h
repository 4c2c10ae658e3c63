/* tiling/template_argument.h - the tiling template header's older path (ops-math's
 * Neg includes it); the declarations are ascendc/host_api/tiling/template_argument.h's. */
#include "ascendc/host_api/tiling/template_argument.h"
