// param_bounds.cpp - GM bounds checks of a SIMD kernel's own accesses
// through its pointer parameters (see param_bounds.h).
//
// `((__gm__ int *)x)[i] = v` is plain C++: with a huge i it lands in
// whatever the host has mapped there, unseen (the guard pages after each
// allocation catch only the next page).  Every parameter is a load of the
// packed arguments in the kernel's entry, or an argument of the kernel
// function, so an access's provenance names its parameter, whose
// allocation the runtime gives per launch.  Runs after the optimiser: a
// vectorised loop keeps its vectors, each checked as one access.
#include "param_bounds.h"

#include "program_host.h"
#include "sites.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <map>
#include <set>
#include <string>

#include "../device/arc/simt_abi.h"

using namespace llvm;

namespace arc_rtc {

namespace {
// The descriptor's words, null when it is none.
const ConstantDataArray *kdesc_words(const GlobalVariable *kdesc)
{
    if (!kdesc || !kdesc->hasInitializer())
        return nullptr;
    const Constant *c = kdesc->getInitializer();
    if (auto *cs = dyn_cast<ConstantStruct>(c))
        c = cs->getOperand(0);
    auto *a = dyn_cast<ConstantDataArray>(c);
    return a && a->getNumElements() >= 2 ? a : nullptr;
}
} // namespace

unsigned kdesc_args_size(const GlobalVariable *kdesc)
{
    const ConstantDataArray *a = kdesc_words(kdesc);
    return a ? (unsigned)a->getElementAsInteger(1) : 0;
}

std::vector<long long> pointer_offsets(const GlobalVariable *kdesc)
{
    std::vector<long long> offs;
    const ConstantDataArray *a = kdesc_words(kdesc);
    if (!a)
        return offs;
    uint64_t n = a->getElementAsInteger(0);
    for (uint64_t i = 0; i < n && 5 + 4 * i < a->getNumElements(); i++)
        offs.push_back(i < ARC_GM_PARAMS && a->getElementAsInteger(5 + 4 * i) == 1
                           ? (long long)a->getElementAsInteger(2 + 4 * i)
                           : -1);
    return offs;
}

int param_of(const Value *p, const Value *args, const Function *kfn, const std::vector<long long> &offs,
             const DataLayout &DL)
{
    SmallVector<const Value *, 4> objs;
    getUnderlyingObjects(p, objs, nullptr, 0);
    int k = -1;
    for (const Value *o : objs) {
        if (auto *i2p = dyn_cast<IntToPtrInst>(o))
            o = i2p->getOperand(0);
        int this_k = -1;
        if (auto *a = dyn_cast<Argument>(o); a && kfn && a->getParent() == kfn && a->getType()->isPointerTy()) {
            if (a->getArgNo() < offs.size() && offs[a->getArgNo()] >= 0)
                this_k = (int)a->getArgNo();
        } else if (auto *l = dyn_cast<LoadInst>(o); l && args && DL.getTypeStoreSize(l->getType()) == 8) {
            APInt off(DL.getIndexTypeSizeInBits(l->getPointerOperandType()), 0);
            if (l->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, off, true) == args)
                for (size_t i = 0; i < offs.size(); i++)
                    if (offs[i] >= 0 && offs[i] == off.getSExtValue())
                        this_k = (int)i;
        }
        if (this_k < 0 || (k >= 0 && k != this_k))
            return -1;
        k = this_k;
    }
    return k;
}

