// rdc.cpp - see rdc.h.
#include "rdc.h"
#include "simt_prepare.h"

#include <set>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/Analysis/ValueTracking.h>
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
    llvm::GlobalVariable *ga = m.getGlobalVariable("llvm.global.annotations", true);
    auto *arr = ga && ga->hasInitializer() ? llvm::dyn_cast<llvm::ConstantArray>(ga->getInitializer()) : nullptr;
    if (!arr)
        return out;
    std::set<const llvm::Value *> kernels = used(m);
    std::set<llvm::Function *> seen;
    for (const llvm::Use &u : arr->operands()) {
        auto *e = llvm::dyn_cast<llvm::ConstantStruct>(u.get());
        if (!e || e->getNumOperands() < 4)
            continue;
        auto *f = llvm::dyn_cast<llvm::Function>(e->getOperand(0)->stripPointerCasts());
        llvm::StringRef what, file;
        if (!f || !llvm::getConstantStringInfo(e->getOperand(1)->stripPointerCasts(), what) || what != kMark)
            continue;
        if (f->isDeclaration() || f->hasLocalLinkage() || f->isDiscardableIfUnused() || kernels.count(f) ||
            !seen.insert(f).second)
            continue;
        llvm::getConstantStringInfo(e->getOperand(2)->stripPointerCasts(), file);
        auto *line = llvm::dyn_cast<llvm::ConstantInt>(e->getOperand(3));
        out.push_back({f, file.str(), line ? (unsigned)line->getZExtValue() : 0});
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
