// simt_lockstep.cpp - grid-stride loops become lockstep points (simt_lockstep.h).
#include "simt_lockstep.h"
#include "simt_prepare.h"
#include "simt_spin.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <set>

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {
namespace {

// Consecutive threads start at most this many elements apart (coalesced)...
const int64_t kNear = 4;
// ...and an iteration steps at least this many (or by a run-time amount).
const int64_t kFar = 64;
// Loops of at most this many iterations are left alone (unrolled anyway).
const unsigned kFewTrips = 16;

// Whether index idx (an integer) starts a few elements apart in
// consecutive threads and steps far per iteration of L.
bool strided_across_threads(Value *idx, const Loop *L, ValueToSCEVMapTy &next, ScalarEvolution &SE)
{
    while (auto *c = dyn_cast<CastInst>(idx)) /* the index before its extension to 64 bits */
        if (isa<ZExtInst>(c) || isa<SExtInst>(c))
            idx = c->getOperand(0);
        else
            break;
    if (!idx->getType()->isIntegerTy())
        return false;
    auto *ar = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(idx));
    if (!ar || ar->getLoop() != L || !ar->isAffine())
        return false;
    const SCEV *start = ar->getStart(), *step = ar->getStepRecurrence(SE);
    auto *dx = dyn_cast<SCEVConstant>(SE.getMinusSCEV(SCEVParameterRewriter::rewrite(start, SE, next), start));
    if (!dx || dx->isZero() || std::abs(dx->getAPInt().getSExtValue()) > kNear)
        return false;
    auto *cs = dyn_cast<SCEVConstant>(step);
    return !cs || std::abs(cs->getAPInt().getSExtValue()) >= kFar;
}

bool worth_lockstep(Loop *L, ValueToSCEVMapTy &next, ScalarEvolution &SE)
{
    if (!L->isInnermost())
        return false;
    if (unsigned trips = SE.getSmallConstantMaxTripCount(L); trips && trips <= kFewTrips)
        return false;
    bool strided = false;
    for (BasicBlock *bb : L->blocks())
        for (Instruction &I : *bb) {
            if (auto *cb = dyn_cast<CallBase>(&I)) {
                auto *ii = dyn_cast<IntrinsicInst>(cb);
                if (!ii || (ii->mayHaveSideEffects() && !ii->isAssumeLikeIntrinsic()))
                    return false; /* a point, a runtime call, a memory intrinsic: leave it */
                continue;
            }
            if (I.isAtomic() || (isa<LoadInst>(I) && cast<LoadInst>(I).isVolatile()) ||
                (isa<StoreInst>(I) && cast<StoreInst>(I).isVolatile()))
                return false;
            Value *p = getLoadStorePointerOperand(&I);
            auto *gep = p ? dyn_cast<GetElementPtrInst>(p) : nullptr;
            if (gep && gep->getNumIndices() >= 1 && !strided)
                strided = strided_across_threads(*std::prev(gep->idx_end()), L, next, SE);
        }
    return strided;
}

} // namespace

unsigned mark_lockstep_loops(Function &f, FunctionCallee marker)
{
    if (f.isDeclaration())
        return 0;
    // threadIdx.x, once for each call that reads it, becomes threadIdx.x + 1
    ValueToSCEVMapTy next;
    for (Instruction &I : instructions(f))
        if (auto *c = dyn_cast<CallInst>(&I))
            if (c->getCalledFunction() && c->getCalledFunction()->getName() == kGet && c->getType()->isIntegerTy())
                if (auto *k = dyn_cast<ConstantInt>(c->getArgOperand(0)); k && k->isZero())
                    next[c] = nullptr;
    if (next.empty())
        return 0;
    DominatorTree DT(f);
    LoopInfo LI(DT);
    TargetLibraryInfoImpl TLII(Triple(f.getParent()->getTargetTriple()));
    TargetLibraryInfo TLI(TLII, &f);
    AssumptionCache AC(f);
    ScalarEvolution SE(f, TLI, AC, DT, LI);
    for (auto &kv : next)
        kv.second = SE.getAddExpr(SE.getSCEV(const_cast<Value *>(kv.first)), SE.getOne(kv.first->getType()));
    std::vector<Loop *> loops;
    for (Loop *L : LI.getLoopsInPreorder())
        if (worth_lockstep(L, next, SE))
            loops.push_back(L);
    return mark_back_edges(loops, marker);
}

BasicBlock *lockstep_again(IRBuilder<> &b, BasicBlock *start, PHINode *z, Value *pend, Value *nthreads, unsigned s)
{
    LLVMContext &C = b.getContext();
    Function *run = b.GetInsertBlock()->getParent();
    BasicBlock *done = b.GetInsertBlock();
    Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
    auto *scan = BasicBlock::Create(C, "lockstep.scan", run), *at = BasicBlock::Create(C, "lockstep.at", run),
         *next = BasicBlock::Create(C, "lockstep.next", run), *out = BasicBlock::Create(C, "lockstep.out", run);
    Value *n = b.CreateZExt(nthreads, i64);
    b.CreateBr(scan);
    b.SetInsertPoint(scan);
    PHINode *u = b.CreatePHI(i64, 2, "u");
    b.CreateCondBr(b.CreateICmpULT(u, n), at, out);
    b.SetInsertPoint(at);
    Value *here = b.CreateICmpEQ(b.CreateLoad(i32, b.CreateInBoundsGEP(i32, pend, u)), b.getInt32(s));
    b.CreateCondBr(here, start, next);
    b.SetInsertPoint(next);
    Value *u1 = b.CreateAdd(u, ConstantInt::get(i64, 1));
    b.CreateBr(scan);
    u->addIncoming(ConstantInt::get(i64, 0), done);
    u->addIncoming(u1, next);
    z->addIncoming(b.getInt32(0), at);
    b.SetInsertPoint(out);
    return out;
}

} // namespace simt_detail
} // namespace arc_rtc
