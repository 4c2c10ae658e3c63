/* TplAdd's template parameters: the element type, the tile count and
 * whether to add a bias (read from the wide tiling struct). */
#ifndef TPL_ADD_KEY_H
#define TPL_ADD_KEY_H
#include "ascendc/host_api/tiling/template_argument.h"

#define TPL_HALF 3
#define TPL_FLOAT 5

ASCENDC_TPL_ARGS_DECL(TplAdd,
    ASCENDC_TPL_DTYPE_DECL(ELEM, TPL_HALF, TPL_FLOAT),
    ASCENDC_TPL_UINT_DECL(TILES, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_MIX, 1, 1, 2, 4, 8),
    ASCENDC_TPL_BOOL_DECL(BIAS, 0, 1),
);

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DTYPE_SEL(ELEM, TPL_HALF),
        ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, 1, 2),
        ASCENDC_TPL_BOOL_SEL(BIAS, 0),
        ASCENDC_TPL_TILING_STRUCT_SEL(optiling::TplAddTiling)),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DTYPE_SEL(ELEM, TPL_FLOAT),
        ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_RANGE, 1, 1, 8),
        ASCENDC_TPL_BOOL_SEL(BIAS, 0, 1),
        ASCENDC_TPL_TILING_STRUCT_SEL(optiling::TplAddTilingWide))
);
#endif
