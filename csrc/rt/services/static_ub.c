/* static_ub.c - the memories SIMD code's static local arrays live in
 * (`__ubuf__`, `__cbuf__`, `__ca__`, `__cb__`, `__cc__`, `__biasbuf__`,
 * `__fbuf__`), which the rtc's SimdStaticUb pass lays out from offset 0
 * (rtc/simd_ub.cpp). */
#include "rt/rt_internal.h"

void *__arc_static_mem(unsigned mem, unsigned long long bytes, const char *fn)
{
    arc_core *c = __arc_core();
    static const char *const quals[] = {
#define ARC_STATIC_MEM_QUAL_(id, note, qual, align) qual,
        ARC_STATIC_MEMS(ARC_STATIC_MEM_QUAL_)
#undef ARC_STATIC_MEM_QUAL_
    };
    unsigned char *base;
    unsigned long long size;
    const char *name;
    switch (mem) {
    case ARC_MEM_UB: base = c->ub, size = c->ub_size, name = "UB"; break;
    case ARC_MEM_L1: base = c->l1, size = c->l1_size, name = "L1"; break;
    case ARC_MEM_L0A: base = c->l0 + ARC_L0A_OFF, size = arc_l0a_size_of(c->arch), name = "L0A"; break;
    case ARC_MEM_L0B: base = c->l0 + ARC_L0B_OFF, size = arc_l0b_size_of(c->arch), name = "L0B"; break;
    case ARC_MEM_L0C: base = c->l0 + ARC_L0C_OFF, size = arc_l0c_size_of(c->arch), name = "L0C"; break;
    case ARC_MEM_BT: base = c->l0 + arc_bt_off(c->arch), size = arc_bt_size_of(c->arch), name = "BiasTable"; break;
    default: base = c->l0 + ARC_FB_OFF, size = ARC_FB_SIZE, name = "Fixpipe buffer"; break;
    }
    if (bytes > size)
        __arc_trap(quals[mem < ARC_MEM_COUNT ? mem : ARC_MEM_FB],
                   "the static %s arrays of %s (and of what it shares a kernel with) take %llu bytes, more than this "
                   "core's %s (%llu bytes)", quals[mem < ARC_MEM_COUNT ? mem : ARC_MEM_FB], fn, bytes, name, size);
    return base;
}
