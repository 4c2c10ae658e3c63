// emit.h - the optimised module to an x86-64 ELF object in memory.
#ifndef ARC_RTC_EMIT_H_
#define ARC_RTC_EMIT_H_

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <string>

#include "compile.h"

namespace arc_rtc {
// The target machine code generation at opt_level (0-3) uses; null with
// *err set when LLVM has none.
std::unique_ptr<llvm::TargetMachine> target_machine(const std::string &triple, const std::string &cpu, int opt_level,
                                                    std::string *err);
// Runs tm's code generator on m into obj, back-end diagnostics into log
// (timed: LLVM's pass times too); ACL_SUCCESS or the error code.
int generate_code(llvm::Module &m, llvm::TargetMachine &tm, llvm::SmallVectorImpl<char> &obj, std::string &log,
                  bool timed);
// Code generation for `cpu` into res->bin (replacing what it held; a device
// object is checksum sealed, straight-line code gets the fast selector, and
// a large SIMT module is generated in parts on threads (emit_split.h); a
// host object (ascendrtc cc) none of these); timed: LLVM's pass times
// appended to the log.  ACL_SUCCESS or an error in the log.
int emit_object(llvm::Module &m, int opt_level, const std::string &cpu, bool timed, rtc_result *res,
                std::string &log, bool device = true);
} // namespace arc_rtc

#endif