std::vector<ParamAccess> param_accesses(Function &f, const Value *args, const Function *kfn,
                                        const std::vector<long long> &offs,
                                        const std::function<bool(const Instruction &)> &skip)
{
    const DataLayout &DL = f.getParent()->getDataLayout();
    std::vector<ParamAccess> acc;
    auto add = [&](Instruction *in, Value *p, Type *t, uint64_t bytes, bool write) {
        if (t) {
            TypeSize s = DL.getTypeStoreSize(t);
            bytes = s.isScalable() ? 0 : s.getFixedValue();
        }
        int k = bytes ? param_of(p, args, kfn, offs, DL) : -1;
        if (k >= 0)
            acc.push_back({in, p, bytes, (unsigned)k, write});
    };
    for (Instruction &I : instructions(f)) {
        if (skip(I))
            continue;
        if (auto *l = dyn_cast<LoadInst>(&I))
            add(l, l->getPointerOperand(), l->getType(), 0, false);
        else if (auto *s = dyn_cast<StoreInst>(&I))
            add(s, s->getPointerOperand(), s->getValueOperand()->getType(), 0, true);
        else if (auto *a = dyn_cast<AtomicRMWInst>(&I))
            add(a, a->getPointerOperand(), a->getValOperand()->getType(), 0, true);
        else if (auto *x = dyn_cast<AtomicCmpXchgInst>(&I))
            add(x, x->getPointerOperand(), x->getCompareOperand()->getType(), 0, true);
        else if (auto *mi = dyn_cast<MemIntrinsic>(&I)) {
            auto *len = dyn_cast<ConstantInt>(mi->getLength());
            if (!len)
                continue;
            if (auto *mt = dyn_cast<MemTransferInst>(mi))
                add(mt, mt->getRawSource(), nullptr, len->getZExtValue(), false);
            add(mi, mi->getRawDest(), nullptr, len->getZExtValue(), true);
        }
    }
    return acc;
}

FunctionCallee oob_reporter(Module &m, const char *name, FunctionType *t)
{
    FunctionCallee f = m.getOrInsertFunction(name, t);
    if (auto *fn = dyn_cast<Function>(f.getCallee())) {
        fn->addFnAttr(Attribute::NoReturn);
        fn->addFnAttr(Attribute::Cold);
        fn->addFnAttr(Attribute::NoUnwind);
    }
    return f;
}

Value *gm_inside(IRBuilder<> &b, Value *q, uint64_t bytes, Value *lo, Value *span)
{
    Value *d = b.CreateSub(b.CreatePtrToInt(q, b.getInt64Ty()), lo);
    // One compare in the loop: d < span - (bytes - 1), saturated at 0 (a
    // span shorter than the access admits nothing; 0 bytes: d < span, as
    // both tests were); the limit is invariant.
    Value *lim = bytes > 1 ? b.CreateBinaryIntrinsic(Intrinsic::usub_sat, span, b.getInt64(bytes - 1)) : span;
    return b.CreateICmpULT(d, lim);
}

void guard_access(Module &m, const ParamAccess &a, Value *lo, Value *span, FunctionCallee oob, ArrayRef<Value *> before,
                  ArrayRef<Value *> after, const char *device_root, const char *const *strip, int nstrip,
                  std::map<std::string, Constant *> &sites)
{
    IRBuilder<> b(a.in);
    Value *bad = b.CreateNot(gm_inside(b, a.ptr, a.bytes, lo, span));
    Instruction *then = SplitBlockAndInsertIfThen(bad, a.in->getIterator(), /*Unreachable=*/true);
    IRBuilder<> tb(then);
    tb.SetCurrentDebugLocation(a.in->getDebugLoc());
    std::string line = user_line(a.in->getDebugLoc().get(), device_root, strip, nstrip);
    Constant *&site = sites[line];
    if (!site)
        site = tb.CreateGlobalStringPtr(line.empty() ? "?" : line, "__arc_gm_site", 0, &m);
    std::vector<Value *> args(before.begin(), before.end());
    args.insert(args.end(), {a.ptr, tb.getInt64(a.bytes), tb.getInt32(a.param | a.write << 8), site});
    args.insert(args.end(), after.begin(), after.end());
    tb.CreateCall(oob, args)->setDoesNotReturn();
}

