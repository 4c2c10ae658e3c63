/* cost.h - the device API's side of the cost model (csrc/rt/analysis/cost.c): the
 * pipe, bytes and synchronisation reach it through the race hooks
 * (arc/race.h); what those lack, the element type of a vector operation
 * (fp16 and fp32 repeats cost differently), is stored here before them.
 * One load and a branch when nothing is checked or profiled. */
#ifndef ARC_COST_H_
#define ARC_COST_H_

#include "arc/race.h"

namespace __arc {
template <class T> static inline void cost_esize()
{
    if (race_on()) __arc_core()->dev[ARC_COST_ESIZE_SLOT] = packed_per_byte<T>::value == 2 ? ARC_COST_ESIZE_S4 : sizeof(T);
}
} // namespace __arc

#endif /* ARC_COST_H_ */
