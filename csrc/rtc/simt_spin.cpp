// simt_spin.cpp - spin loops get a marker on their back edges, and which
// points of a SIMT thread's spin loops are behind which (simt_spin.h).
#include "simt_spin.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <map>
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

unsigned mark_spin_loops(Function &f, FunctionCallee marker, bool lockstep, std::set<const BasicBlock *> *headers)
{
    if (f.isDeclaration())
        return 0;
    DominatorTree DT(f);
    LoopInfo LI(DT);
    std::vector<Loop *> spins;
    std::set<Instruction *> steps;
    std::vector<Instruction *> loads;
    for (Loop *L : LI.getLoopsInPreorder())
        if (is_spin(*L)) {
            if (lockstep)
                for (BasicBlock *bb : L->blocks())
                    for (Instruction &I : *bb)
                        if (shared_access(I) && steps.insert(&I).second && isa<LoadInst>(I))
                            loads.push_back(&I);
            spins.push_back(L);
            if (headers)
                headers->insert(L->getHeader());
        }
    unsigned n = mark_back_edges(spins, marker);
    for (Instruction *I : loads)
        if (!steps.count(I->getNextNode())) { // else the next access's point serves
            IRBuilder<> b(I->getNextNode());
            b.CreateCall(marker)->setDebugLoc(I->getDebugLoc());
            n++;
        }
    for (Instruction *I : steps) {
        IRBuilder<> b(I);
        b.CreateCall(marker)->setDebugLoc(I->getDebugLoc());
    }
    return n + (unsigned)steps.size();
}

std::vector<unsigned long long> spin_behind(Function &f, const std::vector<CallInst *> &points,
                                           const std::set<const BasicBlock *> &headers)
{
    if (headers.empty())
        return {};
    DominatorTree DT(f);
    LoopInfo LI(DT);
    std::map<const Instruction *, size_t> num;
    for (size_t i = 0; i < points.size(); i++)
        num[points[i]] = i + 1;
    size_t words = (points.size() + 64) / 64;
    std::vector<unsigned long long> rows((points.size() + 1) * words);
    bool any = false;
    for (size_t i = 0; i < points.size(); i++) {
        CallInst *q = points[i];
        Function *callee = q->getCalledFunction();
        BasicBlock *qb = q->getParent();
        Loop *outer = nullptr;
        for (Loop *L = LI.getLoopFor(qb); L; L = L->getParentLoop())
            if (headers.count(L->getHeader()))
                outer = L;
        if (!outer || !callee || callee->getName() != kYield)
            continue;
        unsigned long long *row = &rows[(i + 1) * words];
        auto mark = [&](Instruction &I) {
            auto it = num.find(&I);
            if (it != num.end())
                row[it->second / 64] |= 1ull << (it->second % 64);
        };
        for (Instruction &I : *qb) { // the points before q in its block
            if (&I == q)
                break;
            mark(I);
        }
        // Backwards from q's block within the outer spin loop, not over a
        // back edge of a loop around q (its header's, from inside it).
        std::set<BasicBlock *> seen{qb};
        std::vector<BasicBlock *> work{qb};
        while (!work.empty()) {
            BasicBlock *b = work.back();
            work.pop_back();
            Loop *hl = LI.isLoopHeader(b) ? LI.getLoopFor(b) : nullptr;
            bool back = hl && hl->contains(qb);
            for (BasicBlock *p : predecessors(b)) {
                if (!outer->contains(p) || (back && hl->contains(p)) || !seen.insert(p).second)
                    continue;
                for (Instruction &I : *p)
                    mark(I);
                work.push_back(p);
            }
        }
        any = true;
    }
    if (!any)
        rows.clear();
    return rows;
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
    return mark_edges(edges, marker);
}

unsigned mark_edges(const std::vector<std::pair<BasicBlock *, BasicBlock *>> &edges, FunctionCallee marker)
{
    for (auto &e : edges) {
        BasicBlock *mid = SplitEdge(e.first, e.second);
        IRBuilder<> b(mid->getTerminator());
        CallInst *c = b.CreateCall(marker);
        // The source block's line, for the reports that name where threads are.
        if (DebugLoc dl = e.first->getTerminator()->getDebugLoc())
            c->setDebugLoc(dl);
    }
    return (unsigned)edges.size();
}

} // namespace simt_detail
} // namespace arc_rtc
