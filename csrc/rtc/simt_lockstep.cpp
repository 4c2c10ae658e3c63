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
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

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

// Rewrites L's induction i = phi [start, preheader], [i + S, latch] (S
// invariant, i indexing memory strided across threads) as start + k * S,
// k the iteration counter in its own stack slot marked kRoundMd (the
// frame layout marks its loads with the slot's offset).  In wrapping
// arithmetic that is i bit for bit; it leaves the thread's frame holding k,
// equal across threads that started the loop together, where it held i.
bool count_rounds(Loop *L, ValueToSCEVMapTy &next, ScalarEvolution &SE)
{
    BasicBlock *H = L->getHeader(), *pre = L->getLoopPreheader(), *latch = L->getLoopLatch();
    if (!pre || !latch)
        return false;
    for (PHINode &phi : H->phis()) {
        auto *inc = dyn_cast<BinaryOperator>(phi.getIncomingValueForBlock(latch));
        if (!phi.getType()->isIntegerTy() || !inc || inc->getOpcode() != Instruction::Add)
            continue;
        Value *S = inc->getOperand(0) == &phi ? inc->getOperand(1) : inc->getOperand(0);
        if ((inc->getOperand(0) != &phi && inc->getOperand(1) != &phi) || !L->isLoopInvariant(S) ||
            !strided_across_threads(&phi, L, next, SE))
            continue;
        SE.forgetLoop(L);
        Function &f = *H->getParent();
        Type *ty = phi.getType();
        IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
        AllocaInst *slot = b.CreateAlloca(ty, nullptr, "round.k");
        slot->setMetadata(kRoundMd, MDNode::get(f.getContext(), {}));
        b.SetInsertPoint(pre->getTerminator());
        b.CreateStore(ConstantInt::get(ty, 0), slot)->setMetadata(kRoundMd, MDNode::get(f.getContext(), {}));
        b.SetInsertPoint(&*H->getFirstInsertionPt());
        LoadInst *k = b.CreateLoad(ty, slot, "round.k");
        k->setMetadata(kRoundMd, MDNode::get(f.getContext(), {}));
        Value *i = b.CreateAdd(phi.getIncomingValueForBlock(pre), b.CreateMul(k, S));
        b.SetInsertPoint(latch->getTerminator());
        b.CreateStore(b.CreateAdd(k, ConstantInt::get(ty, 1)), slot);
        phi.replaceAllUsesWith(i);
        phi.eraseFromParent();
        return true;
    }
    return false;
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
    std::vector<std::pair<BasicBlock *, BasicBlock *>> exits;
    for (Loop *L : LI.getLoopsInPreorder())
        if (worth_lockstep(L, next, SE)) {
            loops.push_back(L);
            if (!count_rounds(L, next, SE))
                continue;
            // The code after the loop runs from a point of its own, so that
            // the rounds' thread loop is the loop body alone.
            SmallVector<Loop::Edge, 4> ex;
            L->getExitEdges(ex);
            for (auto &e : ex)
                exits.push_back({const_cast<BasicBlock *>(e.first), const_cast<BasicBlock *>(e.second)});
        }
    unsigned n = mark_back_edges(loops, marker);
    return n + mark_edges(exits, marker);
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
