// simt_gmcheck.cpp - GM bounds checks of a SIMT thread's own accesses (see
// simt_gmcheck.h).
//
// A thread's `out[i] = v` through a pointer parameter is plain C++: with a
// huge i it lands in whatever the host has mapped there, unseen.  The
// address's provenance is known in the thread function (every parameter is
// a load of the packed arguments), so each access is checked against the
// allocation its parameter points into, which the runtime puts in the
// block's context per launch.  The check is a compare and a branch to a
// cold call that does not return; in the thread loop the branch would stop
// the vectoriser, so simt_gm_hoist gives the loop a copy without it (with
// SimtGuard's unswitching) wherever the address is affine in the loop:
// then the whole range is checked once before the loop.
#include "simt_gmcheck.h"

#include "param_bounds.h"
#include "simt_round.h"
#include "sites.h"

#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <cstddef>

#include "../device/arc/simt_abi.h"

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {
namespace {

const char *const kOob = "__arc_simt_gm_oob";

// gm[k]'s lo and span, loaded from the block's context.
std::pair<Value *, Value *> bounds(IRBuilder<> &b, Value *ctx, unsigned k)
{
    Type *i64 = b.getInt64Ty();
    size_t at = offsetof(arc_simt_block_ctx, gm) + 16 * (size_t)k;
    return {b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, at)),
            b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, at + 8))};
}

} // namespace

unsigned simt_gm_instrument(Function &f, IRBuilder<> &eb, Value *ctx, Value *args, const GlobalVariable *kdesc,
                            Value *x, Value *y, Value *z, const char *device_root, const char *const *strip,
                            int nstrip)
{
    std::vector<long long> offs = pointer_offsets(kdesc);
    if (std::none_of(offs.begin(), offs.end(), [](long long o) { return o >= 0; }))
        return 0;
    Module &m = *f.getParent();
    LLVMContext &C = m.getContext();
    BasicBlock *entry = eb.GetInsertBlock();
    std::vector<ParamAccess> acc =
        param_accesses(f, args, nullptr, offs, [&](const Instruction &I) { return I.getParent() == entry; });
    if (acc.empty())
        return 0;
    Type *ptr = PointerType::get(C, 0), *i32 = Type::getInt32Ty(C), *i64 = Type::getInt64Ty(C);
    FunctionCallee oob =
        oob_reporter(m, kOob, FunctionType::get(Type::getVoidTy(C), {ptr, ptr, i64, i32, ptr, i32, i32, i32}, false));
    std::map<unsigned, std::pair<Value *, Value *>> bnd; // per parameter, in the entry
    std::map<std::string, Constant *> sites;
    for (ParamAccess &a : acc) {
        auto it = bnd.find(a.param);
        if (it == bnd.end())
            it = bnd.emplace(a.param, bounds(eb, ctx, a.param)).first;
        guard_access(m, a, it->second.first, it->second.second, oob, {ctx}, {x, y, z}, device_root, strip, nstrip,
                     sites);
    }
    return (unsigned)acc.size();
}

void simt_gm_hoist(Function &F, LoopInfo &LI, ScalarEvolution &SE, std::vector<SimtHoisted> &out)
{
    const DataLayout &DL = F.getParent()->getDataLayout();
    for (BasicBlock &bb : F) {
        auto *br = dyn_cast<BranchInst>(bb.getTerminator());
        Loop *L = LI.getLoopFor(&bb);
        if (!br || !br->isConditional() || !L || !L->getLoopPreheader())
            continue;
        CallInst *ci = nullptr;
        unsigned taken = 0;
        for (unsigned s = 0; s < 2 && !ci; s++)
            for (Instruction &in : *br->getSuccessor(s))
                if (auto *c = dyn_cast<CallInst>(&in); c && c->getCalledFunction() &&
                                                       c->getCalledFunction()->getName() == kOob) {
                    ci = c;
                    taken = 1 - s;
                    break;
                }
        if (!ci || L->contains(ci->getParent()))
            continue;
        // The address on every iteration: affine in L, with no wrap, so
        // between its values at the first and the last -- or, in a lockstep
        // round's copy (simt_round.h), affine if its 32-bit index (start +
        // k * stride) does not wrap in L, which is then tested too (on
        // every loop, it split the transpose's stages too: 2-3x their IR,
        // 7% slower).
        Value *p = ci->getArgOperand(1);
        auto *ar = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(p));
        auto *bytes = dyn_cast<ConstantInt>(ci->getArgOperand(2));
        auto *code = dyn_cast<ConstantInt>(ci->getArgOperand(3));
        PredicatedScalarEvolution PSE(SE, *L);
        if ((!ar || !(ar->hasNoUnsignedWrap() || ar->hasNoSignedWrap() || ar->hasNoSelfWrap())) &&
            findOptionMDForLoop(L, kRoundLoop))
            ar = PSE.getAsAddRec(p);
        if (!ar || ar->getLoop() != L || !ar->isAffine() || !bytes || !code)
            continue;
        // the iterations up to the latch's exit (a GM check's exit to its
        // report leaves earlier, and only then)
        const SCEV *btc = L->getLoopLatch() ? SE.getExitCount(L, L->getLoopLatch()) : SE.getCouldNotCompute();
        if (isa<SCEVCouldNotCompute>(btc))
            continue;
        const SCEV *last = ar->evaluateAtIteration(btc, SE);
        Instruction *at = L->getLoopPreheader()->getTerminator();
        Value *ctx = ci->getArgOperand(0);
        auto *ctxi = dyn_cast<Instruction>(ctx);
        SCEVExpander ex(SE, DL, "arc.gm");
        if ((ctxi && !L->isLoopInvariant(ctxi)) || !ex.isSafeToExpandAt(ar->getStart(), at) ||
            !ex.isSafeToExpandAt(last, at))
            continue;
        Type *pt = ci->getArgOperand(1)->getType();
        Value *first = ex.expandCodeFor(ar->getStart(), pt, at), *lastv = ex.expandCodeFor(last, pt, at);
        IRBuilder<> b(at);
        b.SetCurrentDebugLocation(DebugLoc()); // not the user's memory (raw_access.cpp)
        auto [lo, span] = bounds(b, ctx, (unsigned)code->getZExtValue() & 0xff);
        uint64_t n = bytes->getZExtValue();
        Value *all = b.CreateAnd(gm_inside(b, first, n, lo, span), gm_inside(b, lastv, n, lo, span), "arc.gm.all");
        if (!PSE.getPredicate().isAlwaysTrue()) // the expansion is true where the index wraps
            all = b.CreateAnd(all, b.CreateNot(ex.expandCodeForPredicate(&PSE.getPredicate(), at)));
        out.push_back({br, L, all, taken});
    }
}

} // namespace simt_detail
} // namespace arc_rtc
