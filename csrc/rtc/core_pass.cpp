// core_pass.cpp - see core_pass.h.
#include "core_pass.h"

#include <set>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>
#pragma GCC diagnostic pop

#include "program_host.h"

namespace arc_rtc {
namespace {

const char kAivSuffix[] = ".aiv";

// The entry function of a launch site's record {lowered, entry, &kfn, &desc}.
llvm::Function *site_entry(llvm::GlobalVariable &rec)
{
    auto *init = rec.hasInitializer() ? llvm::dyn_cast<llvm::ConstantStruct>(rec.getInitializer()) : nullptr;
    return init && init->getNumOperands() >= 2 ? llvm::dyn_cast<llvm::Function>(init->getOperand(1)->stripPointerCasts())
                                               : nullptr;
}

// The entries of m: __arc_entry_<i> and the launch sites'.
std::vector<llvm::Function *> entries(llvm::Module &m)
{
    std::vector<llvm::Function *> out;
    std::set<llvm::Function *> seen;
    for (llvm::Function &f : m)
        if (!f.isDeclaration() && f.getName().starts_with("__arc_entry_") && seen.insert(&f).second)
            out.push_back(&f);
    for (llvm::GlobalVariable &g : m.globals())
        if (is_site_rec(g))
            if (llvm::Function *f = site_entry(g); f && !f->isDeclaration() && seen.insert(f).second)
                out.push_back(f);
    return out;
}

} // namespace

bool names_core_pass(llvm::StringRef t)
{
    return t.contains("g_coreType") || t.contains("__DAV_CUBE__") || t.contains("__DAV_VEC__") ||
           t.contains("__DAV_C220_CUBE__") || t.contains("__DAV_C220_VEC__");
}

void core_pass_args(int pass, int arch, std::vector<std::string> &args)
{
    const bool aic = pass == 1;
    args.push_back(aic ? "-D__ARC_CORE_PASS__=1" : "-D__ARC_CORE_PASS__=2");
    args.push_back(aic ? "-D__DAV_CUBE__=1" : "-D__DAV_VEC__=1");
    if (arch == 2201)
        args.push_back(aic ? "-D__DAV_C220_CUBE__=1" : "-D__DAV_C220_VEC__=1");
}

bool merge_core_passes(llvm::Module &aic, std::unique_ptr<llvm::Module> aiv, std::string *log)
{
    // The AIV pass's launch sites are the AIC pass's (the same source): their
    // records go, their entries stay (llvm.used), and so does its host code
    // only where the AIC pass keeps it.
    std::vector<llvm::GlobalVariable *> recs;
    std::vector<llvm::GlobalValue *> keep;
    for (llvm::GlobalVariable &g : aiv->globals())
        if (is_site_rec(g)) {
            recs.push_back(&g);
            if (llvm::Function *f = site_entry(g))
                keep.push_back(f);
        }
    if (!keep.empty())
        llvm::appendToUsed(*aiv, keep);
    for (llvm::GlobalVariable *g : recs) {
        g->replaceAllUsesWith(llvm::PoisonValue::get(g->getType()));
        g->eraseFromParent();
    }
    strip_host_code(*aiv);
    std::set<std::string> aiv_defs;
    for (llvm::GlobalObject &g : aiv->global_objects())
        g.setComdat(nullptr);
    for (llvm::GlobalValue &g : aiv->global_values())
        if (!g.isDeclaration() && !g.hasLocalLinkage() && !g.getName().starts_with("llvm.")) {
            aiv_defs.insert(g.getName().str());
            g.setName(g.getName() + kAivSuffix);
        }
    // Each entry of the AIC pass becomes a dispatcher by the core it runs on.
    llvm::Function *is_aic = aic.getFunction("__arc_pass_is_aic");
    if (!is_aic || is_aic->isDeclaration()) {
        *log += "internal error: the AIC pass has no __arc_pass_is_aic (arc/sys.h)\n";
        return false;
    }
    llvm::LLVMContext &ctx = aic.getContext();
    for (llvm::Function *e : entries(aic)) {
        std::string name = e->getName().str();
        if (!aiv_defs.count(name))
            continue; // the AIV pass has no such entry: the AIC pass's runs on both
        e->setComdat(nullptr);
        e->setName(name + ".aic");
        auto *d = llvm::Function::Create(e->getFunctionType(), e->getLinkage(), name, aic);
        e->replaceAllUsesWith(d);
        e->setLinkage(llvm::GlobalValue::InternalLinkage);
        llvm::FunctionCallee v = aic.getOrInsertFunction(name + kAivSuffix, e->getFunctionType());
        auto *bb = llvm::BasicBlock::Create(ctx, "", d);
        auto *on_aic = llvm::BasicBlock::Create(ctx, "aic", d);
        auto *on_aiv = llvm::BasicBlock::Create(ctx, "aiv", d);
        llvm::IRBuilder<> b(bb);
        b.CreateCondBr(b.CreateICmpNE(b.CreateCall(is_aic), b.getInt32(0)), on_aic, on_aiv);
        std::vector<llvm::Value *> args;
        for (llvm::Argument &a : d->args())
            args.push_back(&a);
        b.SetInsertPoint(on_aic);
        b.CreateCall(e, args);
        b.CreateRetVoid();
        b.SetInsertPoint(on_aiv);
        b.CreateCall(v, args);
        b.CreateRetVoid();
    }
    if (llvm::Linker::linkModules(aic, std::move(aiv))) {
        *log += "internal error: the AIC and AIV passes of the kernel file did not link\n";
        return false;
    }
    return true;
}

} // namespace arc_rtc
