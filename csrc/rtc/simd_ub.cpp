// simd_ub.cpp - SIMD code's static local arrays in their memories: `__ubuf__`
// in the UB, `__cbuf__` in L1, `__ca__`/`__cb__`/`__cc__` in L0A/L0B/L0C,
// `__biasbuf__` and `__fbuf__` in the BiasTable and Fixpipe buffer (simd_ub.h).
//
// Local arrays are allocas with an annotation (kernel_operator.h defines
// each qualifier as one; the table is ARC_STATIC_MEMS, core_abi.h).  Per
// memory, a kernel's arrays, and those of every function it can reach, get
// disjoint bytes from offset 0; the arrays of functions no kernel shares
// may share bytes (each kernel lays its own memories out).  Each function
// that has arrays asks the runtime for each memory's base once
// (__arc_static_mem, which traps when its kernels' arrays need more than
// this core's memory), and each array becomes base + offset.
#include "simd_ub.h"

#include "simt_prepare.h"

#include "device/arc/core_abi.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/ReplaceConstant.h>

#include <map>
#include <set>
#include <vector>

using namespace llvm;

namespace arc_rtc {
namespace {

struct MemNote {
    const char *note;
    uint64_t align;
};
constexpr MemNote mem_notes[] = {
#define ARC_MEM_NOTE_(id, note, qual, align) {note, align},
    ARC_STATIC_MEMS(ARC_MEM_NOTE_)
#undef ARC_MEM_NOTE_
};

// The memory (ARC_MEM_*) an annotation places its variable in, or -1.
int mem_note(const IntrinsicInst *ii)
{
    StringRef s;
    auto id = ii->getIntrinsicID();
    if ((id != Intrinsic::var_annotation && id != Intrinsic::ptr_annotation) ||
        !getConstantStringInfo(ii->getArgOperand(1), s))
        return -1;
    for (int k = 0; k < ARC_MEM_COUNT; k++)
        if (s == mem_notes[k].note)
            return k;
    return -1;
}

// The functions no other function calls (kernels and entries) that can
// reach f; a function whose address is taken is one itself.
struct Roots {
    std::map<Function *, std::set<Function *>> memo;
    std::set<Function *> busy;
    const std::set<Function *> &of(Function *f)
    {
        auto it = memo.find(f);
        if (it != memo.end())
            return it->second;
        std::set<Function *> r;
        if (busy.insert(f).second) {
            bool called = false, taken = false;
            for (User *u : f->users()) {
                auto *cb = dyn_cast<CallBase>(u);
                if (cb && cb->getCalledOperand() == f) {
                    called = true;
                    const std::set<Function *> &up = of(cb->getFunction());
                    r.insert(up.begin(), up.end());
                } else {
                    taken = true;
                }
            }
            if (!called || taken)
                r.insert(f);
            busy.erase(f);
        }
        return memo[f] = std::move(r);
    }
};

} // namespace

PreservedAnalyses SimdStaticUb::run(Module &m, ModuleAnalysisManager &)
{
    const DataLayout &DL = m.getDataLayout();
    std::set<Function *> simt = simt_detail::simt_code(m);
    struct Array {
        AllocaInst *a;
        int mem;
    };
    std::vector<std::pair<Function *, std::vector<Array>>> arrays;
    std::vector<IntrinsicInst *> notes;
    for (Function &f : m) {
        if (f.isDeclaration() || simt.count(&f))
            continue;
        std::vector<Array> mine;
        for (Instruction &I : instructions(f))
            if (auto *ii = dyn_cast<IntrinsicInst>(&I)) {
                int k = mem_note(ii);
                if (k < 0)
                    continue;
                notes.push_back(ii);
                auto *a = dyn_cast<AllocaInst>(ii->getArgOperand(0)->stripPointerCasts());
                if (ii->getIntrinsicID() == Intrinsic::var_annotation && a && a->isStaticAlloca() &&
                    !a->getAllocatedType()->isPointerTy())
                    mine.push_back({a, k});
            }
        if (!mine.empty())
            arrays.push_back({&f, std::move(mine)});
    }
    // Without their annotations pointers are promoted to registers.
    for (IntrinsicInst *ii : notes) {
        if (ii->getIntrinsicID() == Intrinsic::ptr_annotation)
            ii->replaceAllUsesWith(ii->getArgOperand(0));
        ii->eraseFromParent();
    }

    // A kernel's `extern __ubuf__ T d[]`: the functions of SIMD code using it.
    std::vector<GlobalVariable *> dyn;
    std::set<Function *> dyn_users;
    for (GlobalVariable &g : m.globals())
        if (simt_detail::is_ubuf_dynamic(&g)) {
            dyn.push_back(&g);
            for (Function &f : m)
                if (!f.isDeclaration() && !simt.count(&f))
                    convertUsersOfConstantsToInstructions({&g}, &f);
            for (User *u : g.users())
                if (auto *I = dyn_cast<Instruction>(u); I && !simt.count(I->getFunction()))
                    dyn_users.insert(I->getFunction());
        }
    if (arrays.empty() && dyn_users.empty())
        return notes.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();

    // Offsets per memory, in module order (the layout must not depend on pointers).
    Roots roots;
    std::map<std::pair<Function *, int>, uint64_t> top;
    std::map<AllocaInst *, uint64_t> at;
    for (auto &[f, as] : arrays)
        for (const Array &x : as) {
            const std::set<Function *> &rs = roots.of(f);
            uint64_t off = 0, size = x.a->getAllocationSize(DL)->getFixedValue();
            for (Function *r : rs)
                off = std::max(off, top[{r, x.mem}]);
            off = alignTo(off, std::max<uint64_t>(mem_notes[x.mem].align, x.a->getAlign().value()));
            at[x.a] = off;
            for (Function *r : rs)
                top[{r, x.mem}] = off + size;
        }
    auto need = [&](Function *f, int k) {
        uint64_t n = 0;
        for (Function *r : roots.of(f))
            n = std::max(n, top[{r, k}]);
        return alignTo(n, 32);
    };

    LLVMContext &C = m.getContext();
    Type *ptr = PointerType::get(C, 0), *i8 = Type::getInt8Ty(C), *i32 = Type::getInt32Ty(C),
         *i64 = Type::getInt64Ty(C);
    FunctionCallee base = m.getOrInsertFunction("__arc_static_mem", ptr, i32, i64, ptr);
    std::map<std::pair<Function *, int>, Value *> bases;
    auto base_of = [&](Function *f, int k) {
        Value *&b = bases[{f, k}];
        if (!b) {
            IRBuilder<> eb(&*f->getEntryBlock().getFirstInsertionPt());
            b = eb.CreateCall(base, {ConstantInt::get(i32, k), ConstantInt::get(i64, need(f, k)),
                                     eb.CreateGlobalStringPtr(demangle(f->getName().str()))});
        }
        return b;
    };
    for (auto &[f, as] : arrays)
        for (const Array &x : as) {
            Value *b = base_of(f, x.mem);
            for (User *u : make_early_inc_range(x.a->users()))
                if (auto *ii = dyn_cast<IntrinsicInst>(u); ii && ii->isLifetimeStartOrEnd())
                    ii->eraseFromParent();
            IRBuilder<> eb(cast<Instruction>(b)->getNextNode());
            x.a->replaceAllUsesWith(eb.CreateConstInBoundsGEP1_64(i8, b, at[x.a]));
            x.a->eraseFromParent();
        }
    for (Function *f : dyn_users) {
        Value *b = base_of(f, ARC_MEM_UB);
        IRBuilder<> eb(cast<Instruction>(b)->getNextNode());
        Value *d = eb.CreateConstInBoundsGEP1_64(i8, b, need(f, ARC_MEM_UB));
        for (GlobalVariable *g : dyn)
            g->replaceUsesWithIf(d, [&](Use &u) {
                auto *I = dyn_cast<Instruction>(u.getUser());
                return I && I->getFunction() == f;
            });
    }
    return PreservedAnalyses::none();
}

} // namespace arc_rtc
