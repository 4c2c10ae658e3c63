// rdc.cpp - see rdc.h.
#include "rdc.h"
#include "annotations.h"
#include "simt_prepare.h"

#include <set>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>
#pragma GCC diagnostic pop

namespace arc_rtc {
namespace {

const char kMark[] = "arc.aicore";

// The functions llvm.used or llvm.compiler.used keep: __global__ kernels.
std::set<const llvm::Value *> used(const llvm::Module &m)
{
    std::set<const llvm::Value *> out;
    for (const char *name : {"llvm.used", "llvm.compiler.used"})
        if (const llvm::GlobalVariable *gv = m.getGlobalVariable(name, true))
            if (gv->hasInitializer())
                if (auto *a = llvm::dyn_cast<llvm::ConstantArray>(gv->getInitializer()))
                    for (const llvm::Use &u : a->operands())
                        out.insert(u->stripPointerCasts());
    return out;
}

// Each marked function with where its annotation says it is declared.
struct Marked {
    llvm::Function *f;
    std::string file;
    unsigned line;
};

std::vector<Marked> marked(llvm::Module &m)
{
    std::vector<Marked> out;
    std::set<const llvm::Value *> kernels = used(m);
    std::set<llvm::Function *> seen;
    for (const Annotation &a : annotations(m)) {
        auto *f = llvm::dyn_cast<llvm::Function>(a.target);
        if (!f || a.text != kMark || f->isDeclaration() || f->hasLocalLinkage() || f->isDiscardableIfUnused() ||
            kernels.count(f) || !seen.insert(f).second)
            continue;
        out.push_back({f, a.file.str(), a.line});
    }
    return out;
}

} // namespace

std::vector<llvm::Function *> rdc_functions(llvm::Module &m)
{
    std::vector<llvm::Function *> out;
    for (const Marked &k : marked(m))
        out.push_back(k.f);
    return out;
}

bool rdc_check_simt(llvm::Module &m, const char *file, std::string *log)
{
    std::set<llvm::Function *> simt = simt_detail::simt_functions(m);
    bool ok = true;
    for (const Marked &k : marked(m)) {
        if (!simt.count(k.f))
            continue;
        ok = false;
        std::string name = llvm::demangle(k.f->getName().str());
        std::string where = k.file.substr(k.file.rfind('/') + 1);  // the compiler's path is a virtual root's
        *log += (where.empty() ? std::string(file) : where) + ":" + std::to_string(k.line) +
                ": error: the -dc device function '" + name +
                "' uses SIMT builtins (thread or block indices, asc_syncthreads, warp functions or shared UB): the "
                "simulated NPU runs a block's threads as loops inside the kernel, so it cannot call such a "
                "function across files; define it in the file of the kernels that call it (or inline, in a "
                "header)\n";
    }
    return ok;
}

} // namespace arc_rtc
