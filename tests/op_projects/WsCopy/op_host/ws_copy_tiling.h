/* WsCopy's host side uses the kernel's plain struct; this header of the
 * same name must not shadow op_kernel/ws_copy_tiling.h in the kernel. */
#ifndef WS_COPY_TILING_H
#define WS_COPY_TILING_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(WsCopyHostView)
TILING_DATA_FIELD_DEF(uint64_t, unused);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(WsCopy, WsCopyHostView)
}
#endif
