// simt_pass.cpp - SIMT kernels as loops over a block's threads.
//
// The device headers compile a SIMT kernel as one thread's code
// (__arc_simt_thread_<i>, simt_api/device_types.h): builtins are calls of
// __arc_simt_get, asc_syncthreads a call of __arc_simt_sync, each warp
// function a call of __arc_simt_warp, block-shared arrays are annotated.
// Two passes make a block of it (the runtime's driver is rt/cores/simt.c):
//
// Prepare (pipeline start): each static `__ubuf__` array becomes an
// external global __arc_ubuf.<n> (an alloca would be per thread, and an
// internal global could be localised by the optimiser), and every function
// that reaches a SIMT builtin is made always-inline, so the thread function
// holds them all once the inliner has run.
//
// Fission (before the optimiser's loop passes): the thread function
// becomes a continuation function thr(ctx, args, frames, x, y, z, s): each
// barrier or warp function ("point" s) returns s, and the entry switches
// to the code after point s.  Values live across a point (those no longer
// dominated by their definition once the resume blocks hang off the entry)
// are demoted to the stack, and every alloca becomes a slot of the
// thread's frame (simt_frame.h: a slot is an array over the block's
// threads).  run_s(ctx, args) loops z, y, x over the block's threads
// (x innermost: threadIdx.x is the induction variable, so LLVM vectorises
// straight-line regions) and calls thr inlined with s constant, whose
// switch then folds to one region: loop fission between barriers as PoCL
// builds work-group functions, and warp functions collapsed per warp as
// COX does (the driver computes them over the lanes that stopped there).
// A kernel without points is one loop nest with no frame traffic.
#include "simt_pass.h"
#include "annotations.h"

#include "sites.h"

#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/CorrelatedValuePropagation.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <cstddef>
#include <set>
#include <vector>

#include "../device/arc/simt_abi.h"

#include "param_bounds.h"
#include "simt_frame.h"
#include "simt_gmcheck.h"
#include "simt_guard.h"
#include "simt_ubaffine.h"
#include "simt_lockstep.h"
#include "simt_round.h"
#include "simt_prepare.h"
#include "simt_spin.h"
#include "simt_ubcheck.h"
#include "timing.h"

using namespace llvm;

namespace arc_rtc {
using namespace simt_detail;
namespace {

// The launch checks bound every dimension (rt/simt_launch.c): with the
// bounds known, LLVM proves blockIdx.x * blockDim.x + threadIdx.x does not
// wrap, so a thread's index is affine in the thread loop and the loop
// vectorises with consecutive loads and stores.
// The suffix of the checked run functions' names.
const char *const kChecked = "_checked";

void dim_range(LoadInst *l, unsigned which, unsigned max_threads)
{
    uint64_t lo = 1, hi = which >= ARC_SIMT_GDIM ? ARC_SIMT_MAX_BLOCKS + 1ull : max_threads + 1ull;
    if (which < ARC_SIMT_BDIM) {
        lo = 0;
        hi = ARC_SIMT_MAX_BLOCKS;
    }
    Type *t = l->getType();
    l->setMetadata(LLVMContext::MD_range,
                   MDNode::get(l->getContext(), {ConstantAsMetadata::get(ConstantInt::get(t, lo)),
                                                 ConstantAsMetadata::get(ConstantInt::get(t, hi))}));
}

struct Fission : PassInfoMixin<Fission> {
    SimtResult *r;
    const char *root;
    const char *const *strip;
    int nstrip;

    void error(const std::string &msg) { r->errors += "error: " + msg + "\n"; }

