// annotations.h - what the source marked with __attribute__((annotate)):
// llvm.global.annotations read in one place for each pass that asks (kernel
// qualifiers: metadata.cpp; __launch_bounds__: simt_pass.cpp; -dc's
// device functions: rdc.cpp; keep_reachable keeps those of what stays).
// Internal to the clang bridge (C++).
#ifndef ARC_RTC_ANNOTATIONS_H_
#define ARC_RTC_ANNOTATIONS_H_

#include <llvm/ADT/StringRef.h>

#include <vector>

namespace llvm {
class Constant;
class ConstantStruct;
class GlobalValue;
class Module;
}

namespace arc_rtc {

struct Annotation {
    llvm::ConstantStruct *entry;  // the element of llvm.global.annotations
    llvm::GlobalValue *target;    // what it annotates
    llvm::StringRef text;         // annotate("text", ...)
    llvm::StringRef file;         // where the annotated declaration is
    unsigned line;
    const llvm::Constant *args;   // its arguments' initializer ({...} or zero), or null
};

// Every annotation of m, in the array's order; empty when there is none.
std::vector<Annotation> annotations(llvm::Module &m);

} // namespace arc_rtc

#endif
