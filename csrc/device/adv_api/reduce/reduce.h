/* adv_api/reduce/reduce.h - the reduce family's path in newer CANN
 * releases: kernel_operator.h holds it. */
#include "kernel_operator.h"
