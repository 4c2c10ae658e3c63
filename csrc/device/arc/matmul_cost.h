/* matmul_cost.h - a Matmul API block as the cost model sees it
 * (csrc/rt/analysis/cost_cube.c, arc_cost_mm in core_abi.h). */
#ifndef ARC_MATMUL_COST_H_
#define ARC_MATMUL_COST_H_

#include "arc/core_abi.h"

namespace AscendC {
namespace __mm {
/* Where operand o's block starts in GM (element offset off) and how its
 * rows run (ld elements apart; krows: K runs down them); an NZ operand is
 * taken as one run; a local or scalar operand has no GM load. */
template <typename O>
inline void cost_operand(const O &o, bool nz, long long off, long long ld, bool krows, const void *&p,
                         unsigned long long &ld_bytes, int &k_rows)
{
    if (!o.gm || o.scalar) return;
    constexpr long long per = __arc::packed_per_byte<typename O::elem>::value;
    p = nz ? (const void *)o.p : (const void *)(o.p + off / per); /* a packed type's offsets count elements */
    if (nz) return;
    ld_bytes = (unsigned long long)(ld / per) * sizeof(*o.p);
    k_rows = krows;
}
} // namespace __mm
} // namespace AscendC

#endif /* ARC_MATMUL_COST_H_ */
