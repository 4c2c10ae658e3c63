/* adv_api/pad/broadcast.h - Broadcast's path in newer CANN releases:
 * kernel_operator.h holds it. */
#include "kernel_operator.h"
