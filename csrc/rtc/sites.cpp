// sites.cpp - kernel source lines for runtime errors (see sites.h).  The
// device API is inlined into the kernel, so the location of a trap's call
// is a chain: the check in a device header, inlined into the API function,
// inlined into the user's line.  The user's line is the innermost link
// outside the device headers.  Marking costs one call per site, made only
// on the way to a runtime service; debug info is dropped afterwards, so
// codegen and the object are as without it.
#include "sites.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <string>
#include <vector>

namespace arc_rtc {
namespace {
bool reports(llvm::StringRef name)
{
    return name == "__arc_trap" || name == "__arc_gm_check" || name == "__arc_race_access" || name == "__arc_race_gm" ||
           name == "__arc_sync_all" || name == "__arc_cross_core" || name == "__arc_cross_set_all" || name.starts_with("__arc_que_") ||
           name == "__arc_pipe_carve" || name.starts_with("__arc_dc_") || name == "__arc_gm_view" ||
           name.starts_with("__arc_check_") || name.starts_with("__arc_whole_") ||
           name == "__arc_brcb" || name == "__arc_int_div";
}

} // namespace

std::string user_line(const llvm::DILocation *loc, llvm::StringRef device_root, const char *const *strip, int nstrip)
{
    for (; loc; loc = loc->getInlinedAt()) {
        std::string file = loc->getFilename().str();
        if (file.empty() || llvm::StringRef(file).starts_with(device_root) || loc->getLine() == 0)
            continue;
        for (int i = 0; i < nstrip; i++) {
            llvm::StringRef s(strip[i]);
            if (llvm::StringRef(file).starts_with(s) && file.size() > s.size() && file[s.size()] == '/') {
                file = file.substr(s.size() + 1);
                break;
            }
        }
        return file + ":" + std::to_string(loc->getLine());
    }
    return "";
}

void mark_sites(llvm::Module &m, const char *device_root, const char *const *strip, int nstrip)
{
    llvm::LLVMContext &ctx = m.getContext();
    llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
    llvm::FunctionCallee site =
        m.getOrInsertFunction("__arc_site", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false));
    // Marked: calls of the services, and calls from user code into device-API
    // functions the optimiser did not inline (their own service calls have no
    // user frame and so keep the site their caller set).
    std::vector<std::pair<llvm::CallInst *, std::string>> calls;
    for (llvm::Function &f : m)
        for (llvm::BasicBlock &bb : f)
            for (llvm::Instruction &in : bb) {
                auto *call = llvm::dyn_cast<llvm::CallInst>(&in);
                llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
                if (!callee)
                    continue;
                const llvm::DISubprogram *sp = callee->getSubprogram();
                bool device_fn = sp && sp->getFilename().starts_with(device_root);
                if (!reports(callee->getName()) && !device_fn)
                    continue;
                std::string text = user_line(call->getDebugLoc().get(), device_root, strip, nstrip);
                if (!text.empty())
                    calls.emplace_back(call, text);
            }
    std::map<std::string, llvm::Constant *> strings;
    for (auto &[call, text] : calls) {
        llvm::IRBuilder<> b(call);
        llvm::Constant *&s = strings[text];
        if (!s)
            s = b.CreateGlobalStringPtr(text, "__arc_site_str");
        b.CreateCall(site, {s});
    }
}
} // namespace arc_rtc
