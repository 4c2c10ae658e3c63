// simt_ubaffine.cpp - the shared-UB race check's affine path (see
// simt_ubaffine.h; the runtime's side is rt/analysis/race_simt.c).
#include "simt_ubaffine.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <set>
#include <vector>

#include "../device/arc/simt_abi.h"
#include "simt_pass.h"

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {
namespace {

const char *const kRun = "__arc_simt_run_", *const kChecked = "_checked";
static_assert(sizeof(arc_simt_ub_aff) == 48, "arc_simt_ub_aff layout");

// The block context's field a load reads (its offset); -1 for another value.
int64_t field(const Value *v)
{
    auto *l = dyn_cast<LoadInst>(v);
    return l ? simt_ctx_field(l) : -1;
}

// When br is the thread loop's test of whether a thread is at the run's
// point (pend[t] == s), the way such a thread goes; else null.
BasicBlock *status_taken(const BranchInst *br)
{
    auto *c = br->isConditional() ? dyn_cast<ICmpInst>(br->getCondition()) : nullptr;
    if (!c || !c->isEquality() || !isa<ConstantInt>(c->getOperand(1)))
        return nullptr;
    auto *l = dyn_cast<LoadInst>(c->getOperand(0));
    if (!l || field(getUnderlyingObject(l->getPointerOperand())) != (int64_t)offsetof(arc_simt_block_ctx, pend))
        return nullptr;
    return br->getSuccessor(c->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1);
}

// Whether block b runs once per thread of the thread loop L (the innermost,
// over threadIdx.x) when every thread is at the run's point: every way from
// L's header to its latch passes b (a way into a trap ends the launch).
bool once(const Loop *L, const BasicBlock *b)
{
    BasicBlock *h = L->getHeader(), *latch = L->getLoopLatch();
    std::set<const BasicBlock *> seen{h};
    std::vector<BasicBlock *> work{h};
    while (!work.empty()) {
        BasicBlock *bb = work.back();
        work.pop_back();
        if (bb == b)
            continue;
        if (bb == latch)
            return false;
        auto *br = dyn_cast<BranchInst>(bb->getTerminator());
        BasicBlock *only = br ? status_taken(br) : nullptr;
        for (BasicBlock *s : successors(bb)) {
            if (only && s != only)
                continue;
            if (!L->contains(s)) { /* out of the loop: only into a trap (the GM check's report) */
                if (!isa<UnreachableInst>(s->getTerminator()))
                    return false;
                continue;
            }
            if (s != h && seen.insert(s).second)
                work.push_back(s);
        }
    }
    return true;
}

struct Aff {
    CallInst *slow;        // the access's report call: its operands say what it is
    const SCEV *off, *step[3];
    uint64_t bytes;
    unsigned flags, site;
};

// The access behind the checked run's report call c as a function of the
// thread index, when it is one (false: the function gets no entry test).
bool affine_access(CallInst *c, LoopInfo &LI, ScalarEvolution &SE, Instruction *at, SCEVExpander &ex, Aff &a)
{
    auto *bytes = dyn_cast<ConstantInt>(c->getArgOperand(2));
    auto *write = dyn_cast<ConstantInt>(c->getArgOperand(3));
    auto *site = dyn_cast<ConstantInt>(c->getArgOperand(5));
    // the block the inline check branches from, where the access was
    BasicBlock *head = c->getParent()->getSinglePredecessor();
    Loop *xl = head ? LI.getLoopFor(head) : nullptr;
    if (!bytes || !write || !site || !xl || xl->getLoopDepth() != 3 || !xl->getLoopLatch() || !once(xl, head))
        return false;
    Value *p = c->getArgOperand(1);
    const Value *base = getUnderlyingObject(p, 0);
    int64_t fo = field(base);
    if (fo != (int64_t)offsetof(arc_simt_block_ctx, ub) && fo != (int64_t)offsetof(arc_simt_block_ctx, dyn_ub))
        return false;
    const SCEV *ps = SE.getSCEV(p);
    if (SE.getPointerBase(ps) != SE.getSCEV(const_cast<Value *>(base)))
        return false;
    const SCEV *cur = SE.removePointerBase(ps);
    // {{{off, +, z}<z loop>, +, y}<y loop>, +, x}<x loop>, a level absent
    // where the address does not change with that index
    const Loop *loops[3] = {xl, xl->getParentLoop(), xl->getParentLoop()->getParentLoop()};
    for (int k = 0; k < 3; k++) {
        a.step[k] = SE.getZero(cur->getType());
        if (auto *ar = dyn_cast<SCEVAddRecExpr>(cur); ar && ar->getLoop() == loops[k]) {
            if (!ar->isAffine())
                return false;
            a.step[k] = ar->getStepRecurrence(SE);
            cur = ar->getStart();
        }
        if (!SE.isLoopInvariant(cur, loops[k]))
            return false;
    }
    a.off = cur;
    for (const SCEV *x : {a.off, a.step[0], a.step[1], a.step[2]})
        if (!SE.isLoopInvariant(x, loops[2]) || !ex.isSafeToExpandAt(x, at))
            return false;
    a.slow = c;
    a.bytes = bytes->getZExtValue();
    a.flags = (write->getZExtValue() & 1) | (fo == (int64_t)offsetof(arc_simt_block_ctx, dyn_ub) ? 2 : 0);
    a.site = (unsigned)site->getZExtValue();
    return a.bytes > 0 && a.bytes < (1u << 20);
}

} // namespace

bool simt_ub_affine(Function &F, FunctionAnalysisManager &AM)
{
    if (!F.getName().starts_with(kRun) || !F.getName().ends_with(kChecked))
        return false;
    Module &m = *F.getParent();
    std::vector<CallInst *> slow;
    for (Instruction &I : instructions(F))
        if (auto *c = dyn_cast<CallInst>(&I);
            c && c->getCalledFunction() && c->getCalledFunction()->getName() == "__arc_simt_ub_race")
            slow.push_back(c);
    if (slow.empty() || slow.size() > ARC_SIMT_MAX_AFF)
        return false;
    auto &LI = AM.getResult<LoopAnalysis>(F);
    auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
    auto &DT = AM.getResult<DominatorTreeAnalysis>(F);
    BasicBlock *entry = &F.getEntryBlock();
    Instruction *at = entry->getTerminator();
    SCEVExpander ex(SE, m.getDataLayout(), "arc.aff");
    std::vector<Aff> acc(slow.size());
    for (size_t i = 0; i < slow.size(); i++)
        if (!affine_access(slow[i], LI, SE, at, ex, acc[i]))
            return false;
    // in the order a thread makes them (each is on its every way: one
    // comes first on all), as its checked run would stamp them
    std::stable_sort(acc.begin(), acc.end(), [&](const Aff &a, const Aff &b) {
        return DT.properlyDominates(a.slow->getParent()->getSinglePredecessor(),
                                    b.slow->getParent()->getSinglePredecessor());
    });

    LLVMContext &C = F.getContext();
    Type *i32 = Type::getInt32Ty(C), *i64 = Type::getInt64Ty(C), *ptr = PointerType::get(C, 0);
    StructType *affT = StructType::get(C, {i64, i64, i64, i64, i32, i32, i32, i32});
    auto *arrT = ArrayType::get(affT, acc.size());
    AllocaInst *arr = IRBuilder<>(&*entry->getFirstInsertionPt()).CreateAlloca(arrT, nullptr, "arc.aff");
    IRBuilder<> b(at);
    for (size_t i = 0; i < acc.size(); i++) {
        Value *e = b.CreateConstInBoundsGEP2_64(arrT, arr, 0, i);
        const SCEV *v[4] = {acc[i].off, acc[i].step[0], acc[i].step[1], acc[i].step[2]};
        for (unsigned k = 0; k < 4; k++)
            b.CreateStore(ex.expandCodeFor(v[k], i64, at), b.CreateStructGEP(affT, e, k));
        unsigned w[4] = {(unsigned)acc[i].bytes, acc[i].flags, acc[i].site, 0};
        for (unsigned k = 0; k < 4; k++)
            b.CreateStore(b.getInt32(w[k]), b.CreateStructGEP(affT, e, 4 + k));
    }
    Value *fresh = b.CreateICmpNE(
        b.CreateLoad(i32, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), F.getArg(0), offsetof(arc_simt_block_ctx, ub_fresh))),
        b.getInt32(0));
    // entry: fresh ? test : the checked run; test: proven ? back to the
    // driver, which runs the unchecked twin : the checked run
    BasicBlock *checked = entry->splitBasicBlock(at, "arc.aff.checked");
    BasicBlock *test = BasicBlock::Create(C, "arc.aff.test", &F, checked);
    BasicBlock *fast = BasicBlock::Create(C, "arc.aff.fast", &F, checked);
    entry->getTerminator()->eraseFromParent();
    IRBuilder<>(entry).CreateCondBr(fresh, test, checked);
    IRBuilder<> tb(test);
    if (DISubprogram *sp = F.getSubprogram()) // a call in a function with a location needs one
        tb.SetCurrentDebugLocation(DILocation::get(C, 0, 0, sp));
    FunctionCallee affine = m.getOrInsertFunction("__arc_simt_ub_affine", FunctionType::get(i32, {ptr, ptr, i32}, false));
    Value *ok = tb.CreateCall(affine, {F.getArg(0), arr, tb.getInt32((unsigned)acc.size())});
    tb.CreateCondBr(tb.CreateICmpNE(ok, tb.getInt32(0)), fast, checked);
    IRBuilder<>(fast).CreateRet(ConstantInt::get(i32, ARC_SIMT_RUN_UNCHECKED));
    return true;
}

bool simt_ub_watched(const Function &F)
{
    StringRef n = F.getName();
    if (!n.starts_with(kRun))
        return false;
    if (n.ends_with(kChecked))
        return true;
    StringRef rest = n.drop_front(strlen(kRun)); // <kernel id>_<point>
    size_t us = rest.rfind('_');
    return us != StringRef::npos && F.getParent()->getFunction(("__arc_entry_" + rest.take_front(us)).str());
}

} // namespace simt_detail
} // namespace arc_rtc
