// raw_access.cpp - race-check instrumentation of the kernel's own pointer
// accesses (see raw_access.h).  The device API reports each access it
// makes (arc/race.h); a load through `(float *)t.GetPhyAddr()` or a
// `__gm__` pointer is the user's C++, which only the compiler sees.  Runs
// after the optimiser, so only the accesses that survived it (a vector
// load of a vectorised loop is one access) are instrumented, and the check
// costs one branch on a value computed at the function's entry when off.
#include "raw_access.h"

#include "simt_pass.h"
#include "../device/arc/core_abi.h"
#include "sites.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace arc_rtc {
namespace {
struct Access {
    llvm::Value *ptr;   // a vector of pointers when gather
    llvm::Value *bytes; // i64 (one lane's when gather)
    int write;
    llvm::Value *mask = nullptr; // a masked or gathered access's <lanes x i1>
    unsigned lanes = 1;
    bool gather = false;
};

// Whether the instruction is the user's own code: a line of a file outside
// the device headers (line 0 marks code the optimiser moved or merged,
// whose origin is unknown: left alone, as is code without a location).
bool users_code(const llvm::Instruction &in, llvm::StringRef device_root)
{
    const llvm::DILocation *loc = in.getDebugLoc().get();
    if (!loc || loc->getLine() == 0)
        return false;
    llvm::StringRef file = loc->getFilename();
    return !file.empty() && !file.starts_with(device_root);
}

// Whether p may point into UB or GM: not a local variable, a global or the
// core's own state (__arc_core(): the device API's macros expand in user
// code), nor a SIMT block's shared UB where simt_ubcheck.cpp checks it.
bool may_be_device_memory(const llvm::Value *p)
{
    const llvm::Value *o = llvm::getUnderlyingObject(p, 0);
    if (llvm::isa<llvm::AllocaInst>(o) || llvm::isa<llvm::GlobalValue>(o))
        return false;
    if (auto *a = llvm::dyn_cast<llvm::Argument>(o); a && a->hasByValAttr())
        return false;
    if (auto *c = llvm::dyn_cast<llvm::CallBase>(o))
        if (const llvm::Function *f = c->getCalledFunction(); f && f->getName() == "__arc_core")
            return false;
    return !simt_thread_state(o) && !simt_checked_ub(o);
}

// The accesses one instruction makes that are to be reported.
void accesses_of(llvm::Instruction &in, const llvm::DataLayout &dl, std::vector<Access> &out)
{
    llvm::LLVMContext &ctx = in.getContext();
    llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
    auto size_of = [&](llvm::Type *t) -> llvm::Value * {
        llvm::TypeSize s = dl.getTypeStoreSize(t);
        return s.isScalable() ? nullptr : llvm::ConstantInt::get(i64, s.getFixedValue());
    };
    auto add = [&](llvm::Value *p, llvm::Value *n, int write) {
        if (n && may_be_device_memory(p))
            out.push_back({p, n, write});
    };
    // A volatile access is flagged (bit 1): how a kernel waits for or signals
    // another block through GM (rt/analysis/race_raw.c).
    if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&in)) {
        add(l->getPointerOperand(), size_of(l->getType()), l->isVolatile() ? 2 : 0);
    } else if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&in)) {
        add(s->getPointerOperand(), size_of(s->getValueOperand()->getType()), s->isVolatile() ? 3 : 1);
    } else if (auto *mt = llvm::dyn_cast<llvm::MemTransferInst>(&in)) {
        add(mt->getRawSource(), mt->getLength(), 0);
        add(mt->getRawDest(), mt->getLength(), 1);
    } else if (auto *ms = llvm::dyn_cast<llvm::MemSetInst>(&in)) {
        add(ms->getRawDest(), ms->getLength(), 1);
    } else if (auto *ii = llvm::dyn_cast<llvm::IntrinsicInst>(&in)) {
        // What the loop vectoriser makes of a conditional access (a thread
        // loop's `if (i < n)`) or of a strided one.
        llvm::Intrinsic::ID id = ii->getIntrinsicID();
        bool load = id == llvm::Intrinsic::masked_load || id == llvm::Intrinsic::masked_gather;
        bool store = id == llvm::Intrinsic::masked_store || id == llvm::Intrinsic::masked_scatter;
        if (!load && !store)
            return;
        auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(load ? ii->getType() : ii->getArgOperand(0)->getType());
        if (!vt || vt->getNumElements() > 64)
            return;
        Access a{ii->getArgOperand(load ? 0 : 1), nullptr, store ? 1 : 0};
        a.mask = ii->getArgOperand(load ? 2 : 3);
        a.lanes = vt->getNumElements();
        a.gather = id == llvm::Intrinsic::masked_gather || id == llvm::Intrinsic::masked_scatter;
        a.bytes = size_of(a.gather ? vt->getElementType() : vt);
        if (a.gather || may_be_device_memory(a.ptr))
            out.push_back(a);
    }
}

