/* basic_api/kernel_basic_intf.h - the basic API's umbrella header (tensors,
 * pipes, vector, cube, Reg): kernel_operator.h holds all of it. */
#include "kernel_operator.h"
