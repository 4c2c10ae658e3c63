// simt_round.cpp - a lockstep round's copy of the thread loops (simt_round.h).
#include "simt_round.h"
#include "simt_lockstep.h"

#include <llvm/ADT/SetVector.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <set>
#include <vector>

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {
namespace {

// The value each of zh's phis takes from every block outside the loops
// (`in`); false where they differ.
bool entered_alike(BasicBlock *zh, const std::set<BasicBlock *> &in)
{
    for (PHINode &phi : zh->phis()) {
        Value *v = nullptr;
        for (unsigned k = 0; k < phi.getNumIncomingValues(); k++)
            if (!in.count(phi.getIncomingBlock(k))) {
                if (v && v != phi.getIncomingValue(k))
                    return false;
                v = phi.getIncomingValue(k);
            }
        if (!v)
            return false;
    }
    return true;
}

// zh's phis take from G what they took from the blocks outside the loops.
void enter_from(BasicBlock *zh, const std::set<BasicBlock *> &in, BasicBlock *G)
{
    for (PHINode &phi : zh->phis()) {
        Value *v = nullptr;
        for (unsigned k = phi.getNumIncomingValues(); k-- > 0;)
            if (!in.count(phi.getIncomingBlock(k))) {
                v = phi.getIncomingValue(k);
                phi.removeIncomingValue(k, false);
            }
        phi.addIncoming(v, G);
    }
}

} // namespace

bool lockstep_round_copy(Function &run, BasicBlock *zh, BasicBlock *done, LoadInst *pl, unsigned s, Value *pend,
                         Value *frames, Value *nthreads)
{
    LLVMContext &C = run.getContext();
    std::vector<BasicBlock *> nest, work{zh};
    std::set<BasicBlock *> in{zh};
    while (!work.empty()) {
        BasicBlock *bb = work.back();
        work.pop_back();
        nest.push_back(bb);
        for (BasicBlock *sc : successors(bb))
            if (sc != done && in.insert(sc).second)
                work.push_back(sc);
    }
    // The thread's check of its point: `br (icmp eq pend[t], s), run, skip`.
    auto *cmp = pl->hasOneUse() ? dyn_cast<ICmpInst>(pl->user_back()) : nullptr;
    auto *br = cmp && cmp->hasOneUse() ? dyn_cast<BranchInst>(cmp->user_back()) : nullptr;
    if (!br || !br->isConditional() || !in.count(br->getParent()))
        return false;
    // The round counter's loads; the loops may not hold its first store (a
    // run that enters the loop: its loads would read the thread's own 0).
    std::vector<LoadInst *> ks;
    int64_t off = -1;
    Type *kty = nullptr;
    for (BasicBlock *bb : nest)
        for (Instruction &I : *bb) {
            for (User *u : I.users())
                if (!in.count(cast<Instruction>(u)->getParent()))
                    return false; /* used after the loops: not cloned alone */
            MDNode *md = I.getMetadata(kRoundMd);
            if (!md)
                continue;
            auto *l = dyn_cast<LoadInst>(&I);
            if (!l || md->getNumOperands() != 1)
                return false;
            int64_t o = mdconst::extract<ConstantInt>(md->getOperand(0))->getSExtValue();
            if ((kty && (o != off || kty != l->getType())) || l->getType()->getIntegerBitWidth() > 64)
                return false;
            off = o;
            kty = l->getType();
            ks.push_back(l);
        }
    if (ks.empty() || !entered_alike(zh, in))
        return false;

    ValueToValueMapTy vm;
    std::vector<BasicBlock *> copy;
    for (BasicBlock *bb : nest) {
        BasicBlock *c = CloneBasicBlock(bb, vm, ".round", &run);
        vm[bb] = c;
        copy.push_back(c);
    }
    remapInstructionsInBlocks(copy, vm);
    // The copy's thread loop: a loop ID of its own, marked for SimtGuard.
    for (BasicBlock *bb : copy)
        if (Instruction *t = bb->getTerminator(); t->getMetadata(LLVMContext::MD_loop)) {
            SmallVector<Metadata *, 4> ops{nullptr};
            MDNode *old = t->getMetadata(LLVMContext::MD_loop);
            for (unsigned k = 1; k < old->getNumOperands(); k++)
                ops.push_back(old->getOperand(k));
            ops.push_back(MDNode::get(C, MDString::get(C, kRoundLoop)));
            MDNode *id = MDNode::getDistinct(C, ops);
            id->replaceOperandWith(0, id);
            t->setMetadata(LLVMContext::MD_loop, id);
        }

    // The check, before each round: every thread at s, with the same k.
    auto *G = BasicBlock::Create(C, "round.check", &run, zh), *GL = BasicBlock::Create(C, "round.scan", &run, zh),
         *GX = BasicBlock::Create(C, "round.pick", &run, zh);
    SmallSetVector<BasicBlock *, 4> outside;
    for (BasicBlock *p : predecessors(zh))
        if (!in.count(p))
            outside.insert(p);
    for (BasicBlock *p : outside)
        p->getTerminator()->replaceSuccessorWith(zh, G);
    auto *zc = cast<BasicBlock>(vm[zh]);
    enter_from(zh, in, GX);
    std::set<BasicBlock *> cin;
    for (BasicBlock *bb : copy)
        cin.insert(bb);
    enter_from(zc, cin, GX);
    IRBuilder<> b(G);
    Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
    Value *kbase = b.CreateInBoundsGEP(b.getInt8Ty(), frames, b.CreateMul(nthreads, ConstantInt::get(i64, off)));
    Value *k0 = b.CreateLoad(kty, kbase, "round.k0");
    b.CreateBr(GL);
    b.SetInsertPoint(GL);
    // the differences or'ed as wide as the wider of pend and k: 32-bit
    // lanes for a 32-bit k (twice the lanes of 64-bit ones)
    Type *dt = kty->getIntegerBitWidth() > 32 ? kty : i32;
    PHINode *u = b.CreatePHI(i64, 2, "u"), *acc = b.CreatePHI(dt, 2, "differ");
    Value *pu = b.CreateLoad(i32, b.CreateInBoundsGEP(i32, pend, u));
    Value *ku = b.CreateLoad(kty, b.CreateInBoundsGEP(kty, kbase, u));
    Value *acc1 = b.CreateOr(acc, b.CreateOr(b.CreateZExt(b.CreateXor(pu, b.getInt32(s)), dt),
                                             b.CreateZExt(b.CreateXor(ku, k0), dt)));
    Value *u1 = b.CreateAdd(u, ConstantInt::get(i64, 1), "", true, true);
    b.CreateCondBr(b.CreateICmpULT(u1, nthreads), GL, GX);
    u->addIncoming(ConstantInt::get(i64, 0), G);
    u->addIncoming(u1, GL);
    acc->addIncoming(ConstantInt::get(dt, 0), G);
    acc->addIncoming(acc1, GL);
    b.SetInsertPoint(GX);
    b.CreateCondBr(b.CreateICmpEQ(acc1, ConstantInt::get(dt, 0)), zc, zh);

    // In the copy every thread runs, and k is the round's.
    auto *bc = cast<BranchInst>(vm[br]);
    bc->getSuccessor(1)->removePredecessor(bc->getParent());
    BranchInst::Create(bc->getSuccessor(0), bc->getIterator());
    bc->eraseFromParent();
    cast<Instruction>(vm[cmp])->eraseFromParent();
    cast<Instruction>(vm[pl])->eraseFromParent();
    for (LoadInst *l : ks) {
        auto *c = cast<LoadInst>(vm[l]);
        c->replaceAllUsesWith(k0);
        c->eraseFromParent();
    }
    return true;
}

} // namespace simt_detail
} // namespace arc_rtc