    PreservedAnalyses run(Module &m, ModuleAnalysisManager &)
    {
        std::vector<SimtThread> threads = simt_threads(m);
        if (threads.empty())
            return PreservedAnalyses::all();
        std::set<Function *> mine;
        for (const SimtThread &t : threads)
            fission(m, t, mine);
        // A hybrid kernel's VF may wait for its SIMD side: that side's
        // spin loops let a VF that is waiting run (rt/cores/simt.c).
        if (Function *vf = m.getFunction("__arc_simt_vf"); vf && !vf->use_empty()) {
            FunctionCallee poll = m.getOrInsertFunction(kPoll, FunctionType::get(Type::getVoidTy(m.getContext()), false));
            for (Function &f : m)
                if (!mine.count(&f))
                    mark_spin_loops(f, poll);
        }
        // What still reaches a builtin was not inlined into a kernel: a
        // SIMT kernel or helper called from elsewhere, or a recursive one.
        for (Function *f : simt_functions(m)) {
            if (f->isDeclaration() || mine.count(f))
                continue;
            for (Function *g : mine)
                for (Instruction &I : instructions(*g))
                    if (auto *cb = dyn_cast<CallBase>(&I))
                        if (cb->getCalledFunction() == f)
                            error("SIMT function '" + demangled(f) + "' could not be inlined into its kernel "
                                  "(recursion is not supported in SIMT code)");
            f->deleteBody();
            auto *bb = BasicBlock::Create(m.getContext(), "", f);
            IRBuilder<> b(bb);
            b.CreateIntrinsic(Intrinsic::trap, {}, {});
            b.CreateUnreachable();
        }
        return PreservedAnalyses::none();
    }

    static std::string demangled(const Function *f) { return f->getName().str(); }

    // __launch_bounds__(n) of the kernel kfn holds: 0 when none.
    static long long launch_bounds(Module &m, const GlobalVariable *kfn)
    {
        if (!kfn || !kfn->hasInitializer())
            return 0;
        const Value *k = kfn->getInitializer()->stripPointerCasts();
        for (const Annotation &a : annotations(m)) {
            if (a.target != k || a.text != "arc.launch_bounds")
                continue;
            if (auto *cs = dyn_cast_or_null<ConstantStruct>(a.args))
                if (auto *ci = dyn_cast<ConstantInt>(cs->getOperand(0)))
                    return ci->getSExtValue();
            return -1;
        }
        return 0;
    }

