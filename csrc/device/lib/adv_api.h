/* adv_api.h - every advanced API family ascendrtc implements.  CANN's
 * kernel_operator.h makes the advanced API and its tiling structs visible
 * (the samples call AscendC::Pad with PadTiling after including only
 * kernel_operator.h), so kernel_operator.h includes this; the per-family
 * paths under lib/ (lib/activation/softmax.h, lib/pad/pad.h, ...) serve
 * kernels that include them explicitly. */
#ifndef ARC_LIB_ADV_API_H_
#define ARC_LIB_ADV_API_H_

#include "lib/tiling/adv_tiling_data.h"
#include "lib/activation/gelu.h"
#include "lib/activation/swish.h"
#include "lib/activation/glu.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmax_adjust.h"
#include "lib/activation/softmax_grad.h"
#include "lib/activation/logsoftmax.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/activation/softmaxflashv3.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/normalize.h"
#include "lib/normalization/rmsnorm.h"
#include "lib/normalization/welford.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/layernorm_grad.h"
#include "lib/pad/pad.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/quantization/ascend_dequant.h"
#include "lib/quantization/ascend_antiquant.h"
#include "lib/reduce/sum.h"
#include "lib/reduce/reduce_max.h"
#include "lib/select/selectwithbytesmask.h"
#include "lib/filter/dropout.h"
#include "lib/sort/sort.h"
#include "lib/sort/topk.h"
#include "lib/random/philox.h"
#include "lib/transpose/confusion_transpose.h"
#include "lib/math/bitwise.h"
#include "lib/math/clamp.h"
#include "lib/math/fma_rint_where.h"
#include "lib/math/exp.h"
#include "lib/math/axpy.h"
#include "lib/math/power.h"
#include "lib/math/cumsum.h"

#endif /* ARC_LIB_ADV_API_H_ */
