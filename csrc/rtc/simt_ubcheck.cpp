// simt_ubcheck.cpp - shared-UB race instrumentation of a SIMT thread
// function (see simt_ubcheck.h; the shadow's layout is arc/simt_abi.h's).
//
// Each load or store through a pointer into the block's shared UB gets,
// behind the thread function's `chk` argument, an inline fast path: an
// aligned 4-byte access whose word no other thread touched in this epoch
// (the part between two barriers) only stamps its shadow entry.  Any other
// case -- another thread's entry of this epoch, another size, an address
// outside the UB -- calls the runtime (__arc_simt_ub_race), which decides
// with the byte masks and warp syncs and reports (an access outside the UB
// as out of bounds, naming the thread and the line).  The unchecked run
// functions pass chk = false and keep none of it.
#include "simt_ubcheck.h"

#include "sites.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>
#include <set>

#include "../device/arc/simt_abi.h"

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {
namespace {

// The runtime's side of a check; every checked access may call it.
const char *const kSlow = "__arc_simt_ub_race";

struct UbAccess {
    Instruction *in;
    Value *ptr, *bytes; // bytes: i64
    bool write;
};

// Whether p points into the block's shared UB: each of its underlying
// objects is a UB base (so an address outside the UB is out of bounds).
bool from_ub(const Value *p, const std::set<const Value *> &bases)
{
    SmallVector<const Value *, 4> objs;
    getUnderlyingObjects(p, objs, nullptr, 0);
    for (const Value *o : objs)
        if (!bases.count(o))
            return false;
    return !objs.empty();
}

Value *ctx_field(IRBuilder<> &b, Value *ctx, size_t off, Type *t)
{
    return b.CreateLoad(t, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, off));
}

} // namespace