bool masked_access(const llvm::IntrinsicInst *ii)
{
    switch (ii->getIntrinsicID()) {
    case llvm::Intrinsic::masked_load: case llvm::Intrinsic::masked_store:
    case llvm::Intrinsic::masked_gather: case llvm::Intrinsic::masked_scatter:
        return true;
    default:
        return false;
    }
}

// A call the race check must not see reordered around a report: anything
// but the intrinsics that neither sync nor touch memory the user named.
bool orders(const llvm::Instruction &in)
{
    auto *c = llvm::dyn_cast<llvm::CallBase>(&in);
    if (!c)
        return false;
    if (auto *ii = llvm::dyn_cast<llvm::IntrinsicInst>(c))
        return !llvm::isa<llvm::MemIntrinsic>(ii) && !masked_access(ii) && !ii->isAssumeLikeIntrinsic() &&
               !llvm::isa<llvm::DbgInfoIntrinsic>(ii) && ii->mayHaveSideEffects(); // math syncs nothing
    return true;
}
struct Cand {
    llvm::Instruction *in;
    Access a;
    const llvm::DILocation *loc;
    llvm::BasicBlock *preheader; // reported there, for the whole loop (a.ptr, a.bytes: the range)
    bool dropped;                // inside another access's loop range
    bool stream = false;         // kept in an arc_raw_stream (rt/race_stream.c)
};

struct Run {
    llvm::Instruction *before; // the reports go just before it
    std::vector<const Cand *> acc;
};

