// metadata.h - the .arc_meta section of a compiled module (common/meta.h):
// each kernel's parameters from the descriptors clang computed, its type,
// and its SIMT shape.
#ifndef ARC_RTC_METADATA_H_
#define ARC_RTC_METADATA_H_

#include <llvm/IR/Module.h>

#include <string>

#include "compile.h"
#include "infer_types.h"
#include "simt_pass.h"

namespace arc_rtc {
// Adds .arc_meta to m and fills res->lowered; ACL_SUCCESS or an error with
// the reason in the log.  cpu: the CPU the object is built for.
int add_metadata(llvm::Module &m, const rtc_request *req, const InferredTypes &inferred, const SimtResult &simt,
                 const std::string &cpu, rtc_result *res, std::string &log);
} // namespace arc_rtc

#endif