unsigned simt_ub_instrument(Function &f, IRBuilder<> &eb, Value *ctx, Value *chk, Value *tid,
                            const std::vector<Value *> &bases, std::vector<std::string> &sites,
                            const char *device_root, const char *const *strip, int nstrip)
{
    std::set<const Value *> base_set(bases.begin(), bases.end());
    if (base_set.empty())
        return 0;
    Module &m = *f.getParent();
    LLVMContext &C = m.getContext();
    const DataLayout &DL = m.getDataLayout();
    Type *i8 = Type::getInt8Ty(C), *i32 = Type::getInt32Ty(C), *i64 = Type::getInt64Ty(C);
    PointerType *ptr = PointerType::get(C, 0);
    BasicBlock *entry = eb.GetInsertBlock();

    // Plain accesses only: an atomic or volatile one synchronises (and the
    // kernels that spin on one get no checked runs at all).
    std::vector<UbAccess> acc;
    for (Instruction &I : instructions(f)) {
        if (I.getParent() == entry)
            continue;
        if (auto *l = dyn_cast<LoadInst>(&I); l && l->isSimple() && from_ub(l->getPointerOperand(), base_set))
            acc.push_back({l, l->getPointerOperand(),
                           ConstantInt::get(i64, DL.getTypeStoreSize(l->getType()).getKnownMinValue()), false});
        else if (auto *s = dyn_cast<StoreInst>(&I); s && s->isSimple() && from_ub(s->getPointerOperand(), base_set))
            acc.push_back({s, s->getPointerOperand(),
                           ConstantInt::get(i64, DL.getTypeStoreSize(s->getValueOperand()->getType()).getKnownMinValue()),
                           true});
        else if (auto *mi = dyn_cast<MemIntrinsic>(&I); mi && !mi->isVolatile()) {
            if (auto *mt = dyn_cast<MemTransferInst>(mi); mt && from_ub(mt->getRawSource(), base_set))
                acc.push_back({mt, mt->getRawSource(), nullptr, false});
            if (from_ub(mi->getRawDest(), base_set))
                acc.push_back({mi, mi->getRawDest(), nullptr, true});
        }
    }
    if (acc.empty())
        return 0;

    // Per resume, in the entry: the UB's start, the shadow, and this
    // thread's entry less its site.
    Value *ubase = eb.CreatePtrToInt(ctx_field(eb, ctx, offsetof(arc_simt_block_ctx, ub), ptr), i64);
    Value *shadow = ctx_field(eb, ctx, offsetof(arc_simt_block_ctx, shadow), ptr);
    Value *nbytes = eb.CreateShl(ctx_field(eb, ctx, offsetof(arc_simt_block_ctx, shadow_words), i64), 2);
    Value *epoch = ctx_field(eb, ctx, offsetof(arc_simt_block_ctx, epoch), i64);
    Value *ws = eb.CreateLoad(i8, eb.CreateInBoundsGEP(i8, ctx, eb.CreateAdd(eb.CreateLShr(tid, 5),
                                                                          eb.getInt32(offsetof(arc_simt_block_ctx, wsync)))));
    Value *tid1 = eb.CreateZExt(eb.CreateAdd(tid, eb.getInt32(1)), i64);
    Value *mine = eb.CreateOr(eb.CreateOr(epoch, eb.CreateShl(eb.CreateZExt(ws, i64), ARC_UBSH_WSYNC_SHIFT)),
                              eb.CreateOr(tid1, eb.getInt64(0xfull << ARC_UBSH_MASK_SHIFT)));
    uint64_t emask = ~0ull << ARC_UBSH_EPOCH_SHIFT, tmask = (1ull << ARC_UBSH_MASK_SHIFT) - 1;
    FunctionCallee slow = m.getOrInsertFunction(
        kSlow, FunctionType::get(Type::getVoidTy(C), {ptr, ptr, i64, i32, i32, i32}, false));

    unsigned n = 0;
    for (UbAccess &a : acc) {
        std::string line = user_line(a.in->getDebugLoc().get(), device_root, strip, nstrip);
        unsigned site = 0;
        if (!line.empty() && sites.size() < ARC_UBSH_MAX_SITE) {
            sites.push_back(line);
            site = (unsigned)sites.size();
        }
        Instruction *then = SplitBlockAndInsertIfThen(chk, a.in->getIterator(), false);
        IRBuilder<> b(then); // no location: the shadow is not the user's memory (raw_access.cpp)
        Value *bytes = a.bytes;
        if (!bytes)
            bytes = b.CreateZExtOrTrunc(cast<MemIntrinsic>(a.in)->getLength(), i64);
        auto call_slow = [&](IRBuilder<> &cb) {
            cb.SetCurrentDebugLocation(a.in->getDebugLoc());
            cb.CreateCall(slow, {ctx, a.ptr, bytes, cb.getInt32(a.write), tid, cb.getInt32(site)});
        };
        auto *k = dyn_cast<ConstantInt>(bytes);
        n++;
        if (!k || k->getZExtValue() != 4) { // other sizes: the runtime's
            call_slow(b);
            continue;
        }
        Value *off = b.CreateSub(b.CreatePtrToInt(a.ptr, i64), ubase);
        Value *fit = b.CreateAnd(b.CreateICmpULT(off, nbytes), b.CreateICmpEQ(b.CreateAnd(off, 3), b.getInt64(0)));
        Value *w = b.CreateSelect(fit, b.CreateLShr(off, 2), b.getInt64(0));
        Value *e = b.CreateInBoundsGEP(i64, shadow, b.CreateMul(w, b.getInt64(3)));
        auto cur = [&](Value *x) { return b.CreateICmpEQ(b.CreateAnd(x, emask), epoch); };
        auto me = [&](Value *x) { return b.CreateICmpEQ(b.CreateAnd(x, tmask), tid1); };
        Value *W = b.CreateLoad(i64, e), *R1 = b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, e, 1));
        Value *ok = b.CreateAnd(fit, b.CreateOr(b.CreateNot(cur(W)), me(W)));
        Value *r1free = b.CreateOr(b.CreateNot(cur(R1)), me(R1)), *slot;
        if (a.write) {
            Value *R2 = b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, e, 2));
            ok = b.CreateAnd(ok, b.CreateAnd(r1free, b.CreateNot(cur(R2))));
            slot = e;
        } else { // the first reader's entry, else the last other reader's
            slot = b.CreateInBoundsGEP(i64, e, b.CreateSelect(r1free, b.getInt64(1), b.getInt64(2)));
        }
        Instruction *fast, *other;
        SplitBlockAndInsertIfThenElse(ok, then->getIterator(), &fast, &other);
        IRBuilder<> fb(fast);
        fb.CreateStore(fb.CreateOr(mine, fb.getInt64((uint64_t)site << ARC_UBSH_SITE_SHIFT)), slot);
        IRBuilder<> ob(other);
        call_slow(ob);
    }
    return n;
}

bool simt_ub_checked(const Function &f)
{
    for (const Instruction &I : instructions(f))
        if (auto *c = dyn_cast<CallInst>(&I); c && c->getCalledFunction() && c->getCalledFunction()->getName() == kSlow)
            return true;
    return false;
}

} // namespace simt_detail
} // namespace arc_rtc
