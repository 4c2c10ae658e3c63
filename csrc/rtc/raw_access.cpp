// raw_access.cpp - race-check instrumentation of the kernel's own pointer
// accesses (see raw_access.h).  The device API reports each access it
// makes (arc/race.h); a load through `(float *)t.GetPhyAddr()` or a
// `__gm__` pointer is the user's C++, which only the compiler sees.  Runs
// after the optimiser, so only the accesses that survived it (a vector
// load of a vectorised loop is one access) are instrumented, and the check
// costs one branch on a value computed at the function's entry when off.
#include "raw_access.h"

#include "sites.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <map>
#include <string>
#include <vector>

namespace arc_rtc {
namespace {
struct Access {
    llvm::Value *ptr;
    llvm::Value *bytes; // i64
    int write;
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
// code).
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
    return true;
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
    if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&in)) {
        add(l->getPointerOperand(), size_of(l->getType()), 0);
    } else if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&in)) {
        add(s->getPointerOperand(), size_of(s->getValueOperand()->getType()), 1);
    } else if (auto *mt = llvm::dyn_cast<llvm::MemTransferInst>(&in)) {
        add(mt->getRawSource(), mt->getLength(), 0);
        add(mt->getRawDest(), mt->getLength(), 1);
    } else if (auto *ms = llvm::dyn_cast<llvm::MemSetInst>(&in)) {
        add(ms->getRawDest(), ms->getLength(), 1);
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
        return llvm::isa<llvm::MemIntrinsic>(ii) ? false : !ii->isAssumeLikeIntrinsic() && !llvm::isa<llvm::DbgInfoIntrinsic>(ii);
    return true;
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
        // Runs of reported accesses in one block with no call between them:
        // one branch reports the whole run, after its last access.
        struct Run {
            llvm::Instruction *last;
            std::vector<std::pair<Access, const llvm::DILocation *>> acc;
        };
        std::vector<Run> runs;
        for (llvm::BasicBlock &bb : f) {
            Run cur{nullptr, {}};
            for (llvm::Instruction &in : bb) {
                if (orders(in)) {
                    if (!cur.acc.empty())
                        runs.push_back(std::move(cur));
                    cur = Run{nullptr, {}};
                    continue;
                }
                if (!users_code(in, device_root))
                    continue;
                std::vector<Access> acc;
                accesses_of(in, dl, acc);
                for (const Access &a : acc)
                    cur.acc.push_back({a, in.getDebugLoc().get()});
                if (!acc.empty())
                    cur.last = &in;
            }
            if (!cur.acc.empty())
                runs.push_back(std::move(cur));
        }
        if (runs.empty())
            continue;
        llvm::IRBuilder<> entry(&*f.getEntryBlock().getFirstInsertionPt());
        llvm::Value *on = entry.CreateICmpNE(entry.CreateCall(on_fn), llvm::ConstantInt::get(i32, 0), "arc.raw.on");
        for (Run &r : runs) {
            llvm::Instruction *after = r.last->getNextNode();
            llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(on, after, false);
            llvm::IRBuilder<> b(then);
            for (auto &[a, loc] : r.acc) {
                std::string text = user_line(loc, device_root, strip, nstrip);
                llvm::Constant *&s = strings[text];
                if (!s)
                    s = b.CreateGlobalStringPtr(text, "__arc_raw_site");
                llvm::Value *n = a.bytes->getType() == i64 ? a.bytes : b.CreateZExtOrTrunc(a.bytes, i64);
                llvm::CallInst *call = b.CreateCall(raw_fn, {a.ptr, n, llvm::ConstantInt::get(i32, a.write), s});
                call->setDebugLoc(llvm::DebugLoc(loc));
                count++;
            }
        }
    }
    return count;
}
} // namespace arc_rtc