    void fission(Module &m, const SimtThread &t, std::set<Function *> &mine);
};

void Fission::fission(Module &m, const SimtThread &t, std::set<Function *> &mine)
{
    Function *F = t.f;
    LLVMContext &C = m.getContext();
    const DataLayout &DL = m.getDataLayout();
    Type *i8 = Type::getInt8Ty(C), *i32 = Type::getInt32Ty(C), *i64 = Type::getInt64Ty(C);
    PointerType *ptr = PointerType::get(C, 0);
    // arc_simt_block_ctx
    StructType *ctxT = StructType::get(C, {ArrayType::get(i32, ARC_SIMT_NGET), i32, i32, ptr, ptr, ptr, ptr, i32});
    const std::string &id = t.id;
    std::string entry_name = t.site ? F->getName().str() : "__arc_entry_" + id;
    SimtKernel &K = r->kernels[entry_name];
    long long lb = launch_bounds(m, t.kfn);
    if (lb < 0 || lb > 2048)
        error("__launch_bounds__ of SIMT kernel " + id + " must be a constant in [1, 2048]");
    K.max_threads = lb > 0 ? (unsigned)lb : 1024;

    // thr(ctx, args, frames, x, y, z, s, chk) -> next point, or -1 when the
    // thread returned; chk: check the shared UB for races (simt_ubcheck.cpp);
    // frames: the block's thread frames (simt_frame.h)
    auto *thrT = FunctionType::get(i32, {ptr, ptr, ptr, i32, i32, i32, i32, Type::getInt1Ty(C)}, false);
    Function *nf = Function::Create(thrT, GlobalValue::InternalLinkage, "__arc_simt_thr_" + id, m);
    AttributeSet fa = F->getAttributes().getFnAttrs();
    nf->setAttributes(AttributeList::get(C, AttributeList::FunctionIndex, AttrBuilder(C, fa)));
    nf->removeFnAttr(Attribute::OptimizeNone);
    nf->removeFnAttr(Attribute::NoInline);
    nf->splice(nf->end(), F);
    F->getArg(0)->replaceAllUsesWith(nf->getArg(1));
    nf->setSubprogram(F->getSubprogram());
    F->setSubprogram(nullptr);
    if (!t.site) {
        IRBuilder<> b(BasicBlock::Create(C, "", F));
        b.CreateRetVoid();
    }
    Value *ctxp = nf->getArg(0), *frames = nf->getArg(2);
    for (BasicBlock &bb : *nf)
        if (auto *ret = dyn_cast<ReturnInst>(bb.getTerminator())) {
            ReturnInst::Create(C, ConstantInt::get(i32, -1), ret->getIterator());
            ret->eraseFromParent();
        }
    // Spin loops yield: the threads they wait for run meanwhile.
    std::set<const BasicBlock *> spin_headers;
    mark_spin_loops(*nf, m.getOrInsertFunction(kYield, FunctionType::get(Type::getVoidTy(C), false)), true,
                    &spin_headers);
    // Grid-stride loops run in lockstep over the block's threads.
    mark_lockstep_loops(*nf, m.getOrInsertFunction(kLockstep, FunctionType::get(Type::getVoidTy(C), false)));
    std::vector<CallInst *> gets, points;
    for (Instruction &I : instructions(*nf))
        if (auto *ci = dyn_cast<CallInst>(&I))
            if (Function *cf = ci->getCalledFunction()) {
                if (cf->getName() == kGet)
                    gets.push_back(ci);
                else if (cf->getName() == kSync || cf->getName() == kWarp || cf->getName() == kYield ||
                         cf->getName() == kLockstep)
                    points.push_back(ci);
            }
    // Which points hold a warp's lanes back at a spin loop's yields.
    std::vector<unsigned long long> behind = spin_behind(*nf, points, spin_headers);
    BasicBlock *orig = &nf->front();
    BasicBlock *E = BasicBlock::Create(C, "simt.entry", nf, orig);
    IRBuilder<> eb(E);

    // Builtins: threadIdx from the loop, the rest from the block's context.
    for (CallInst *ci : gets) {
        auto *k = dyn_cast<ConstantInt>(ci->getArgOperand(0));
        Value *v;
        if (!k || k->getZExtValue() >= ARC_SIMT_NGET) {
            error("internal: __arc_simt_get with a non-constant index");
            v = ConstantInt::get(i32, 0);
        } else if (k->getZExtValue() < 3) {
            v = nf->getArg(3 + (unsigned)k->getZExtValue());
        } else {
            unsigned w = (unsigned)k->getZExtValue();
            LoadInst *l = eb.CreateLoad(i32, eb.CreateInBoundsGEP(ctxT, ctxp, {eb.getInt32(0), eb.getInt32(0),
                                                                               eb.getInt32(w)}));
            dim_range(l, w, K.max_threads);
            v = l;
        }
        ci->replaceAllUsesWith(v);
        ci->eraseFromParent();
    }

    // Block-shared UB: static arrays from offset 0, then the dynamic part.
    std::vector<GlobalVariable *> stat, dyn;
    for (GlobalVariable &g : m.globals()) {
        bool used = false;
        for (User *u : g.users()) {
            if (auto *I = dyn_cast<Instruction>(u))
                used |= I->getFunction() == nf;
            else if (isa<ConstantExpr>(u))
                used = true; /* converted below, then checked */
        }
        // clang drops the visibility of `extern __ubuf__ T d[]` declared in
        // a template's instance: there, an undefined `T d[]` is taken for
        // the dynamic UB too (the device side has nothing else it could be)
        auto *at = dyn_cast<ArrayType>(g.getValueType());
        bool unsized = g.isDeclaration() && at && at->getNumElements() == 0 && !g.getName().starts_with("__arc");
        if (used && is_ubuf_static(&g))
            stat.push_back(&g);
        else if (used && (is_ubuf_dynamic(&g) || unsized))
            dyn.push_back(&g);
    }
    Value *ub = nullptr, *dub = nullptr;
    uint64_t off = 0;
    for (GlobalVariable *g : stat) {
        convertUsersOfConstantsToInstructions({g}, nf);
        bool here = false;
        for (User *u : g->users())
            here |= isa<Instruction>(u) && cast<Instruction>(u)->getFunction() == nf;
        if (!here)
            continue;
        if (!ub)
            ub = eb.CreateLoad(ptr, eb.CreateStructGEP(ctxT, ctxp, 3), "ub");
        off = alignTo(off, g->getAlign().valueOrOne().value());
        Value *p = eb.CreateConstInBoundsGEP1_64(i8, ub, off);
        off += DL.getTypeAllocSize(g->getValueType());
        g->replaceUsesWithIf(p, [&](Use &u) {
            auto *I = dyn_cast<Instruction>(u.getUser());
            return I && I->getFunction() == nf;
        });
    }
    K.static_ub = (unsigned)alignTo(off, 32);
    if (off > 256 * 1024)
        error("SIMT kernel " + id + ": its static __ubuf__ arrays take " + std::to_string(off) +
              " bytes, more than the 256 KiB UB");
    for (GlobalVariable *g : dyn) {
        convertUsersOfConstantsToInstructions({g}, nf);
        if (!dub)
            dub = eb.CreateLoad(ptr, eb.CreateStructGEP(ctxT, ctxp, 4), "dyn_ub");
        g->replaceUsesWithIf(dub, [&](Use &u) {
            auto *I = dyn_cast<Instruction>(u.getUser());
            return I && I->getFunction() == nf;
        });
    }

    // Shared-UB accesses, checked for races between the block's threads in
    // the checked run functions -- not in a kernel that spins: it orders
    // its threads through memory, which the check cannot see.
    std::vector<std::string> ub_sites;
    bool spins = false;
    for (CallInst *c : points)
        spins |= c->getCalledFunction()->getName() == kYield;
    auto dim = [&](unsigned k) {
        LoadInst *l = eb.CreateLoad(i32, eb.CreateInBoundsGEP(ctxT, ctxp, {eb.getInt32(0), eb.getInt32(0),
                                                                           eb.getInt32(ARC_SIMT_BDIM + k)}));
        dim_range(l, ARC_SIMT_BDIM + k, K.max_threads);
        return l;
    };
    Value *tid = eb.CreateAdd(eb.CreateMul(eb.CreateAdd(eb.CreateMul(nf->getArg(5), dim(1)), nf->getArg(4)), dim(0)),
                              nf->getArg(3));
    Value *nthreads = eb.CreateMul(eb.CreateZExt(eb.CreateMul(dim(0), dim(1), "", true, true), i64),
                                   eb.CreateZExt(dim(2), i64), "", true, true);
    Value *tid64 = eb.CreateZExt(tid, i64);
    // The thread's warp exchange slot (the driver's, rt/cores/simt.c).
    Value *frame = eb.CreateInBoundsGEP(i8, frames, eb.CreateMul(tid64, ConstantInt::get(i64, sizeof(arc_simt_xch))));
    unsigned nchecked = 0;
    if (!spins) {
        std::vector<Value *> bases;
        if (ub)
            bases.push_back(ub);
        if (dub)
            bases.push_back(dub);
        nchecked = simt_ub_instrument(*nf, eb, ctxp, nf->getArg(7), tid, bases, ub_sites, root, strip, nstrip);
    }
    simt_gm_instrument(*nf, eb, ctxp, nf->getArg(1), t.kdesc, nf->getArg(3), nf->getArg(4), nf->getArg(5), root, strip,
                       nstrip);

    // Points: each returns its number; the code after it is reached from
    // the entry's switch.
    std::vector<BasicBlock *> resume(1, orig);
    std::vector<Constant *> kinds(1, ConstantInt::get(i8, 0)), where(1, ConstantPointerNull::get(ptr));
    for (CallInst *c : points) {
        unsigned s = (unsigned)resume.size();
        bool warp = c->getCalledFunction()->getName() == kWarp;
        StringRef callee = c->getCalledFunction()->getName();
        int kind = warp                 ? ARC_SIMT_WARP
                   : callee == kYield    ? ARC_SIMT_YIELD
                   : callee == kLockstep ? ARC_SIMT_LOCKSTEP
                                         : ARC_SIMT_BARRIER;
        std::string line = user_line(c->getDebugLoc().get(), root, strip, nstrip);
        if (line.empty())
            line = "?";
        BasicBlock *bb = c->getParent();
        BasicBlock *res = bb->splitBasicBlock(std::next(c->getIterator()), "simt.resume");
        bb->getTerminator()->eraseFromParent();
        IRBuilder<> b(bb);
        if (warp) {
            b.CreateStore(c->getArgOperand(0), frame);
            b.CreateStore(c->getArgOperand(2), b.CreateConstGEP1_32(i8, frame, 4));
            b.CreateStore(c->getArgOperand(3), b.CreateConstGEP1_32(i8, frame, 8));
            b.CreateStore(c->getArgOperand(1), b.CreateConstGEP1_32(i8, frame, 16));
            IRBuilder<> rb(res, res->getFirstInsertionPt());
            c->replaceAllUsesWith(rb.CreateLoad(i64, rb.CreateConstGEP1_32(i8, frame, 24)));
        }
        b.CreateRet(ConstantInt::get(i32, s));
        c->eraseFromParent();
        resume.push_back(res);
        kinds.push_back(ConstantInt::get(i8, kind));
        where.push_back(eb.CreateGlobalStringPtr(line, "", 0, &m));
    }
    K.points = (unsigned)points.size();
    SwitchInst *sw = eb.CreateSwitch(nf->getArg(6), orig, K.points);
    for (unsigned s = 1; s < resume.size(); s++)
        sw->addCase(cast<ConstantInt>(ConstantInt::get(i32, s)), resume[s]);

    K.frame = simt_frame_layout(*nf, E, frames, tid64, nthreads, K.points != 0, id, r->errors);

    // run_s: every thread stopped at point s (all threads for s = 0 when
    // the kernel has no points) to its next point; the checked ones check
    // the shared UB too.
    auto *runT = FunctionType::get(i32, {ptr, ptr}, false);
    std::vector<Constant *> runs, runcs;
    for (unsigned s2 = 0; s2 < 2 * resume.size(); s2++) {
        unsigned s = s2 % (unsigned)resume.size();
        bool checked = s2 >= resume.size();
        if (checked && !nchecked)
            break;
        Function *run = Function::Create(runT, GlobalValue::InternalLinkage,
                                         "__arc_simt_run_" + id + "_" + std::to_string(s) + (checked ? kChecked : ""), m);
        run->setAttributes(AttributeList::get(C, AttributeList::FunctionIndex, AttrBuilder(C, fa)));
        run->removeFnAttr(Attribute::OptimizeNone);
        run->removeFnAttr(Attribute::NoInline);
        // Nothing but the driver writes the block's context, and nothing
        // writes the packed arguments during a launch: with that known,
        // their loads leave the thread loops and the loops can vectorise.
        // Both are whole (dereferenceable) even where a thread does not
        // read them, so the loads may be hoisted out of conditional code.
        for (unsigned k = 0; k < 2; k++) {
            run->addParamAttr(k, Attribute::NoAlias);
            run->addParamAttr(k, Attribute::ReadOnly);
        }
        run->addDereferenceableParamAttr(0, sizeof(arc_simt_block_ctx));
        run->addParamAttr(0, Attribute::getWithAlignment(C, Align(alignof(arc_simt_block_ctx))));
        if (unsigned asz = kdesc_args_size(t.kdesc))
            run->addDereferenceableParamAttr(1, asz);
        Value *cx = run->getArg(0), *args = run->getArg(1);
        auto *entry = BasicBlock::Create(C, "entry", run);
        IRBuilder<> b(entry);
        auto dimp = [&](unsigned k) {
            return b.CreateInBoundsGEP(ctxT, cx, {b.getInt32(0), b.getInt32(0), b.getInt32(k)});
        };
        LoadInst *bdx = b.CreateLoad(i32, dimp(ARC_SIMT_BDIM)), *bdy = b.CreateLoad(i32, dimp(ARC_SIMT_BDIM + 1)),
                 *bdz = b.CreateLoad(i32, dimp(ARC_SIMT_BDIM + 2));
        for (unsigned k = 0; k < 3; k++)
            dim_range(k == 0 ? bdx : k == 1 ? bdy : bdz, ARC_SIMT_BDIM + k, K.max_threads);
        Value *frames = b.CreateLoad(ptr, b.CreateStructGEP(ctxT, cx, 5), "frames");
        Value *pend = b.CreateLoad(ptr, b.CreateStructGEP(ctxT, cx, 6), "pend");
        auto *zh = BasicBlock::Create(C, "z", run), *yh = BasicBlock::Create(C, "y", run),
             *xh = BasicBlock::Create(C, "x", run), *xl = BasicBlock::Create(C, "x.latch", run),
             *yl = BasicBlock::Create(C, "y.latch", run), *zl = BasicBlock::Create(C, "z.latch", run),
             *done = BasicBlock::Create(C, "done", run);
        b.CreateBr(zh);
        b.SetInsertPoint(zh);
        PHINode *z = b.CreatePHI(i32, 2, "z");
        b.CreateBr(yh);
        b.SetInsertPoint(yh);
        PHINode *y = b.CreatePHI(i32, 2, "y");
        Value *row = b.CreateMul(b.CreateAdd(b.CreateMul(z, bdy), y), bdx);
        b.CreateBr(xh);
        b.SetInsertPoint(xh);
        PHINode *x = b.CreatePHI(i32, 2, "x");
        Value *t = b.CreateZExt(b.CreateAdd(row, x), i64);
        Value *pt = b.CreateInBoundsGEP(i32, pend, t);
        LoadInst *pl = nullptr;
        if (K.points) {
            auto *call = BasicBlock::Create(C, "call", run, xl);
            b.CreateCondBr(b.CreateICmpEQ(pl = b.CreateLoad(i32, pt), b.getInt32(s)), call, xl);
            b.SetInsertPoint(call);
        }
        CallInst *ci = b.CreateCall(nf, {cx, args, frames, x, y, z, b.getInt32(s), b.getInt1(checked)});
        if (K.points)
            b.CreateStore(ci, pt);
        b.CreateBr(xl);
        b.SetInsertPoint(xl);
        Value *x1 = b.CreateAdd(x, b.getInt32(1));
        no_runtime_unroll(b.CreateCondBr(b.CreateICmpULT(x1, bdx), xh, yl));
        b.SetInsertPoint(yl);
        Value *y1 = b.CreateAdd(y, b.getInt32(1));
        b.CreateCondBr(b.CreateICmpULT(y1, bdy), yh, zl);
        b.SetInsertPoint(zl);
        Value *z1 = b.CreateAdd(z, b.getInt32(1));
        b.CreateCondBr(b.CreateICmpULT(z1, bdz), zh, done);
        b.SetInsertPoint(done);
        // A lockstep point's run goes round while a thread is in the loop.
        if (cast<ConstantInt>(kinds[s])->getZExtValue() == ARC_SIMT_LOCKSTEP)
            lockstep_again(b, zh, z, pend, b.CreateMul(b.CreateMul(bdx, bdy), bdz), s);
        b.CreateRet(b.getInt32(0));
        z->addIncoming(b.getInt32(0), entry);
        z->addIncoming(z1, zl);
        y->addIncoming(b.getInt32(0), zh);
        y->addIncoming(y1, yl);
        x->addIncoming(b.getInt32(0), yh);
        x->addIncoming(x1, xl);
        InlineFunctionInfo ifi;
        if (!InlineFunction(*ci, ifi).isSuccess())
            error("internal: SIMT kernel " + id + " could not be inlined into its thread loop");
        // The inlined entry switch on the constant s picks one region; the
        // constant chk keeps or drops the UB checks.
        for (BasicBlock &bb : *run) {
            Instruction *term = bb.getTerminator();
            if (auto *sw2 = dyn_cast<SwitchInst>(term); sw2 && isa<ConstantInt>(sw2->getCondition()))
                ConstantFoldTerminator(&bb, true);
            else if (auto *br = dyn_cast<BranchInst>(term); br && br->isConditional() && isa<ConstantInt>(br->getCondition()))
                ConstantFoldTerminator(&bb, true);
        }
        removeUnreachableBlocks(*run);
        if (pl && cast<ConstantInt>(kinds[s])->getZExtValue() == ARC_SIMT_LOCKSTEP) {
            IRBuilder<> nb(entry->getTerminator());
            lockstep_round_copy(*run, zh, done, pl, s, pend, frames,
                                nb.CreateZExt(nb.CreateMul(nb.CreateMul(bdx, bdy), bdz), nb.getInt64Ty()));
        }
        if (checked && !simt_ub_checked(*run)) { // the region has no shared-UB access: the same as run_s
            run->eraseFromParent();
            runcs.push_back(runs[s]);
            continue;
        }
        (checked ? runcs : runs).push_back(run);
        mine.insert(run);
    }
    nf->eraseFromParent();

    // The kernel's description and its entry, which the runtime calls per block.
    auto table = [&](Type *et, std::vector<Constant *> &v, const char *what) {
        auto *at = ArrayType::get(et, v.size());
        auto *g = new GlobalVariable(m, at, true, GlobalValue::PrivateLinkage, ConstantArray::get(at, v),
                                     "__arc_simt_" + std::string(what) + "_" + id);
        return g;
    };
    IRBuilder<> gb(C);
    std::vector<Constant *> site_strs(1, gb.CreateGlobalStringPtr("?", "", 0, &m));
    for (const std::string &l : ub_sites)
        site_strs.push_back(gb.CreateGlobalStringPtr(l, "", 0, &m));
    Constant *null = ConstantPointerNull::get(ptr);
    std::vector<Constant *> behind_c;
    for (unsigned long long w : behind)
        behind_c.push_back(ConstantInt::get(i64, w));
    StructType *descT = StructType::get(C, {i32, i32, i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i32});
    Constant *desc = ConstantStruct::get(
        descT, {ConstantInt::get(i32, K.frame), ConstantInt::get(i32, K.points), ConstantInt::get(i32, K.static_ub),
                ConstantInt::get(i32, kdesc_args_size(t.kdesc)), table(ptr, runs, "run"), table(i8, kinds, "kind"),
                table(ptr, where, "where"), runcs.empty() ? null : table(ptr, runcs, "runc"),
                runcs.empty() ? null : table(ptr, site_strs, "ub_sites"),
                behind.empty() ? null : table(i64, behind_c, "behind"),
                ConstantInt::get(i32, behind.empty() ? 0 : (K.points + 64) / 64)});
    auto *dg = new GlobalVariable(m, descT, true, GlobalValue::PrivateLinkage, desc, "__arc_simt_desc_" + id);
    FunctionCallee drv = m.getOrInsertFunction("__arc_simt_block", FunctionType::get(Type::getVoidTy(C), {ptr, ptr}, false));
    Function *entry = t.site ? F
                             : Function::Create(FunctionType::get(Type::getVoidTy(C), {ptr}, false),
                                                GlobalValue::ExternalLinkage, entry_name, m);
    IRBuilder<> b(BasicBlock::Create(C, "", entry));
    b.CreateCall(drv, {dg, entry->getArg(0)});
    b.CreateRetVoid();
}

} // namespace

int64_t simt_ctx_field(const LoadInst *l)
{
    const DataLayout &DL = l->getModule()->getDataLayout();
    APInt off(DL.getIndexTypeSizeInBits(l->getPointerOperandType()), 0);
    const Value *base = l->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, off, true);
    return base == l->getFunction()->getArg(0) ? (int64_t)off.getZExtValue() : -1;
}

