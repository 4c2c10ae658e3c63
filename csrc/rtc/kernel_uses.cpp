// kernel_uses.cpp - what each kernel uses (see kernel_uses.h).  The device
// API marks its cube instructions, vector instructions and the Matmul API
// with __arc_uses(bits) calls; before inlining each call still sits in the
// API function that made it, so a walk of the call graph from a kernel finds
// exactly the APIs its code can call, whichever branch (ASCEND_IS_AIC, a
// tiling key) they sit in, as CANN's compiler sees both the AIC's and the
// AIV's code.
#include "kernel_uses.h"
#include "program_host.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "device/arc/core_abi.h"

namespace arc_rtc {
namespace {
const char kMarker[] = "__arc_uses";
const char kNamed[] = "arc.kernel_uses";

// The bits of the __arc_uses calls in f's own body, and its direct callees;
// `indirect` when it makes a call through a pointer.
struct Body {
    unsigned bits = 0;
    bool indirect = false;
    std::vector<llvm::Function *> callees;
};

Body scan(llvm::Function &f)
{
    Body b;
    for (auto &bb : f)
        for (auto &i : bb) {
            auto *cb = llvm::dyn_cast<llvm::CallBase>(&i);
            if (!cb || cb->isInlineAsm())
                continue;
            llvm::Function *callee = cb->getCalledFunction();
            if (!callee) {
                b.indirect = true;
            } else if (callee->getName() == kMarker) {
                if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(cb->getArgOperand(0)))
                    b.bits |= static_cast<unsigned>(ci->getZExtValue());
            } else if (!callee->isDeclaration()) {
                b.callees.push_back(callee);
            }
        }
    return b;
}
} // namespace

llvm::PreservedAnalyses KernelUsesPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &)
{
    llvm::Function *marker = m.getFunction(kMarker);
    std::unordered_map<llvm::Function *, Body> bodies;
    auto body = [&](llvm::Function *f) -> const Body & {
        auto it = bodies.find(f);
        return it != bodies.end() ? it->second : bodies.emplace(f, scan(*f)).first->second;
    };
    std::vector<llvm::Function *> taken; // reached by any indirect call
    for (auto &f : m)
        if (!f.isDeclaration() && f.hasAddressTaken(nullptr, true, true, true, true))
            taken.push_back(&f);
    llvm::NamedMDNode *out = m.getOrInsertNamedMetadata(kNamed);
    llvm::LLVMContext &ctx = m.getContext();
    // the kernels: __arc_kfn_<i>'s and the <<<...>>> launch sites' (rec = {lowered, entry, &kfn, &desc})
    std::vector<llvm::GlobalVariable *> kfns;
    for (unsigned i = 0;; i++) {
        auto *kfn = m.getGlobalVariable("__arc_kfn_" + std::to_string(i));
        if (!kfn)
            break;
        kfns.push_back(kfn);
    }
    for (llvm::GlobalVariable &g : m.globals()) {
        auto *init = is_site_rec(g) && g.hasInitializer() ? llvm::dyn_cast<llvm::ConstantStruct>(g.getInitializer())
                                                          : nullptr;
        if (init && init->getNumOperands() >= 4)
            if (auto *kfn = llvm::dyn_cast<llvm::GlobalVariable>(init->getOperand(2)->stripPointerCasts()))
                kfns.push_back(kfn);
    }
    std::unordered_set<llvm::Function *> done;
    for (llvm::GlobalVariable *kfn : kfns) {
        llvm::Function *k = kfn->hasInitializer()
                                ? llvm::dyn_cast<llvm::Function>(kfn->getInitializer()->stripPointerCasts())
                                : nullptr;
        if (!k || k->isDeclaration() || !done.insert(k).second)
            continue;
        unsigned bits = 0;
        bool through_pointers = false;
        std::unordered_set<llvm::Function *> seen{k};
        std::vector<llvm::Function *> todo{k};
        while (!todo.empty()) {
            llvm::Function *f = todo.back();
            todo.pop_back();
            const Body &b = body(f);
            bits |= b.bits;
            for (llvm::Function *c : b.callees)
                if (seen.insert(c).second)
                    todo.push_back(c);
            if (b.indirect && !through_pointers) {
                through_pointers = true;
                for (llvm::Function *c : taken)
                    if (seen.insert(c).second)
                        todo.push_back(c);
            }
        }
        llvm::Metadata *ops[] = {llvm::MDString::get(ctx, k->getName()),
                                 llvm::ConstantAsMetadata::get(
                                     llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), bits))};
        out->addOperand(llvm::MDTuple::get(ctx, ops));
    }
    if (!marker)
        return llvm::PreservedAnalyses::all();
    std::vector<llvm::CallBase *> calls;
    for (llvm::User *u : marker->users())
        if (auto *cb = llvm::dyn_cast<llvm::CallBase>(u))
            calls.push_back(cb);
    for (llvm::CallBase *cb : calls)
        cb->eraseFromParent();
    if (marker->use_empty())
        marker->eraseFromParent();
    return llvm::PreservedAnalyses::none();
}

unsigned kernel_uses(const llvm::Module &m, llvm::StringRef fn)
{
    // every record of fn: a file compiled per side has one from each (core_pass.h)
    const llvm::NamedMDNode *md = m.getNamedMetadata(kNamed);
    unsigned bits = 0;
    for (unsigned i = 0; md && i < md->getNumOperands(); i++) {
        const llvm::MDNode *t = md->getOperand(i);
        auto *name = t->getNumOperands() == 2 ? llvm::dyn_cast<llvm::MDString>(t->getOperand(0)) : nullptr;
        if (!name || name->getString() != fn)
            continue;
        if (auto *c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(t->getOperand(1)))
            bits |= static_cast<unsigned>(c->getZExtValue());
    }
    return bits;
}

unsigned inferred_kernel_type(unsigned uses)
{
    enum { AIV_ONLY = 0, AIC_ONLY = 1, MIX_AIC_1_2 = 5 }; // KernelMetaType (arc/entry.h)
    if ((uses & ARC_USES_MATMUL) || ((uses & ARC_USES_CUBE) && (uses & ARC_USES_VEC)))
        return MIX_AIC_1_2;
    return (uses & ARC_USES_CUBE) ? AIC_ONLY : AIV_ONLY;
}
} // namespace arc_rtc
