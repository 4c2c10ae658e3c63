// simt_spin.cpp - spin loops get a marker on their back edges (simt_spin.h).
#include "simt_spin.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <set>
#include <utility>
#include <vector>

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {
namespace {

// Whether v, computed in loop L, depends on memory read volatile or
// atomically in L: the old value of a compare-and-swap counts, its
// success flag does not (a retry loop on it always makes progress).
bool reads_shared(Value *v, const Loop &L, std::set<Value *> &seen)
{
    auto *I = dyn_cast<Instruction>(v);
    if (!I || !L.contains(I) || !seen.insert(I).second)
        return false;
    if (auto *ld = dyn_cast<LoadInst>(I))
        return ld->isVolatile() || ld->isAtomic();
    if (isa<AtomicRMWInst>(I))
        return true;
    if (auto *ev = dyn_cast<ExtractValueInst>(I))
        if (isa<AtomicCmpXchgInst>(ev->getAggregateOperand()))
            return ev->getIndices()[0] == 0;
    if (isa<AtomicCmpXchgInst>(I))
        return true;
    if (isa<CallBase>(I) || isa<AllocaInst>(I))
        return false;
    for (Value *op : I->operands())
        if (reads_shared(op, L, seen))
            return true;
    return false;
}

bool is_spin(const Loop &L)
{
    SmallVector<BasicBlock *, 4> exits;
    L.getExitingBlocks(exits);
    std::set<Value *> seen;
    for (BasicBlock *bb : exits) {
        Instruction *t = bb->getTerminator();
        Value *c = nullptr;
        if (auto *br = dyn_cast<BranchInst>(t))
            c = br->isConditional() ? br->getCondition() : nullptr;
        else if (auto *sw = dyn_cast<SwitchInst>(t))
            c = sw->getCondition();
        if (c && reads_shared(c, L, seen))
            return true;
    }
    return false;
}

bool shared_access(const Instruction &I)
{
    if (auto *l = dyn_cast<LoadInst>(&I))
        return l->isVolatile() || l->isAtomic();
    if (auto *s = dyn_cast<StoreInst>(&I))
        return s->isVolatile() || s->isAtomic();
    return isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
}

} // namespace

unsigned mark_spin_loops(Function &f, FunctionCallee marker, bool lockstep)
{
    if (f.isDeclaration())
        return 0;
    DominatorTree DT(f);
    LoopInfo LI(DT);
    std::vector<Loop *> spins;
    std::set<Instruction *> steps;
    for (Loop *L : LI.getLoopsInPreorder())
        if (is_spin(*L)) {
            if (lockstep)
                for (BasicBlock *bb : L->blocks())
                    for (Instruction &I : *bb)
                        if (shared_access(I))
                            steps.insert(&I);
            spins.push_back(L);
        }
    unsigned n = mark_back_edges(spins, marker);
    for (Instruction *I : steps) {
        IRBuilder<> b(I);
        b.CreateCall(marker)->setDebugLoc(I->getDebugLoc());
    }
    return n + (unsigned)steps.size();
}

unsigned mark_back_edges(const std::vector<Loop *> &loops, FunctionCallee marker)
{
    std::vector<std::pair<BasicBlock *, BasicBlock *>> edges;
    for (Loop *L : loops) {
        SmallVector<BasicBlock *, 4> latches;
        L->getLoopLatches(latches);
        for (BasicBlock *l : latches)
            edges.push_back({l, L->getHeader()});
    }
    for (auto &e : edges) {
        BasicBlock *mid = SplitEdge(e.first, e.second);
        IRBuilder<> b(mid->getTerminator());
        CallInst *c = b.CreateCall(marker);
        // The loop's line, for the reports that name where threads are.
        if (DebugLoc dl = e.first->getTerminator()->getDebugLoc())
            c->setDebugLoc(dl);
    }
    return (unsigned)edges.size();
}

} // namespace simt_detail
} // namespace arc_rtc
