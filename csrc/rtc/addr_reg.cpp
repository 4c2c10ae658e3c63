// addr_reg.cpp - the C API's address registers (addr_reg.h).
#include "addr_reg.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <memory>
#include <vector>

using namespace llvm;

namespace arc_rtc {
namespace {

// The iteration count of loop l: a phi at its header, 0 from outside the
// loop, itself + 1 from each block of the loop that branches back.
Value *counter(Loop *l, std::map<Loop *, Value *> &made)
{
    Value *&c = made[l];
    if (c)
        return c;
    BasicBlock *h = l->getHeader();
    Type *i64 = Type::getInt64Ty(h->getContext());
    PHINode *phi = PHINode::Create(i64, 2, "arc.addr_reg.i");
    phi->insertBefore(h->getFirstNonPHIIt());
    for (BasicBlock *p : predecessors(h)) {
        if (l->contains(p)) {
            IRBuilder<> b(p->getTerminator());
            phi->addIncoming(b.CreateAdd(phi, ConstantInt::get(i64, 1)), p);
        } else {
            phi->addIncoming(ConstantInt::get(i64, 0), p);
        }
    }
    return c = phi;
}

} // namespace

PreservedAnalyses AddrRegPass::run(Module &m, ModuleAnalysisManager &)
{
    Function *f = m.getFunction("__arc_addr_reg");
    if (!f || f->use_empty())
        return PreservedAnalyses::all();
    std::vector<CallInst *> calls;
    for (User *u : f->users())
        if (auto *ci = dyn_cast<CallInst>(u); ci && ci->getCalledFunction() == f && ci->arg_size() == 5)
            calls.push_back(ci);
    struct Info {
        std::unique_ptr<DominatorTree> dt;
        std::unique_ptr<LoopInfo> li;
        std::map<Loop *, Value *> made;
    };
    std::map<Function *, Info> fns;
    for (CallInst *ci : calls) {
        Function *fn = ci->getFunction();
        Info &in = fns[fn];
        if (!in.li) {
            in.dt = std::make_unique<DominatorTree>(*fn);
            in.li = std::make_unique<LoopInfo>(*in.dt);
        }
        IRBuilder<> b(ci);
        Type *i64 = b.getInt64Ty();
        Value *sum = ConstantInt::get(i64, 0);
        Loop *l = in.li->getLoopFor(ci->getParent());
        for (unsigned d = 0; d < 4 && l; d++, l = l->getParentLoop()) {
            Value *s = b.CreateZExtOrTrunc(ci->getArgOperand(1 + d), i64);
            sum = b.CreateAdd(sum, b.CreateMul(counter(l, in.made), s));
        }
        Value *bytes = b.CreateMul(sum, b.CreateZExtOrTrunc(ci->getArgOperand(0), i64));
        ci->replaceAllUsesWith(b.CreateZExtOrTrunc(bytes, ci->getType()));
        ci->eraseFromParent();
    }
    return PreservedAnalyses::none();
}

} // namespace arc_rtc
