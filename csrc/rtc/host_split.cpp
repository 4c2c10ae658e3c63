// host_split.cpp - see host_split.h.
#include "host_split.h"

#include <cstdlib>
#include <set>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>
#pragma GCC diagnostic pop

#include "program_host.h"

namespace arc_rtc {
namespace {

// The kernel a site record launches: rec = {lowered, entry, &kfn, &desc}.
const llvm::Function *site_kernel(const llvm::GlobalVariable &rec)
{
    auto *init = rec.hasInitializer() ? llvm::dyn_cast<llvm::ConstantStruct>(rec.getInitializer()) : nullptr;
    if (!init || init->getNumOperands() < 4)
        return nullptr;
    auto *kfn = llvm::dyn_cast<llvm::GlobalVariable>(init->getOperand(2)->stripPointerCasts());
    if (!kfn || !kfn->hasInitializer())
        return nullptr;
    return llvm::dyn_cast<llvm::Function>(kfn->getInitializer()->stripPointerCasts());
}

std::string pretty(const std::string &sym)
{
    std::string d = llvm::demangle(sym);
    return d == sym ? sym : d;
}

// Everything a kernel entry reaches, by name: the device side.
std::set<std::string> device_names(const llvm::Module &m)
{
    std::unique_ptr<llvm::Module> dev = llvm::CloneModule(m);
    strip_host_code(*dev);
    std::set<std::string> out;
    for (const llvm::GlobalValue &g : dev->global_values())
        if (!g.isDeclaration())
            out.insert(g.getName().str());
    return out;
}

} // namespace

std::vector<SiteEntry> site_entries(llvm::Module &m)
{
    std::vector<SiteEntry> out;
    std::set<const llvm::Function *> seen;
    for (llvm::GlobalVariable &g : m.globals()) {
        if (!is_site_rec(g))
            continue;
        auto *k = const_cast<llvm::Function *>(site_kernel(g));
        auto *init = llvm::cast<llvm::ConstantStruct>(g.getInitializer());
        auto *entry = llvm::dyn_cast<llvm::Function>(init->getOperand(1)->stripPointerCasts());
        auto *desc = llvm::dyn_cast<llvm::GlobalVariable>(init->getOperand(3)->stripPointerCasts());
        if (!k || !entry || !desc || !seen.insert(k).second)
            continue;
        std::string name = k->getName().str();
        llvm::ItaniumPartialDemangler d;
        if (!d.partialDemangle(name.c_str()))
            if (char *fn = d.getFunctionName(nullptr, nullptr)) {
                name = fn;
                std::free(fn);
            }
        out.push_back({k, desc, entry->getName().str(), name});
    }
    return out;
}

std::unique_ptr<llvm::Module> split_host(const llvm::Module &m, const char *file, std::string *log)
{
    std::set<std::string> dev = device_names(m);
    std::unique_ptr<llvm::Module> host = llvm::CloneModule(m);
    llvm::LLVMContext &ctx = host->getContext();
    auto *ptr = llvm::PointerType::getUnqual(ctx);
    for (llvm::GlobalVariable &g : host->globals()) {
        if (!is_site_rec(g))
            continue;
        const llvm::Function *k = site_kernel(g);
        if (!k || k->isDeclaration()) {
            *log += std::string(file) + ": error: the kernel " +
                    (k ? "'" + pretty(k->getName().str()) + "'" : std::string("of a <<<...>>> launch")) +
                    " is launched with <<<...>>> but not defined in this file: ascendrtc cc builds each file's "
                    "kernels into its own device binary (define the kernel in the file that launches it)\n";
            return nullptr;
        }
        llvm::Constant *name = llvm::ConstantDataArray::getString(ctx, k->getName());
        auto *gv = new llvm::GlobalVariable(*host, name->getType(), true, llvm::GlobalValue::PrivateLinkage, name,
                                            "__arc_site_name");
        auto *st = llvm::cast<llvm::StructType>(g.getValueType());
        std::vector<llvm::Constant *> fields{gv};
        for (unsigned i = 1; i < st->getNumElements(); i++)
            fields.push_back(llvm::Constant::getNullValue(st->getElementType(i)));
        (void)ptr;
        g.setInitializer(llvm::ConstantStruct::get(st, fields));
    }
    // Roots: what the host part defines (main, functions and data the
    // kernel side does not reach), static constructors and destructors.
    std::vector<const llvm::GlobalValue *> roots;
    for (const llvm::GlobalValue &g : host->global_values()) {
        if (g.isDeclaration() || g.hasLocalLinkage() || g.isDiscardableIfUnused() || dev.count(g.getName().str()))
            continue;
        if (g.getName().starts_with("llvm."))
            continue;
        roots.push_back(&g);
    }
    for (const char *n : {"llvm.global_ctors", "llvm.global_dtors"})
        if (const llvm::GlobalVariable *gv = host->getGlobalVariable(n, true))
            roots.push_back(gv);
    for (const char *n : {"llvm.used", "llvm.compiler.used"})
        if (llvm::GlobalVariable *gv = host->getGlobalVariable(n, true))
            gv->eraseFromParent(); /* __global__ kernels are `used`: the device side's */
    keep_reachable(*host, std::move(roots));
    // The device API's global printf template also catches the host part's
    // printf calls: those print through the host's printf (libascendcl).
    if (llvm::Function *pf = host->getFunction("__arc_printf_v"))
        pf->setName("ascendrtc_host_printf_v");
    // Likewise its trap (assert() is the device API's in a single-source file).
    if (llvm::Function *tf = host->getFunction("__arc_trap"))
        tf->setName("ascendrtc_host_trap");
    return host;
}

void embed_device_binary(llvm::Module &host, const unsigned char *bin, size_t size, const char *soc, bool rdc)
{
    llvm::LLVMContext &ctx = host.getContext();
    auto *data = llvm::ConstantDataArray::get(ctx, llvm::ArrayRef<uint8_t>(bin, size));
    auto *gv = new llvm::GlobalVariable(host, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data,
                                        "__arc_device_bin");
    gv->setAlignment(llvm::Align(16));
    auto *len = llvm::ConstantInt::get(llvm::Type::getInt64Ty(ctx), size);
    auto *lgv = new llvm::GlobalVariable(host, len->getType(), true, llvm::GlobalValue::PrivateLinkage, len,
                                         "__arc_device_bin_size");
    for (auto [name, def] : {std::pair<const char *, llvm::GlobalVariable *>{"__arc_embedded_bin", gv},
                             {"__arc_embedded_bin_size", lgv}})
        if (llvm::GlobalVariable *decl = host.getGlobalVariable(name, true)) {
            decl->replaceAllUsesWith(def);
            decl->eraseFromParent();
        }
    // The program's SoC, before main runs: its host code asks the platform
    // (PlatformAscendCManager::GetInstance()) before any launch.  Weak, so
    // an object linked without libascendcl still links.
    auto *ptr = llvm::PointerType::get(ctx, 0);
    auto *setT = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false);
    llvm::Function *set = host.getFunction("ascendrtc_program_soc");
    if (!set)
        set = llvm::Function::Create(setT, llvm::GlobalValue::ExternalWeakLinkage, "ascendrtc_program_soc", host);
    auto *ctor = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
                                        llvm::GlobalValue::InternalLinkage, "__arc_program_soc", host);
    auto *entry = llvm::BasicBlock::Create(ctx, "", ctor), *call = llvm::BasicBlock::Create(ctx, "", ctor),
         *done = llvm::BasicBlock::Create(ctx, "", ctor);
    llvm::IRBuilder<> b(entry);
    b.CreateCondBr(b.CreateIsNull(set), done, call);
    b.SetInsertPoint(call);
    b.CreateCall(setT, set, {b.CreateGlobalStringPtr(soc, "__arc_program_soc_name", 0, &host)});
    if (rdc) { /* in the same runtime as ascendrtc_program_soc: present when it is */
        auto *regT = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, len->getType()}, false);
        llvm::FunctionCallee reg = host.getOrInsertFunction("ascendrtc_rdc_register", regT);
        if (auto *rf = llvm::dyn_cast<llvm::Function>(reg.getCallee()))
            rf->setLinkage(llvm::GlobalValue::ExternalWeakLinkage);
        b.CreateCall(reg, {gv, len});
    }
    b.CreateBr(done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
    llvm::appendToGlobalCtors(host, ctor, 65535);
}

} // namespace arc_rtc
