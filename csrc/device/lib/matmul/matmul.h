/* lib/matmul/matmul.h - the Matmul API, as lib/matmul_intf.h. */
#ifndef ARC_LIB_MATMUL_MATMUL_H_
#define ARC_LIB_MATMUL_MATMUL_H_
#include "lib/matmul_intf.h"
#endif
