// int_div.cpp - integer divisions that cannot trap (see int_div.h).  Runs
// on the optimised module, so divisions the optimiser proved safe or dead
// cost nothing, and a vector division keeps its lanes: one compare per
// division and a branch, taken only on a bad divisor.
#include "int_div.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

namespace arc_rtc {
namespace {
bool is_div(const llvm::Instruction &in)
{
    switch (in.getOpcode()) {
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SRem:
    case llvm::Instruction::URem:
        return true;
    default:
        return false;
    }
}

// A constant divisor with no zero lane (and, signed, no -1 lane) is safe.
bool safe_constant(const llvm::Value *d, bool is_signed)
{
    auto lane_ok = [&](const llvm::Constant *c) {
        auto *ci = llvm::dyn_cast_or_null<llvm::ConstantInt>(c);
        return ci && !ci->isZero() && !(is_signed && ci->isMinusOne());
    };
    auto *c = llvm::dyn_cast<llvm::Constant>(d);
    if (!c)
        return false;
    if (lane_ok(c))
        return true;
    auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(c->getType());
    if (!vt)
        return false;
    for (unsigned i = 0; i < vt->getNumElements(); i++)
        if (!lane_ok(c->getAggregateElement(i)))
            return false;
    return true;
}

// An i1 from a vector of i1 (any lane set); a scalar as it is.
llvm::Value *any(llvm::IRBuilder<> &b, llvm::Value *v)
{
    return v->getType()->isVectorTy() ? b.CreateOrReduce(v) : v;
}
} // namespace

unsigned guard_int_divisions(llvm::Module &m)
{
    std::vector<llvm::BinaryOperator *> divs;
    for (llvm::Function &f : m)
        for (llvm::BasicBlock &bb : f)
            for (llvm::Instruction &in : bb)
                if (is_div(in)) {
                    bool sgn = in.getOpcode() == llvm::Instruction::SDiv || in.getOpcode() == llvm::Instruction::SRem;
                    if (!safe_constant(in.getOperand(1), sgn))
                        divs.push_back(llvm::cast<llvm::BinaryOperator>(&in));
                }
    if (divs.empty())
        return 0;
    llvm::LLVMContext &ctx = m.getContext();
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
    llvm::FunctionCallee report =
        m.getOrInsertFunction("__arc_int_div", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32}, false));
    llvm::MDNode *cold = llvm::MDBuilder(ctx).createBranchWeights(1, 1 << 20);
    for (llvm::BinaryOperator *div : divs) {
        unsigned op = div->getOpcode();
        bool sgn = op == llvm::Instruction::SDiv || op == llvm::Instruction::SRem;
        bool rem = op == llvm::Instruction::SRem || op == llvm::Instruction::URem;
        llvm::Value *x = div->getOperand(0), *d = div->getOperand(1);
        llvm::Type *t = div->getType();
        llvm::IRBuilder<> b(div);
        llvm::Value *zero = b.CreateICmpEQ(d, llvm::Constant::getNullValue(t), "divzero");
        llvm::Value *bad = zero;
        if (sgn) { // INT_MIN / -1: divide by 1 instead, which gives the wrapped quotient and remainder 0
            unsigned bits = t->getScalarSizeInBits();
            llvm::Value *ov = b.CreateAnd(b.CreateICmpEQ(d, llvm::Constant::getAllOnesValue(t)),
                                          b.CreateICmpEQ(x, llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(bits))),
                                          "divovf");
            bad = b.CreateOr(zero, ov);
        }
        llvm::Value *safe_d = b.CreateSelect(bad, llvm::ConstantInt::get(t, 1), d);
        llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(any(b, bad), div, false, cold);
        llvm::IRBuilder<> cb(then); // which kind, worked out only on the cold path
        llvm::Value *kind = cb.CreateSelect(any(cb, zero), cb.getInt32(1), cb.getInt32(2));
        cb.CreateCall(report, {kind})->setDebugLoc(div->getDebugLoc());
        div->setOperand(1, safe_d);
        // x / 0 = all ones, x % 0 = x (the divide by 1 gave x and 0)
        b.SetInsertPoint(div->getNextNode());
        llvm::Value *fixed = b.CreateSelect(zero, rem ? x : llvm::Constant::getAllOnesValue(t), div);
        div->replaceUsesWithIf(fixed, [&](llvm::Use &u) { return u.getUser() != fixed; });
    }
    return (unsigned)divs.size();
}
} // namespace arc_rtc
