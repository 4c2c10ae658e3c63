// annotations.cpp - see annotations.h.
#include "annotations.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>
#pragma GCC diagnostic pop

namespace arc_rtc {

std::vector<Annotation> annotations(llvm::Module &m)
{
    std::vector<Annotation> out;
    llvm::GlobalVariable *ga = m.getGlobalVariable("llvm.global.annotations", true);
    auto *arr = ga && ga->hasInitializer() ? llvm::dyn_cast<llvm::ConstantArray>(ga->getInitializer()) : nullptr;
    for (unsigned i = 0; arr && i < arr->getNumOperands(); i++) {
        auto *e = llvm::dyn_cast<llvm::ConstantStruct>(arr->getOperand(i));
        if (!e || e->getNumOperands() < 5)
            continue;
        auto *g = llvm::dyn_cast<llvm::GlobalValue>(e->getOperand(0)->stripPointerCasts());
        llvm::StringRef text, file;
        if (!g || !llvm::getConstantStringInfo(e->getOperand(1)->stripPointerCasts(), text))
            continue;
        llvm::getConstantStringInfo(e->getOperand(2)->stripPointerCasts(), file);
        auto *line = llvm::dyn_cast<llvm::ConstantInt>(e->getOperand(3));
        auto *ag = llvm::dyn_cast<llvm::GlobalVariable>(e->getOperand(4)->stripPointerCasts());
        out.push_back({e, g, text, file, line ? (unsigned)line->getZExtValue() : 0u,
                       ag && ag->hasInitializer() ? ag->getInitializer() : nullptr});
    }
    return out;
}

} // namespace arc_rtc