bool simt_checked_ub(const Value *obj)
{
    auto *l = dyn_cast<LoadInst>(obj);
    if (!l || !simt_ub_watched(*l->getFunction()))
        return false;
    int64_t o = simt_ctx_field(l);
    return o == (int64_t)offsetof(arc_simt_block_ctx, ub) || o == (int64_t)offsetof(arc_simt_block_ctx, dyn_ub);
}

bool simt_thread_state(const Value *obj)
{
    auto *l = dyn_cast<LoadInst>(obj);
    if (!l || !l->getFunction()->getName().starts_with("__arc_simt_run_"))
        return false;
    int64_t o = simt_ctx_field(l);
    return o == (int64_t)offsetof(arc_simt_block_ctx, frames) || o == (int64_t)offsetof(arc_simt_block_ctx, pend) ||
           o == (int64_t)offsetof(arc_simt_block_ctx, shadow);
}

void simt_register(PassBuilder &pb, SimtResult *r, const char *device_root, const char *const *strip, int nstrip)
{
    pb.registerPipelineStartEPCallback([](ModulePassManager &mpm, OptimizationLevel) { mpm.addPass(SimtPrepare()); });
    pb.registerOptimizerEarlyEPCallback([=](ModulePassManager &mpm, OptimizationLevel) {
        Fission f;
        f.r = r;
        f.root = device_root;
        f.strip = strip;
        f.nstrip = nstrip;
        mpm.addPass(std::move(f));
        // The run functions were built after the simplification pipeline:
        // clean them up as it would (CSE the inlined thread's loads, hoist
        // what the thread loops do not change, and prove with the
        // dimensions' ranges that thread indices do not wrap) before the
        // loop vectoriser looks at them.
        FunctionPassManager fpm;
        fpm.addPass(EarlyCSEPass(true));
        fpm.addPass(InstCombinePass());
        fpm.addPass(CorrelatedValuePropagationPass());
        fpm.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
        fpm.addPass(InstCombinePass());
        // Bounds checks that hold in the whole thread loop: a loop copy
        // without them (simt_guard.h).
        fpm.addPass(SimtGuard());
        mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
        if (std::getenv("ASCENDRTC_RTC_DUMP_IR")) // what the loop vectoriser gets
            mpm.addPass(DumpIr(".pre.ll"));
    });
}

} // namespace arc_rtc
