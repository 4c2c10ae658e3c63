// simt_guard.cpp - see simt_guard.h.
#include "simt_guard.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/SimpleLoopUnswitch.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Scalar/InstSimplifyPass.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <map>
#include <vector>

#include "simt_gmcheck.h"
#include "simt_ubaffine.h"

using namespace llvm;

namespace arc_rtc {

void no_runtime_unroll(BranchInst *latch)
{
    LLVMContext &C = latch->getContext();
    MDNode *off = MDNode::get(C, MDString::get(C, "llvm.loop.unroll.runtime.disable"));
    MDNode *id = MDNode::getDistinct(C, {nullptr, off}); /* a loop ID names itself first */
    id->replaceOperandWith(0, id);
    latch->setMetadata(LLVMContext::MD_loop, id);
}

PreservedAnalyses SimtGuard::run(Function &F, FunctionAnalysisManager &AM)
{
    if (!F.getName().starts_with("__arc_simt_run_"))
        return PreservedAnalyses::all();
    // first the checked run's entry test (before the unswitch copies its
    // accesses): its analyses are then stale
    bool affine = simt_detail::simt_ub_affine(F, AM);
    if (affine)
        AM.invalidate(F, PreservedAnalyses::none());
    auto &LI = AM.getResult<LoopAnalysis>(F);
    auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
    const DataLayout &DL = F.getParent()->getDataLayout();
    struct Cand {
        BranchInst *br;
        ICmpInst *cmp;
        Loop *L;
    };
    std::vector<Cand> cands;
    for (BasicBlock &bb : F) {
        auto *br = dyn_cast<BranchInst>(bb.getTerminator());
        Loop *L = LI.getLoopFor(&bb);
        if (!br || !br->isConditional() || !L || !L->getLoopPreheader())
            continue;
        auto *cmp = dyn_cast<ICmpInst>(br->getCondition());
        // a branch within the loop (not its exit), on a compare of an
        // affine function of L's iteration against what L does not change
        if (!cmp || !cmp->isRelational() || !L->contains(br->getSuccessor(0)) || !L->contains(br->getSuccessor(1)) ||
            !cmp->getOperand(0)->getType()->isIntegerTy())
            continue;
        cands.push_back({br, cmp, L});
    }
    std::vector<simt_detail::SimtHoisted> hoisted;
    for (Cand &c : cands) {
        Loop *L = c.L;
        const SCEV *a = SE.getSCEV(c.cmp->getOperand(0)), *b = SE.getSCEV(c.cmp->getOperand(1));
        ICmpInst::Predicate p = c.cmp->getPredicate();
        if (!isa<SCEVAddRecExpr>(a)) {
            std::swap(a, b);
            p = ICmpInst::getSwappedPredicate(p);
        }
        auto *ar = dyn_cast<SCEVAddRecExpr>(a);
        if (!ar || ar->getLoop() != L || !ar->isAffine() || !SE.isLoopInvariant(b, L))
            continue;
        // the iterations up to the latch's exit (a GM check's exit to its
        // report leaves earlier, and only then)
        const SCEV *btc = L->getLoopLatch() ? SE.getExitCount(L, L->getLoopLatch()) : SE.getCouldNotCompute();
        if (isa<SCEVCouldNotCompute>(btc))
            continue;
        // monotone over the iterations: no wrap in the predicate's sense
        // (the flags, or the last value computed twice as wide in range)
        bool sign = ICmpInst::isSigned(p);
        unsigned bits = ar->getType()->getIntegerBitWidth();
        bool nowrap = sign ? ar->hasNoSignedWrap() : ar->hasNoUnsignedWrap();
        if (!nowrap && bits <= 32) {
            Type *w = Type::getInt64Ty(F.getContext());
            auto ext = [&](const SCEV *x) { return sign ? SE.getSignExtendExpr(x, w) : SE.getZeroExtendExpr(x, w); };
            const SCEV *lw = SE.getAddExpr(ext(ar->getStart()),
                                           SE.getMulExpr(SE.getZeroExtendExpr(btc, w), ext(ar->getStepRecurrence(SE))));
            nowrap = sign ? SE.getSignedRange(lw).getSignedMin().sge(APInt::getSignedMinValue(bits).sext(64)) &&
                                SE.getSignedRange(lw).getSignedMax().sle(APInt::getSignedMaxValue(bits).sext(64))
                          : SE.getUnsignedRange(lw).getUnsignedMax().ule(APInt::getMaxValue(bits).zext(64));
        }
        if (!nowrap)
            continue;
        const SCEV *last = ar->evaluateAtIteration(btc, SE);
        Instruction *at = L->getLoopPreheader()->getTerminator();
        SCEVExpander ex(SE, DL, "arc.guard");
        if (!ex.isSafeToExpandAt(ar->getStart(), at) || !ex.isSafeToExpandAt(last, at) || !ex.isSafeToExpandAt(b, at))
            continue;
        Type *t = c.cmp->getOperand(0)->getType();
        Value *vf = ex.expandCodeFor(ar->getStart(), t, at), *vl = ex.expandCodeFor(last, t, at);
        Value *vb = ex.expandCodeFor(b, t, at);
        IRBuilder<> ib(at);
        Value *all = ib.CreateAnd(ib.CreateICmp(p, vf, vb), ib.CreateICmp(p, vl, vb), "arc.all");
        hoisted.push_back({c.br, L, all, 0});
    }
    simt_detail::simt_gm_hoist(F, LI, SE, hoisted);
    if (hoisted.empty())
        return affine ? PreservedAnalyses::none() : PreservedAnalyses::all();
    // One test per loop, the conjunction of its branches' (computed in its
    // preheader): true, every such branch goes one way on every iteration;
    // the unswitch pass then makes a copy of the loop without them, which
    // vectorises without masks or checks.  One test: one copy.
    std::map<Loop *, Value *> all;
    for (simt_detail::SimtHoisted &h : hoisted) {
        Value *&a = all[h.loop];
        IRBuilder<> ib(h.loop->getLoopPreheader()->getTerminator());
        a = a ? ib.CreateAnd(a, h.all) : h.all;
    }
    // A check whose report is the taken side joins as `!all && check`,
    // with `!all` computed in the preheader: there it is invariant and the
    // unswitch pass splits on it (negated at the branch, in the loop, it
    // saw no invariant and split such a loop only on another branch's test).
    std::map<Loop *, Value *> none;
    for (simt_detail::SimtHoisted &h : hoisted) {
        IRBuilder<> b2(h.br);
        Value *a = all[h.loop], *c = h.br->getCondition();
        Value *&na = none[h.loop];
        if (h.taken && !na)
            na = IRBuilder<>(h.loop->getLoopPreheader()->getTerminator()).CreateNot(a);
        h.br->setCondition(h.taken == 0 ? b2.CreateOr(a, c) : b2.CreateAnd(na, c));
    }
    // the copies, here only: unswitching every loop of the module costs
    // compile time for nothing
    FunctionPassManager fpm;
    fpm.addPass(createFunctionToLoopPassAdaptor(SimpleLoopUnswitchPass(/*NonTrivial=*/true), true));
    // The copy's branches test a constant now (a folded and/or): fold them
    // and drop their dead exits, or the vectoriser (next in the pipeline,
    // with nothing between) sees a loop of several exits and gives up.
    fpm.addPass(InstSimplifyPass());
    fpm.addPass(SimplifyCFGPass());
    fpm.run(F, AM);
    return PreservedAnalyses::none();
}

} // namespace arc_rtc
