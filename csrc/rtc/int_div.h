// int_div.h - integer division by zero and INT_MIN / -1 in kernel code.
#ifndef ARC_RTC_INT_DIV_H_
#define ARC_RTC_INT_DIV_H_

#include <llvm/IR/Module.h>

namespace arc_rtc {
// x86 traps on an integer division by zero and on INT_MIN / -1; the NPU's
// scalar unit evidently does not (CATLASS computes `i % 0` for a block that
// does not exist and never uses it), and what it returns is not documented.
// Every sdiv/udiv/srem/urem (scalar or vector) whose divisor is not a
// constant other than 0 (and -1, signed) is rewritten so it cannot trap:
// a zero divisor gives a quotient of all ones and a remainder equal to the
// dividend; INT_MIN / -1 gives INT_MIN and a remainder of 0.  On either,
// a cold branch calls __arc_int_div(kind) (1: by zero, 2: INT_MIN / -1),
// which warns once per kernel line, or traps under
// ASCENDRTC_INT_DIV=trap (rt/services/int_div.c).  Returns the number of
// divisions rewritten.
unsigned guard_int_divisions(llvm::Module &m);
} // namespace arc_rtc

#endif
