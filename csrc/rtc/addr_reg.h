// addr_reg.h - the C API's address registers (dav-3510's addr_reg): the
// offset asc_update_addr_reg_b8/b16/b32 returns is sum(index_i * stride_i)
// over the loops around the call, index_0 the innermost loop's iteration
// (the asc_update_addr_reg page), which only the compiler can see.
#ifndef ARC_RTC_ADDR_REG_H_
#define ARC_RTC_ADDR_REG_H_

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace arc_rtc {
// Pipeline start, every compile: each call __arc_addr_reg(esize, s0, s1,
// s2, s3) (arc/capi_reg.h's asc_update_addr_reg_* expand to it in the
// caller's own loop) becomes esize * sum(i_d * s_d) in bytes, i_d the
// iteration count of the d-th loop out from the call (a counter added to
// each such loop's header: 0 on entry, +1 along each back edge); a loop
// level the call does not have counts 0.
struct AddrRegPass : llvm::PassInfoMixin<AddrRegPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};
} // namespace arc_rtc

#endif
