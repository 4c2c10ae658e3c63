/* adv_api/math/sign.h - the advanced API's math path in newer CANN releases
 * (opbase's atvoss includes it): kernel_operator.h holds the family. */
#include "kernel_operator.h"
