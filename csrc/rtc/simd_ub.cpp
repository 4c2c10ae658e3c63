// simd_ub.cpp - SIMD code's static `__ubuf__` arrays in the UB (simd_ub.h).
//
// Local arrays are allocas with an "arc.ubuf" annotation (kernel_operator.h
// defines `__ubuf__` as one).  A kernel's arrays, and those of every
// function it can reach, get disjoint bytes from UB offset 0; the arrays of
// functions no kernel shares may share bytes (each kernel lays its own UB
// out).  Each function that has arrays asks the runtime for the UB's base
// once (__arc_static_ub, which traps when its kernels' arrays need more
// than this core's UB), and each array becomes base + offset.
#include "simd_ub.h"

#include "simt_prepare.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/ReplaceConstant.h>

#include <map>
#include <set>
#include <vector>

using namespace llvm;

namespace arc_rtc {
namespace {

bool ubuf_note(const IntrinsicInst *ii)
{
    StringRef s;
    auto id = ii->getIntrinsicID();
    return (id == Intrinsic::var_annotation || id == Intrinsic::ptr_annotation) &&
           getConstantStringInfo(ii->getArgOperand(1), s) && s == "arc.ubuf";
}

// The functions no other function calls (kernels and entries) that can
// reach f; a function whose address is taken is one itself.
struct Roots {
    std::map<Function *, std::set<Function *>> memo;
    std::set<Function *> busy;
    const std::set<Function *> &of(Function *f)
    {
        auto it = memo.find(f);
        if (it != memo.end())
            return it->second;
        std::set<Function *> r;
        if (busy.insert(f).second) {
            bool called = false, taken = false;
            for (User *u : f->users()) {
                auto *cb = dyn_cast<CallBase>(u);
                if (cb && cb->getCalledOperand() == f) {
                    called = true;
                    const std::set<Function *> &up = of(cb->getFunction());
                    r.insert(up.begin(), up.end());
                } else {
                    taken = true;
                }
            }
            if (!called || taken)
                r.insert(f);
            busy.erase(f);
        }
        return memo[f] = std::move(r);
    }
};

} // namespace

PreservedAnalyses SimdStaticUb::run(Module &m, ModuleAnalysisManager &)
{
    const DataLayout &DL = m.getDataLayout();
    std::set<Function *> simt = simt_detail::simt_code(m);
    std::vector<std::pair<Function *, std::vector<AllocaInst *>>> arrays;
    std::vector<IntrinsicInst *> notes;
    for (Function &f : m) {
        if (f.isDeclaration() || simt.count(&f))
            continue;
        std::vector<AllocaInst *> mine;
        for (Instruction &I : instructions(f))
            if (auto *ii = dyn_cast<IntrinsicInst>(&I); ii && ubuf_note(ii)) {
                notes.push_back(ii);
                auto *a = dyn_cast<AllocaInst>(ii->getArgOperand(0)->stripPointerCasts());
                if (ii->getIntrinsicID() == Intrinsic::var_annotation && a && a->isStaticAlloca() &&
                    !a->getAllocatedType()->isPointerTy())
                    mine.push_back(a);
            }
        if (!mine.empty())
            arrays.push_back({&f, std::move(mine)});
    }
    // Without their annotations pointers are promoted to registers.
    for (IntrinsicInst *ii : notes) {
        if (ii->getIntrinsicID() == Intrinsic::ptr_annotation)
            ii->replaceAllUsesWith(ii->getArgOperand(0));
        ii->eraseFromParent();
    }

    // A kernel's `extern __ubuf__ T d[]`: the functions of SIMD code using it.
    std::vector<GlobalVariable *> dyn;
    std::set<Function *> dyn_users;
    for (GlobalVariable &g : m.globals())
        if (simt_detail::is_ubuf_dynamic(&g)) {
            dyn.push_back(&g);
            for (Function &f : m)
                if (!f.isDeclaration() && !simt.count(&f))
                    convertUsersOfConstantsToInstructions({&g}, &f);
            for (User *u : g.users())
                if (auto *I = dyn_cast<Instruction>(u); I && !simt.count(I->getFunction()))
                    dyn_users.insert(I->getFunction());
        }
    if (arrays.empty() && dyn_users.empty())
        return notes.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();

    // Offsets, in module order (the layout must not depend on pointers).
    Roots roots;
    std::map<Function *, uint64_t> top;
    std::map<AllocaInst *, uint64_t> at;
    for (auto &[f, as] : arrays)
        for (AllocaInst *a : as) {
            const std::set<Function *> &rs = roots.of(f);
            uint64_t off = 0, size = a->getAllocationSize(DL)->getFixedValue();
            for (Function *r : rs)
                off = std::max(off, top[r]);
            off = alignTo(off, std::max<uint64_t>(32, a->getAlign().value()));
            at[a] = off;
            for (Function *r : rs)
                top[r] = off + size;
        }
    auto need = [&](Function *f) {
        uint64_t n = 0;
        for (Function *r : roots.of(f))
            n = std::max(n, top[r]);
        return alignTo(n, 32);
    };

    LLVMContext &C = m.getContext();
    Type *ptr = PointerType::get(C, 0), *i8 = Type::getInt8Ty(C), *i64 = Type::getInt64Ty(C);
    FunctionCallee base = m.getOrInsertFunction("__arc_static_ub", ptr, i64, ptr);
    std::map<Function *, Value *> ub;
    auto base_of = [&](Function *f) {
        Value *&b = ub[f];
        if (!b) {
            IRBuilder<> eb(&*f->getEntryBlock().getFirstInsertionPt());
            b = eb.CreateCall(base, {ConstantInt::get(i64, need(f)), eb.CreateGlobalStringPtr(demangle(f->getName().str()))});
        }
        return b;
    };
    for (auto &[f, as] : arrays)
        for (AllocaInst *a : as) {
            Value *b = base_of(f);
            for (User *u : make_early_inc_range(a->users()))
                if (auto *ii = dyn_cast<IntrinsicInst>(u); ii && ii->isLifetimeStartOrEnd())
                    ii->eraseFromParent();
            IRBuilder<> eb(cast<Instruction>(b)->getNextNode());
            a->replaceAllUsesWith(eb.CreateConstInBoundsGEP1_64(i8, b, at[a]));
            a->eraseFromParent();
        }
    for (Function *f : dyn_users) {
        Value *b = base_of(f);
        IRBuilder<> eb(cast<Instruction>(b)->getNextNode());
        Value *d = eb.CreateConstInBoundsGEP1_64(i8, b, need(f));
        for (GlobalVariable *g : dyn)
            g->replaceUsesWithIf(d, [&](Use &u) {
                auto *I = dyn_cast<Instruction>(u.getUser());
                return I && I->getFunction() == f;
            });
    }
    return PreservedAnalyses::none();
}

} // namespace arc_rtc