// A loop's contiguous accesses (the vector loop a loop over a tile or a GM
// slice becomes) are reported once, as the whole range, before the loop:
// accesses made on every iteration (their block dominates the latch, the
// only exit) in a loop with a known trip count and no call (no sync can
// fall between its iterations, so reporting early changes nothing the
// checks see), whose addresses advance by a constant step that they cover
// together without a gap (one access of its own size, or the unrolled
// copies of an interleaved vector loop).  Any other access is reported
// where it is made.
void hoist_loop_accesses(llvm::Function &f, std::vector<Cand> &cands)
{
    llvm::DominatorTree dt(f);
    llvm::LoopInfo li(dt);
    if (li.empty())
        return;
    llvm::TargetLibraryInfoImpl tlii(llvm::Triple(f.getParent()->getTargetTriple()));
    llvm::TargetLibraryInfo tli(tlii);
    llvm::AssumptionCache ac(f);
    llvm::ScalarEvolution se(f, tli, ac, dt, li);
    const llvm::DataLayout &dl = f.getParent()->getDataLayout();
    llvm::Type *i64 = llvm::Type::getInt64Ty(f.getContext());
    std::map<const llvm::Loop *, bool> plain; // no call in the loop
    auto is_plain = [&](const llvm::Loop *l) {
        auto [it, fresh] = plain.emplace(l, true);
        if (fresh)
            for (const llvm::BasicBlock *bb : l->blocks())
                for (const llvm::Instruction &in : *bb)
                    if (orders(in))
                        it->second = false;
        return it->second;
    };
    struct Strided {
        Cand *c;
        llvm::Loop *l;
        const llvm::SCEV *start;
        int64_t step, size;
    };
    std::vector<Strided> st;
    for (Cand &c : cands) {
        auto *size = llvm::dyn_cast<llvm::ConstantInt>(c.a.bytes);
        llvm::Loop *l = li.getLoopFor(c.in->getParent());
        if (!size || !l || llvm::isa<llvm::MemIntrinsic>(c.in) || c.a.mask)
            continue;
        llvm::BasicBlock *ph = l->getLoopPreheader(), *latch = l->getLoopLatch();
        if (!ph && latch && l->getExitingBlock() == latch && dt.dominates(c.in->getParent(), latch) && is_plain(l))
            ph = llvm::InsertPreheaderForLoop(l, &dt, &li, nullptr, false); // a vector loop entered from its checks
        if (!ph || !latch || l->getExitingBlock() != latch || !dt.dominates(c.in->getParent(), latch) ||
            !is_plain(l) || llvm::isa<llvm::SCEVCouldNotCompute>(se.getBackedgeTakenCount(l)))
            continue;
        auto *ar = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(c.a.ptr));
        if (!ar || ar->getLoop() != l || !ar->isAffine())
            continue;
        auto *step = llvm::dyn_cast<llvm::SCEVConstant>(ar->getStepRecurrence(se));
        int64_t n = (int64_t)size->getZExtValue();
        if (!step || step->getAPInt().getSignificantBits() > 32 || n <= 0)
            continue;
        int64_t sv = step->getAPInt().getSExtValue();
        if (sv >= n || -sv >= n)
            st.push_back({&c, l, ar->getStart(), sv, n});
    }
    std::vector<bool> done(st.size());
    for (size_t i = 0; i < st.size(); i++) {
        if (done[i])
            continue;
        // The accesses of i's loop, step and kind at constant offsets from it.
        std::vector<std::pair<int64_t, size_t>> group{{0, i}};
        for (size_t k = i + 1; k < st.size(); k++) {
            if (done[k] || st[k].l != st[i].l || st[k].step != st[i].step || st[k].c->a.write != st[i].c->a.write)
                continue;
            auto *d = llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(st[k].start, st[i].start));
            if (d && d->getAPInt().getSignificantBits() <= 32)
                group.push_back({d->getAPInt().getSExtValue(), k});
        }
        std::sort(group.begin(), group.end());
        int64_t span = st[i].step < 0 ? -st[i].step : st[i].step, end = group[0].first;
        for (auto &[off, k] : group)
            if (off <= end)
                end = std::max(end, off + st[k].size);
        if (end - group[0].first < span) // a gap: strided, not contiguous
            continue;
        const Strided &first = st[group[0].second];
        llvm::Loop *l = first.l;
        const llvm::SCEV *btc = se.getTruncateOrZeroExtend(se.getBackedgeTakenCount(l), i64);
        const llvm::SCEV *bytes = se.getMulExpr(se.getAddExpr(btc, se.getOne(i64)), se.getConstant(i64, span));
        const llvm::SCEV *lo = first.start;
        if (first.step < 0) // the last iteration's addresses
            lo = se.getAddExpr(lo, se.getMulExpr(btc, se.getConstant(i64, first.step)));
        llvm::Instruction *at = l->getLoopPreheader()->getTerminator();
        llvm::SCEVExpander ex(se, dl, "arc.raw");
        if (!ex.isSafeToExpandAt(lo, at) || !ex.isSafeToExpandAt(bytes, at))
            continue;
        Cand &c = *first.c;
        c.a.ptr = ex.expandCodeFor(lo, c.a.ptr->getType(), at);
        c.a.bytes = ex.expandCodeFor(bytes, i64, at);
        c.preheader = l->getLoopPreheader();
        for (auto &[off, k] : group) {
            done[k] = true;
            if (st[k].c != &c)
                st[k].c->dropped = true;
        }
    }
}
// The stream accesses of f (Cand::stream): each keeps an arc_raw_stream in
// f's frame, zeroed at its entry; after the access, when the check is on,
// the compiled code continues the run itself (one load, a compare, and on
// a match a load and a store) and calls the runtime otherwise; before each
// call that may order accesses and each return, one call reports them all.
unsigned instrument_streams(llvm::Function &f, std::vector<Cand *> &st, llvm::Value *on, const char *device_root,
                            const char *const *strip, int nstrip, std::map<std::string, llvm::Constant *> &strings)
{
    llvm::Module &m = *f.getParent();
    llvm::LLVMContext &ctx = m.getContext();
    llvm::Type *ptr = llvm::PointerType::getUnqual(ctx), *i64 = llvm::Type::getInt64Ty(ctx);
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx), *vd = llvm::Type::getVoidTy(ctx);
    llvm::FunctionCallee one = m.getOrInsertFunction("__arc_race_stream", llvm::FunctionType::get(vd, {ptr, ptr, ptr}, false));
    llvm::FunctionCallee masked = m.getOrInsertFunction("__arc_race_stream_masked",
                                                        llvm::FunctionType::get(vd, {ptr, ptr, i64, ptr}, false));
    llvm::FunctionCallee gather = m.getOrInsertFunction("__arc_race_stream_gather",
                                                        llvm::FunctionType::get(vd, {ptr, ptr, i64, ptr}, false));
    llvm::FunctionCallee flush = m.getOrInsertFunction("__arc_race_flush",
                                                       llvm::FunctionType::get(vd, {ptr, ptr, i32}, false));
    unsigned n = (unsigned)st.size();
    auto *streamT = llvm::ArrayType::get(i64, sizeof(arc_raw_stream) / 8);
    auto *siteT = llvm::StructType::get(ctx, {i64, i32, i32, ptr});
    static_assert(sizeof(arc_raw_site) == 24 && sizeof(arc_raw_stream) % 8 == 0, "arc_raw_* layout");
    // Where to report (collected before any call is added).
    std::vector<llvm::Instruction *> flush_at;
    const llvm::Value *on_call = llvm::cast<llvm::ICmpInst>(on)->getOperand(0);
    for (llvm::BasicBlock &bb : f)
        for (llvm::Instruction &in : bb)
            if ((orders(in) && &in != on_call) || llvm::isa<llvm::ReturnInst>(in))
                flush_at.push_back(&in);
    llvm::IRBuilder<> eb(llvm::cast<llvm::Instruction>(on)->getNextNode());
    auto *arr = eb.CreateAlloca(llvm::ArrayType::get(streamT, n), nullptr, "arc.streams");
    arr->setAlignment(llvm::Align(8));
    eb.CreateMemSet(arr, eb.getInt8(0), (uint64_t)n * sizeof(arc_raw_stream), llvm::MaybeAlign(8));
    std::vector<llvm::Constant *> sites;
    for (Cand *c : st) {
        std::string text = user_line(c->loc, device_root, strip, nstrip);
        llvm::Constant *&sv = strings[text];
        if (!sv)
            sv = eb.CreateGlobalStringPtr(text, "__arc_raw_site");
        sites.push_back(llvm::ConstantStruct::get(siteT, {c->a.bytes && llvm::isa<llvm::ConstantInt>(c->a.bytes)
                                                              ? llvm::cast<llvm::Constant>(c->a.bytes)
                                                              : llvm::ConstantInt::get(i64, 0),
                                                          llvm::ConstantInt::get(i32, c->a.write & 1),
                                                          llvm::ConstantInt::get(i32, c->a.lanes), sv}));
    }
    auto *descT = llvm::ArrayType::get(siteT, n);
    auto *desc = new llvm::GlobalVariable(m, descT, true, llvm::GlobalValue::PrivateLinkage,
                                          llvm::ConstantArray::get(descT, sites), "__arc_raw_streams");
    for (llvm::Instruction *at : flush_at) {
        llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(on, at, false);
        llvm::IRBuilder<> b(then);
        b.CreateCall(flush, {arr, desc, b.getInt32(n)})->setDebugLoc(at->getDebugLoc());
    }
    for (unsigned k = 0; k < n; k++) {
        const Access &a = st[k]->a;
        llvm::DebugLoc loc(st[k]->loc);
        llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(on, st[k]->in->getNextNode(), false);
        llvm::IRBuilder<> b(then);
        b.SetCurrentDebugLocation(loc);
        llvm::Value *s = b.CreateConstInBoundsGEP2_64(arr->getAllocatedType(), arr, 0, k);
        llvm::Value *d = b.CreateConstInBoundsGEP2_64(descT, desc, 0, k);
        llvm::Value *bits = nullptr;
        if (a.mask)
            bits = b.CreateBitCast(a.mask, llvm::IntegerType::get(ctx, a.lanes));
        if (a.gather) {
            llvm::IRBuilder<> ab(arr);
            auto *spill = ab.CreateAlloca(a.ptr->getType());
            b.CreateStore(a.ptr, spill);
            b.CreateCall(gather, {s, spill, b.CreateZExt(bits, i64), d});
            continue;
        }
        if (bits) { // a partial mask is the runtime's
            llvm::Instruction *full, *part;
            llvm::SplitBlockAndInsertIfThenElse(b.CreateICmpEQ(bits, llvm::ConstantInt::getAllOnesValue(bits->getType())),
                                                then->getIterator(), &full, &part);
            llvm::IRBuilder<> pb(part);
            pb.SetCurrentDebugLocation(loc);
            pb.CreateCall(masked, {s, a.ptr, pb.CreateZExt(bits, i64), d});
            b.SetInsertPoint(full);
        }
        llvm::Value *p = b.CreatePtrToInt(a.ptr, i64);
        llvm::Instruction *cont, *other;
        llvm::SplitBlockAndInsertIfThenElse(b.CreateICmpEQ(p, b.CreateLoad(i64, s)),
                                            b.GetInsertPoint(), &cont, &other);
        llvm::IRBuilder<> cb(cont);
        cb.SetCurrentDebugLocation(loc);
        cb.CreateStore(cb.CreateAdd(p, cb.CreateLoad(i64, cb.CreateConstInBoundsGEP1_64(i64, s, 1))), s);
        llvm::IRBuilder<> ob(other);
        ob.SetCurrentDebugLocation(loc);
        ob.CreateCall(one, {s, a.ptr, d});
    }
    return n;
}
} // namespace

