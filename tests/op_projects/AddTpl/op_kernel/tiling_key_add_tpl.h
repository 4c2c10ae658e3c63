// Test op project (ascendrtc): the template parameters of AddTpl's kernel,
// shared by the host (GET_TPL_TILING_KEY) and the kernel.
#ifndef TILING_KEY_ADD_TPL_H
#define TILING_KEY_ADD_TPL_H
#include "ascendc/host_api/tiling/template_argument.h"

#define TPL_FP16 10
#define TPL_FP32 20

ASCENDC_TPL_ARGS_DECL(AddTpl,
    ASCENDC_TPL_DTYPE_DECL(D_T, TPL_FP16, TPL_FP32),
    ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_LIST, 1, 4),
    ASCENDC_TPL_BOOL_DECL(DOUBLE_IT, 0, 1),
);

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DTYPE_SEL(D_T, TPL_FP16),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1, 4),
        ASCENDC_TPL_BOOL_SEL(DOUBLE_IT, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DTYPE_SEL(D_T, TPL_FP32),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1, 4),
        ASCENDC_TPL_BOOL_SEL(DOUBLE_IT, 0, 1)),
);
#endif
