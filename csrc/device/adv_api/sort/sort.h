/* adv_api/sort/sort.h - the sort family's path in newer CANN releases:
 * kernel_operator.h holds it. */
#include "kernel_operator.h"
