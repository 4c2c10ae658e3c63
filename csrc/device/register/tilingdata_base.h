/* register/tilingdata_base.h - what an op project's op_host/<op>_tiling.h
 * includes.  In a kernel compile it brings the tiling DSL in kernel mode
 * (plain structs); the host side has its own header of this name that
 * includes the same arc/tiling_dsl.h in host mode. */
#ifndef ARC_REGISTER_TILINGDATA_BASE_H_
#define ARC_REGISTER_TILINGDATA_BASE_H_

#include <cstdint>

#include "arc/tiling_dsl.h"

#endif
