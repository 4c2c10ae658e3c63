// host_ctors.cpp - see host_ctors.h.
#include "host_ctors.h"

#include <algorithm>
#include <cstring>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/IR/IRBuilder.h>
#pragma GCC diagnostic pop

namespace arc_host_jit {


// llvm.global_ctors (the files' static initialisers, in priority order,
// each file's in declaration order) becomes the body of `name`: the host
// driver's __arc_host_ctors, which arc/host_driver.h's arc_host_init calls,
// or a library unit's __arc_unit_<id>_ctors (defined here, with its state
// byte).  The op's first runs the units it links, each at most once per
// process (__arc_host_unit).
bool move_ctors(llvm::Module &m, const std::string &name, const std::vector<UnitRef> &units, std::string &log)
{
    // clang declares __dso_handle hidden (in the same DSO), so code reaches it
    // PC-relative; in the JIT it is the JITDylib's, in another mapping that
    // may lie over 2 GB away ("out of range of Delta32 fixup"): reach it
    // through the GOT, as any symbol of another image.
    if (llvm::GlobalVariable *dso = m.getNamedGlobal("__dso_handle"); dso && dso->isDeclaration()) {
        dso->setVisibility(llvm::GlobalValue::DefaultVisibility);
        dso->setDSOLocal(false);
    }
    std::vector<std::pair<unsigned, llvm::Function *>> ctors;
    for (const auto &c : llvm::orc::getConstructors(m))
        if (c.Func)
            ctors.emplace_back(c.Priority, c.Func);
    std::stable_sort(ctors.begin(), ctors.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    if (llvm::GlobalVariable *gv = m.getGlobalVariable("llvm.global_ctors", true))
        gv->eraseFromParent();
    llvm::IRBuilder<> b(m.getContext());
    llvm::FunctionType *void_fn = llvm::FunctionType::get(b.getVoidTy(), false);
    bool unit = name != "__arc_host_ctors";
    llvm::Function *f = m.getFunction(name);
    if (unit && !f) {
        f = llvm::Function::Create(void_fn, llvm::GlobalValue::ExternalLinkage, name, m);
        std::string state = name.substr(0, name.size() - std::strlen("ctors")) + "state";
        new llvm::GlobalVariable(m, b.getInt8Ty(), false, llvm::GlobalValue::ExternalLinkage, b.getInt8(0), state);
    }
    if (!f || !f->isDeclaration() || f->arg_size() != 0) {
        log += "error: the host driver declares no " + name + "(void)\n";
        return false;
    }
    b.SetInsertPoint(llvm::BasicBlock::Create(m.getContext(), "entry", f));
    llvm::Function *run = units.empty() ? nullptr : m.getFunction("__arc_host_unit");
    if (!units.empty() && !run) {
        log += "error: the host driver defines no __arc_host_unit\n";
        return false;
    }
    for (const UnitRef &u : units) {
        std::string base = "__arc_unit_" + u.id + "_";
        llvm::Constant *state = m.getOrInsertGlobal(base + "state", b.getInt8Ty());
        llvm::FunctionCallee body = m.getOrInsertFunction(base + "ctors", void_fn);
        b.CreateCall(run, {b.CreateGlobalStringPtr(u.path), state, body.getCallee()});
    }
    for (auto &c : ctors)
        b.CreateCall(c.second->getFunctionType(), c.second);
    b.CreateRetVoid();
    return true;
}

// llvm.global_dtors (__attribute__((destructor)), reverse priority order)
// becomes the body of __arc_host_dtors, which arc_host_fini calls, so the
// op's code runs only where ascendrtc calls it, contained, never from ORC's
// platform hooks.  A library unit's are dropped: units live as long as the
// process and are never unloaded.
bool move_dtors(llvm::Module &m, bool unit, std::string &log)
{
    std::vector<std::pair<unsigned, llvm::Function *>> fns;
    if (llvm::GlobalVariable *gv = m.getGlobalVariable("llvm.global_dtors", true)) {
        for (const auto &c : llvm::orc::getDestructors(m))
            if (c.Func)
                fns.emplace_back(c.Priority, c.Func);
        gv->eraseFromParent();
    }
    if (unit)
        return true;
    std::stable_sort(fns.begin(), fns.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    std::reverse(fns.begin(), fns.end());
    llvm::Function *f = m.getFunction("__arc_host_dtors");
    if (!f || !f->isDeclaration() || f->arg_size() != 0) {
        log += "error: the host driver declares no __arc_host_dtors(void)\n";
        return false;
    }
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(m.getContext(), "entry", f));
    for (auto &c : fns)
        b.CreateCall(c.second->getFunctionType(), c.second);
    b.CreateRetVoid();
    return true;
}

} // namespace arc_host_jit
