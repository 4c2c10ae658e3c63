// tiling/template_argument.h - the older path of the tiling-template
// declarations (ASCENDC_TPL_*): ops' tiling-key headers shared by host and
// kernel still include it so.
#include "ascendc/host_api/tiling/template_argument.h"
