// simt_frame.cpp - a SIMT thread's frame (simt_frame.h).
#include "simt_frame.h"
#include "simt_lockstep.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

#include "../device/arc/simt_abi.h"

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {
namespace {

// The most instructions one value computed again may take.
const unsigned kRematBudget = 16;

// Whether v can be computed again wherever the thread resumes: it derives
// only from the thread's index (x, y, z), the block's context, the packed
// arguments (nothing writes them during a launch) and what the entry E
// computes -- not from the point resumed (s) or the check flag.  The
// uniform values of a kernel (a parameter, the grid's stride) are then
// recomputed, not kept per thread in memory, and stay visibly uniform in
// the thread loops for the vectoriser.
bool invariant(Value *v, BasicBlock *E, unsigned &budget)
{
    if (isa<Constant>(v))
        return true;
    if (auto *a = dyn_cast<Argument>(v))
        return a->getArgNo() < 6;
    auto *I = dyn_cast<Instruction>(v);
    if (!I || I->getParent() == E)
        return I != nullptr;
    if (!budget--)
        return false;
    if (auto *l = dyn_cast<LoadInst>(I)) {
        auto *a = dyn_cast<Argument>(getUnderlyingObject(l->getPointerOperand()));
        return l->isSimple() && a && a->getArgNo() == 1 && invariant(l->getPointerOperand(), E, budget);
    }
    if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) && !isa<GetElementPtrInst>(I) && !isa<CmpInst>(I) &&
        !isa<SelectInst>(I) && !isa<FreezeInst>(I))
        return false;
    for (Value *op : I->operands())
        if (!invariant(op, E, budget))
            return false;
    return true;
}

// A copy of invariant v's computation before `at` (what E computes is used
// as it is).
Value *remat(Value *v, BasicBlock *E, Instruction *at)
{
    auto *I = dyn_cast<Instruction>(v);
    if (!I || I->getParent() == E)
        return v;
    Instruction *c = I->clone();
    for (unsigned k = 0; k < c->getNumOperands(); k++)
        c->setOperand(k, remat(c->getOperand(k), E, at));
    c->insertBefore(at);
    return c;
}

} // namespace

unsigned simt_frame_layout(Function &f, BasicBlock *E, Value *frames, Value *tid, Value *nthreads, bool points,
                           const std::string &id, std::string &errors)
{
    const DataLayout &DL = f.getParent()->getDataLayout();
    Type *i8 = Type::getInt8Ty(f.getContext());
    // Values live across a point lose their dominance: keep them in the frame.
    if (points) {
        DominatorTree DT(f);
        std::vector<Instruction *> demote;
        for (Instruction &I : instructions(f)) {
            if (isa<AllocaInst>(I) || I.getParent() == E)
                continue;
            for (Use &u : I.uses())
                if (!DT.dominates(&I, u)) {
                    demote.push_back(&I);
                    break;
                }
        }
        for (Instruction *I : demote) {
            unsigned budget = kRematBudget;
            if (!isa<PHINode>(I) && invariant(I, E, budget)) {
                for (Use &u : make_early_inc_range(I->uses()))
                    if (!DT.dominates(I, u)) {
                        auto *phi = dyn_cast<PHINode>(u.getUser());
                        u.set(remat(I, E, phi ? phi->getIncomingBlock(u)->getTerminator()
                                               : cast<Instruction>(u.getUser())));
                    }
                continue;
            }
            /* a phi too: stored after the phis, loaded where used */
            DemoteRegToStack(*I, false, E->getFirstInsertionPt());
        }
    }
    uint64_t fsz = sizeof(arc_simt_xch);
    Align falign(16);
    std::vector<AllocaInst *> allocas;
    for (Instruction &I : instructions(f))
        if (auto *a = dyn_cast<AllocaInst>(&I))
            allocas.push_back(a);
    for (AllocaInst *a : allocas) {
        auto sz = a->getAllocationSize(DL);
        if (!sz || sz->isScalable()) {
            errors += "error: SIMT kernel " + id + ": a variable-length array is not supported in SIMT code\n";
            continue;
        }
        Align al = std::min(a->getAlign(), Align(64)); /* the frames are 64-byte aligned */
        falign = std::max(falign, al);
        fsz = alignTo(fsz, al.value());
        uint64_t stride = alignTo(sz->getFixedValue(), al.value());
        for (User *u : make_early_inc_range(a->users()))
            if (auto *ii = dyn_cast<IntrinsicInst>(u))
                if (ii->isLifetimeStartOrEnd())
                    ii->eraseFromParent();
        // The slot's address in the entry: an alloca the inliner left in
        // a later block may have uses past a point, which that block no
        // longer dominates.
        IRBuilder<> b(E->getTerminator());
        Type *i64 = b.getInt64Ty();
        Value *at = b.CreateAdd(b.CreateMul(nthreads, ConstantInt::get(i64, fsz), "", true, true),
                                b.CreateMul(tid, ConstantInt::get(i64, stride), "", true, true), "", true, true);
        if (a->hasMetadata(kRoundMd)) // a round counter: its loads name its slot
            for (User *u : a->users())
                if (auto *l = dyn_cast<LoadInst>(u))
                    l->setMetadata(kRoundMd, MDNode::get(f.getContext(), ConstantAsMetadata::get(
                                                                             ConstantInt::get(i64, fsz))));
        a->replaceAllUsesWith(b.CreateInBoundsGEP(i8, frames, at));
        fsz += stride;
        a->eraseFromParent();
    }
    unsigned frame_size = (unsigned)alignTo(fsz, falign.value());
    if (frame_size > (1u << 20))
        errors += "error: SIMT kernel " + id + ": " + std::to_string(frame_size) +
                  " bytes of per-thread locals, more than 1 MiB\n";
    return frame_size;
}

} // namespace simt_detail
} // namespace arc_rtc