namespace {

// The user's own code: its innermost location is a line of a file outside
// the device headers (which check their own accesses).
bool users_code(const Instruction &in, StringRef device_root)
{
    const DILocation *loc = in.getDebugLoc().get();
    return loc && loc->getLine() != 0 && !loc->getFilename().empty() && !loc->getFilename().starts_with(device_root);
}

unsigned check_function(Function &f, const Value *args, const Function *kfn, const std::vector<long long> &offs,
                        const char *device_root, const char *const *strip, int nstrip,
                        std::map<std::string, Constant *> &sites)
{
    Module &m = *f.getParent();
    std::vector<ParamAccess> acc =
        param_accesses(f, args, kfn, offs, [&](const Instruction &I) { return !users_code(I, device_root); });
    if (acc.empty())
        return 0;
    LLVMContext &C = m.getContext();
    Type *ptr = PointerType::get(C, 0), *i32 = Type::getInt32Ty(C), *i64 = Type::getInt64Ty(C);
    FunctionCallee get = m.getOrInsertFunction("__arc_gm_bounds", FunctionType::get(ptr, {}, false));
    FunctionCallee oob =
        oob_reporter(m, "__arc_gm_oob", FunctionType::get(Type::getVoidTy(C), {ptr, i64, i32, ptr}, false));
    IRBuilder<> eb(&*f.getEntryBlock().getFirstInsertionPt());
    Value *tbl = eb.CreateCall(get, {}, "arc.gm");
    std::map<unsigned, std::pair<Value *, Value *>> bnd; // per parameter, in the entry
    for (ParamAccess &a : acc) {
        auto it = bnd.find(a.param);
        if (it == bnd.end()) {
            Value *lo = eb.CreateLoad(i64, eb.CreateConstInBoundsGEP1_64(i64, tbl, 2 * a.param));
            Value *span = eb.CreateLoad(i64, eb.CreateConstInBoundsGEP1_64(i64, tbl, 2 * a.param + 1));
            it = bnd.emplace(a.param, std::make_pair(lo, span)).first;
        }
        guard_access(m, a, it->second.first, it->second.second, oob, {}, {}, device_root, strip, nstrip, sites);
    }
    return (unsigned)acc.size();
}

} // namespace

unsigned check_param_bounds(Module &m, const char *device_root, const char *const *strip, int nstrip)
{
    // Each SIMD kernel's entries (the rtc's __arc_entry_<i>, a <<<...>>>
    // launch's site<F>::entry) and the kernel function, with its descriptor.
    struct Kernel {
        Function *entry;
        GlobalVariable *kfn, *kdesc;
    };
    std::vector<Kernel> ks;
    for (GlobalVariable &g : m.globals()) {
        StringRef n = g.getName();
        if (n.starts_with("__arc_kdesc_"))
            ks.push_back({m.getFunction(("__arc_entry_" + n.drop_front(12)).str()),
                          m.getGlobalVariable(("__arc_kfn_" + n.drop_front(12)).str(), true), &g});
        else if (is_site_rec(g) && n.starts_with("_ZN5__arc4siteI") && g.hasInitializer())
            if (auto *init = dyn_cast<ConstantStruct>(g.getInitializer()); init && init->getNumOperands() >= 4)
                ks.push_back({dyn_cast<Function>(init->getOperand(1)->stripPointerCasts()),
                              dyn_cast<GlobalVariable>(init->getOperand(2)->stripPointerCasts()),
                              dyn_cast<GlobalVariable>(init->getOperand(3)->stripPointerCasts())});
    }
    std::set<Function *> done;
    std::map<std::string, Constant *> sites;
    unsigned count = 0;
    for (const Kernel &k : ks) {
        std::vector<long long> offs = pointer_offsets(k.kdesc);
        if (offs.empty())
            continue;
        if (k.entry && !k.entry->isDeclaration() && k.entry->arg_size() == 1 && done.insert(k.entry).second)
            count += check_function(*k.entry, k.entry->getArg(0), nullptr, offs, device_root, strip, nstrip, sites);
        Function *f = k.kfn && k.kfn->hasInitializer() ? dyn_cast<Function>(k.kfn->getInitializer()->stripPointerCasts())
                                                       : nullptr;
        if (f && !f->isDeclaration() && f->arg_size() == offs.size() && !f->getName().starts_with("__arc_simt") &&
            done.insert(f).second)
            count += check_function(*f, nullptr, f, offs, device_root, strip, nstrip, sites);
    }
    return count;
}

} // namespace arc_rtc