unsigned instrument_raw_accesses(llvm::Module &m, const char *device_root, const char *const *strip, int nstrip)
{
    llvm::LLVMContext &ctx = m.getContext();
    const llvm::DataLayout &dl = m.getDataLayout();
    llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
    llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
    llvm::FunctionCallee on_fn = m.getOrInsertFunction("__arc_race_raw_on", llvm::FunctionType::get(i32, {}, false));
    llvm::FunctionCallee raw_fn = m.getOrInsertFunction(
        "__arc_race_raw", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, i64, i32, ptr}, false));
    std::map<std::string, llvm::Constant *> strings;
    unsigned count = 0;
    for (llvm::Function &f : m) {
        if (f.isDeclaration())
            continue;
        std::vector<Cand> cands;
        for (llvm::BasicBlock &bb : f)
            for (llvm::Instruction &in : bb) {
                if (!users_code(in, device_root))
                    continue;
                std::vector<Access> acc;
                accesses_of(in, dl, acc);
                for (const Access &a : acc)
                    cands.push_back({&in, a, in.getDebugLoc().get(), nullptr, false});
            }
        if (cands.empty())
            continue;
        hoist_loop_accesses(f, cands);
        // The rest in a loop, and every masked or gathered access, are
        // streams: a run per instruction, reported a few ranges per loop.
        std::vector<Cand *> streams;
        {
            llvm::DominatorTree dt(f);
            llvm::LoopInfo li(dt);
            for (Cand &c : cands)
                if (!c.dropped && !c.preheader && !(c.a.write & 2) &&
                    (c.a.mask || (li.getLoopFor(c.in->getParent()) && llvm::isa<llvm::ConstantInt>(c.a.bytes)))) {
                    c.stream = true;
                    streams.push_back(&c);
                }
        }
        // Runs of the other accesses in one block with no call between them:
        // one branch reports the whole run, after its last access.  A loop's
        // hoisted accesses are one run before its preheader's branch.
        std::vector<Run> runs;
        std::map<llvm::BasicBlock *, size_t> at_preheader;
        std::map<llvm::Instruction *, std::vector<const Cand *>> by_inst;
        for (const Cand &c : cands) {
            if (c.dropped || c.stream)
                continue;
            if (!c.preheader) {
                by_inst[c.in].push_back(&c);
                continue;
            }
            auto [it, fresh] = at_preheader.emplace(c.preheader, runs.size());
            if (fresh)
                runs.push_back(Run{c.preheader->getTerminator(), {}});
            runs[it->second].acc.push_back(&c);
        }
        for (llvm::BasicBlock &bb : f) {
            Run cur{nullptr, {}};
            for (llvm::Instruction &in : bb) {
                if (orders(in)) {
                    if (!cur.acc.empty())
                        runs.push_back(std::move(cur));
                    cur = Run{nullptr, {}};
                    continue;
                }
                auto it = by_inst.find(&in);
                if (it == by_inst.end())
                    continue;
                cur.acc.insert(cur.acc.end(), it->second.begin(), it->second.end());
                cur.before = in.getNextNode();
            }
            if (!cur.acc.empty())
                runs.push_back(std::move(cur));
        }
        if (runs.empty() && streams.empty())
            continue;
        llvm::IRBuilder<> entry(&*f.getEntryBlock().getFirstInsertionPt());
        llvm::Value *on = entry.CreateICmpNE(entry.CreateCall(on_fn), llvm::ConstantInt::get(i32, 0), "arc.raw.on");
        if (!streams.empty())
            count += instrument_streams(f, streams, on, device_root, strip, nstrip, strings);
        for (Run &r : runs) {
            llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(on, r.before, false);
            llvm::IRBuilder<> b(then);
            for (const Cand *c : r.acc) {
                std::string text = user_line(c->loc, device_root, strip, nstrip);
                llvm::Constant *&s = strings[text];
                if (!s)
                    s = b.CreateGlobalStringPtr(text, "__arc_raw_site");
                const Access &a = c->a;
                llvm::Value *n = a.bytes->getType() == i64 ? a.bytes : b.CreateZExtOrTrunc(a.bytes, i64);
                llvm::CallInst *call = b.CreateCall(raw_fn, {a.ptr, n, llvm::ConstantInt::get(i32, a.write), s});
                call->setDebugLoc(llvm::DebugLoc(c->loc));
                count++;
            }
        }
    }
    return count;
}
} // namespace arc_rtc
