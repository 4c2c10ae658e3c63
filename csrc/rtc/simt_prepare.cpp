// simt_prepare.cpp - the first SIMT pass (pipeline start), and what both
// passes ask of the IR: which globals are block-shared UB, which calls are
// SIMT builtins, which functions reach them.  See simt_pass.cpp.
#include "simt_prepare.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {

bool is_ubuf_static(const GlobalValue *g) { return g->getName().starts_with("__arc_ubuf."); }
bool is_ubuf_dynamic(const GlobalValue *g)
{
    return isa<GlobalVariable>(g) && g->isDeclaration() && g->hasProtectedVisibility() && !is_ubuf_static(g);
}
bool is_builtin(const Function *f)
{
    return f && (f->getName() == kGet || f->getName() == kSync || f->getName() == kWarp);
}

// Whether I names a SIMT builtin or a block-shared global, directly or
// through a constant expression.
bool uses_simt(const Instruction &I)
{
    if (auto *cb = dyn_cast<CallBase>(&I))
        if (is_builtin(cb->getCalledFunction()))
            return true;
    for (const Value *op : I.operands()) {
        const Value *v = op->stripPointerCasts();
        if (auto *ce = dyn_cast<ConstantExpr>(v))
            v = ce->getOperand(0)->stripPointerCasts();
        if (auto *g = dyn_cast<GlobalValue>(v))
            if (is_ubuf_static(g) || is_ubuf_dynamic(g))
                return true;
    }
    return false;
}

// Functions that reach a SIMT builtin, directly or through calls.
std::set<Function *> simt_functions(Module &m)
{
    std::set<Function *> s;
    for (Function &f : m)
        for (Instruction &I : instructions(f))
            if (uses_simt(I)) {
                s.insert(&f);
                break;
            }
    for (bool grew = true; grew;) {
        grew = false;
        for (Function &f : m)
            if (!s.count(&f))
                for (Instruction &I : instructions(f))
                    if (auto *cb = dyn_cast<CallBase>(&I))
                        if (cb->getCalledFunction() && s.count(cb->getCalledFunction())) {
                            s.insert(&f);
                            grew = true;
                            break;
                        }
    }
    return s;
}

PreservedAnalyses SimtPrepare::run(Module &m, ModuleAnalysisManager &)
{
    unsigned n = 0;
    std::vector<std::pair<CallInst *, AllocaInst *>> arrays;
    std::vector<CallInst *> ptrs;
    // Only SIMT code's: a hybrid kernel's SIMD side's are SimdStaticUb's.
    std::set<Function *> simt = simt_code(m);
    for (Function &f : m) {
        if (!simt.count(&f)) /* module order: the UB layout must not depend on pointers */
            continue;
        for (Instruction &I : instructions(f))
            if (auto *ii = dyn_cast<IntrinsicInst>(&I))
                if (ii->getIntrinsicID() == Intrinsic::var_annotation) {
                    StringRef s;
                    auto *a = dyn_cast<AllocaInst>(ii->getArgOperand(0)->stripPointerCasts());
                    if (!a || !getConstantStringInfo(ii->getArgOperand(1), s) || s != "arc.ubuf")
                        continue;
                    if (a->getAllocatedType()->isPointerTy())
                        ptrs.push_back(ii); /* `__ubuf__ T *p`: a pointer into UB, an ordinary local */
                    else
                        arrays.push_back({ii, a});
                }
    }
    // Without its annotation the pointer is promoted to a register.
    for (CallInst *ii : ptrs)
        ii->eraseFromParent();
    for (auto &[ann, a] : arrays) {
        auto *g = new GlobalVariable(m, a->getAllocatedType(), false, GlobalValue::ExternalLinkage, nullptr,
                                     "__arc_ubuf." + std::to_string(n++));
        g->setAlignment(std::max(Align(32), a->getAlign()));
        ann->eraseFromParent();
        for (User *u : make_early_inc_range(a->users()))
            if (auto *ii = dyn_cast<IntrinsicInst>(u))
                if (ii->isLifetimeStartOrEnd())
                    ii->eraseFromParent();
        a->replaceAllUsesWith(g);
        a->eraseFromParent();
    }
    // Namespace-scope `__ubuf__ T a[N]` definitions: static UB too.
    for (GlobalVariable &g : make_early_inc_range(m.globals()))
        if (!g.isDeclaration() && g.hasProtectedVisibility() && !g.getName().starts_with("llvm.")) {
            auto *ng = new GlobalVariable(m, g.getValueType(), false, GlobalValue::ExternalLinkage, nullptr,
                                          "__arc_ubuf." + std::to_string(n++));
            ng->setAlignment(std::max(Align(32), g.getAlign().valueOrOne()));
            g.replaceAllUsesWith(ng);
            g.eraseFromParent();
        }
    std::set<Function *> threads;
    for (const SimtThread &t : simt_threads(m))
        threads.insert(t.f);
    for (Function *f : simt_functions(m)) {
        if (f->isDeclaration() || threads.count(f))
            continue;
        f->removeFnAttr(Attribute::NoInline);
        f->removeFnAttr(Attribute::OptimizeNone);
        f->addFnAttr(Attribute::AlwaysInline);
    }
    return PreservedAnalyses::none();
}

std::set<Function *> simt_code(Module &m)
{
    std::set<Function *> simt;
    std::vector<Function *> work;
    for (const SimtThread &t : simt_threads(m))
        if (simt.insert(t.f).second)
            work.push_back(t.f);
    while (!work.empty()) {
        Function *f = work.back();
        work.pop_back();
        for (Instruction &I : instructions(*f))
            for (Value *op : I.operands())
                if (auto *g = dyn_cast<Function>(op->stripPointerCasts()))
                    if (!g->isDeclaration() && simt.insert(g).second)
                        work.push_back(g);
    }
    return simt;
}

std::vector<SimtThread> simt_threads(Module &m)
{
    std::vector<SimtThread> out;
    for (Function &f : m)
        if (f.getName().starts_with("__arc_simt_thread_") && !f.isDeclaration()) {
            std::string id = f.getName().substr(18).str();
            out.push_back({&f, id, m.getGlobalVariable("__arc_kfn_" + id, true),
                           m.getGlobalVariable("__arc_kdesc_" + id, true), false});
        }
    unsigned n = 0;
    for (GlobalVariable &g : m.globals()) {
        StringRef name = g.getName();
        if (!name.starts_with("_ZN5__arc9simt_siteI") || !name.ends_with("E3recE") || !g.hasInitializer())
            continue;
        auto *init = dyn_cast<ConstantStruct>(g.getInitializer());
        if (!init || init->getNumOperands() < 4)
            continue;
        auto *f = dyn_cast<Function>(init->getOperand(1)->stripPointerCasts());
        auto *kfn = dyn_cast<GlobalVariable>(init->getOperand(2)->stripPointerCasts());
        auto *kdesc = dyn_cast<GlobalVariable>(init->getOperand(3)->stripPointerCasts());
        if (f && !f->isDeclaration())
            out.push_back({f, "s" + std::to_string(n++), kfn, kdesc, true});
    }
    return out;
}

} // namespace simt_detail
} // namespace arc_rtc
