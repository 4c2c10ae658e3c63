// emit_split.h - code generation of a large SIMT module in parts, on threads.
//
// Loop fission gives a SIMT kernel one run function per stage (and checked
// and guarded copies); the code generator, most of such a compile, handles
// each function alone.  So the module's functions are dealt into parts of
// about equal size, each part is generated on a thread of its own (its own
// LLVMContext, reached through bitcode), and the parts' objects are joined
// into one (elf_merge.h).  The code of each function is what a whole
// compile generates; the module's internal symbols cross between parts as
// hidden globals and are local again in the joined object.
//
// ASCENDRTC_CODEGEN_THREADS: unset, a module of kSplitMin instructions or
// more in one part per kSplitMin (at least 2, at most the cores); 1, never;
// N from 2 to 64, N parts of any SIMT module (at most one per function;
// for tests); anything else is warned about and the default used.
#ifndef ARC_RTC_EMIT_SPLIT_H_
#define ARC_RTC_EMIT_SPLIT_H_

#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace arc_rtc {

// emit_split's answer when it did not apply: generate the module whole.
constexpr int kNotSplit = -1;

// Generates m (a device module, after its last change) in parts into obj:
// ACL_SUCCESS, an ACL error with the log set, or kNotSplit (m unchanged in
// what it computes; generate it whole).
int emit_split(llvm::Module &m, int opt_level, const std::string &cpu, std::vector<char> &obj, std::string &log);

} // namespace arc_rtc

#endif
