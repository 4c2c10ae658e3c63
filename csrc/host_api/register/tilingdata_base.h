// register/tilingdata_base.h, host side - the tiling DSL
// (BEGIN_TILING_DATA_DEF ...) in host mode: the classes op_host code fills
// with set_<field> and SaveToBuffer.  The DSL itself is the device API's
// arc/tiling_dsl.h, the same file a kernel compile reads in kernel mode, so
// the bytes saved here are the kernel's struct by construction.
#ifndef ARC_HOST_REGISTER_TILINGDATA_BASE_H
#define ARC_HOST_REGISTER_TILINGDATA_BASE_H

#include <cstdint>
#include <cstring>
#include <limits> /* CANN's host headers bring it in; op_host code relies on that */
/* and <iostream>: the examples' host code (std::cout after tiling/tiling_api.h) relies on that */
#include <iostream>

#define ASCENDRTC_TILING_HOST 1
#include "arc/tiling_dsl.h"
// The library tiling structs a tiling header may nest (TCubeTiling, the
// advanced API's), as the op build makes them visible to op_host code.
#include "kernel_tiling/kernel_tiling.h"

#endif
