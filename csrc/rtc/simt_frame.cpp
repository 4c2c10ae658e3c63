// simt_frame.cpp - a SIMT thread's frame (simt_frame.h).
#include "simt_frame.h"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

#include "../device/arc/simt_abi.h"

using namespace llvm;

namespace arc_rtc {
namespace simt_detail {

unsigned simt_frame_layout(Function &f, BasicBlock *E, Value *frame, bool points, const std::string &id,
                           std::string &errors)
{
    const DataLayout &DL = f.getParent()->getDataLayout();
    Type *i8 = Type::getInt8Ty(f.getContext());
    // Values live across a point lose their dominance: keep them in the frame.
    if (points) {
        DominatorTree DT(f);
        std::vector<Instruction *> demote;
        for (Instruction &I : instructions(f)) {
            if (isa<AllocaInst>(I) || I.getParent() == E)
                continue;
            for (Use &u : I.uses())
                if (!DT.dominates(&I, u)) {
                    demote.push_back(&I);
                    break;
                }
        }
        for (Instruction *I : demote) /* a phi too: stored after the phis, loaded where used */
            DemoteRegToStack(*I, false, E->getFirstInsertionPt());
    }
    uint64_t fsz = sizeof(arc_simt_xch);
    Align falign(16);
    std::vector<AllocaInst *> allocas;
    for (Instruction &I : instructions(f))
        if (auto *a = dyn_cast<AllocaInst>(&I))
            allocas.push_back(a);
    for (AllocaInst *a : allocas) {
        auto sz = a->getAllocationSize(DL);
        if (!sz || sz->isScalable()) {
            errors += "error: SIMT kernel " + id + ": a variable-length array is not supported in SIMT code\n";
            continue;
        }
        Align al = std::min(a->getAlign(), Align(64));
        falign = std::max(falign, al);
        fsz = alignTo(fsz, al.value());
        for (User *u : make_early_inc_range(a->users()))
            if (auto *ii = dyn_cast<IntrinsicInst>(u))
                if (ii->isLifetimeStartOrEnd())
                    ii->eraseFromParent();
        // The slot's address in the entry: an alloca the inliner left in
        // a later block may have uses past a point, which that block no
        // longer dominates.
        IRBuilder<> b(E->getTerminator());
        a->replaceAllUsesWith(b.CreateConstInBoundsGEP1_64(i8, frame, fsz));
        fsz += sz->getFixedValue();
        a->eraseFromParent();
    }
    unsigned frame_size = (unsigned)alignTo(fsz, falign.value());
    if (frame_size > (1u << 20))
        errors += "error: SIMT kernel " + id + ": " + std::to_string(frame_size) +
                  " bytes of per-thread locals, more than 1 MiB\n";
    return frame_size;
}

} // namespace simt_detail
} // namespace arc_rtc
