/* fp16_api.c - aclFloat16ToFloat / aclFloatToFloat16, the host's half
 * conversions, by the same rounding as the kernels' (loader/fp16.c). */
#include <string.h>

#include "rt/rt_internal.h"

float aclFloat16ToFloat(aclFloat16 value)
{
    _Float16 h;
    memcpy(&h, &value, sizeof h);
    return sim_extendhfsf2(h);
}

aclFloat16 aclFloatToFloat16(float value)
{
    _Float16 h = sim_truncsfhf2(value);
    aclFloat16 v;
    memcpy(&v, &h, sizeof v);
    return v;
}
