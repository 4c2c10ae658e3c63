// metadata.cpp - see metadata.h.
#include "metadata.h"
#include "annotations.h"
#include "host_split.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <cstdlib>
#include <vector>

#include "acl/acl_rt_compile.h"
#include "common/meta.h"
#include "compile_result.h"
#include "device/arc/core_abi.h"
#include "kernel_uses.h"

namespace arc_rtc {
namespace {

// Reads the kdesc array {n, args_size, (offset,size,align,kind)*n}.
bool read_kdesc(llvm::GlobalVariable *gv, std::vector<unsigned> &out)
{
    if (!gv || !gv->hasInitializer())
        return false;
    llvm::Constant *c = gv->getInitializer();
    if (auto *cs = llvm::dyn_cast<llvm::ConstantStruct>(c))
        c = cs->getOperand(0);
    if (auto *cda = llvm::dyn_cast<llvm::ConstantDataArray>(c)) {
        for (unsigned i = 0; i < cda->getNumElements(); i++)
            out.push_back(static_cast<unsigned>(cda->getElementAsInteger(i)));
        return true;
    }
    if (auto *caz = llvm::dyn_cast<llvm::ConstantAggregateZero>(c)) {
        llvm::Type *t = caz->getType();
        unsigned n = t->isArrayTy() ? t->getArrayNumElements() : 2;
        out.assign(n, 0);
        return true;
    }
    return false;
}

// The kernel type a qualifier on the kernel gave (__vector__, __cube__,
// __mix__(c, v): arc/entry.h's __ARC_KTYPE annotation), or -1.
int qualifier_type(llvm::Module &m, const std::string &fn)
{
    for (const Annotation &a : annotations(m)) {
        if (a.target->getName() != fn || a.text != "__arc_ktype")
            continue;
        /* { i8 type }: zeroinitializer when the type is 0 (AIV_ONLY) */
        llvm::Constant *val = a.args ? a.args->getAggregateElement(0u) : nullptr;
        if (auto *ci = llvm::dyn_cast_or_null<llvm::ConstantInt>(val))
            return static_cast<int>(ci->getZExtValue());
    }
    return -1;
}

// The kernel type: the one KERNEL_TASK_TYPE_DEFAULT wrote (a used local
// static _ZZ<enc>E11__arc_ktype), else the qualifier's, else the one CANN's
// compiler infers from the code (kernel_uses.h); *uses gets the ARC_USES_* bits, with
// ARC_USES_WRITTEN when the source wrote the type.
unsigned kernel_type(llvm::Module &m, const std::string &lowered, uint32_t *uses)
{
    std::string enc = lowered.compare(0, 2, "_Z") == 0 ? lowered.substr(2)
                                                        : std::to_string(lowered.size()) + lowered;
    *uses = kernel_uses(m, lowered);
    auto *gv = m.getGlobalVariable("_ZZ" + enc + "E11__arc_ktype", true);
    if (gv && gv->hasInitializer())
        if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(gv->getInitializer())) {
            *uses |= ARC_USES_WRITTEN;
            return static_cast<unsigned>(ci->getZExtValue());
        }
    int q = qualifier_type(m, lowered);
    if (q >= 0) {
        *uses |= ARC_USES_WRITTEN;
        return static_cast<unsigned>(q);
    }
    return inferred_kernel_type(*uses);
}

} // namespace

// Builds the metadata from the descriptors clang computed, then adds it
// to the module as the .arc_meta section.
int add_metadata(llvm::Module &m, const rtc_request *req, const InferredTypes &inferred, const SimtResult &simt,
                 const std::string &cpu, rtc_result *res, std::string &log)
{
    // The entries the trailer named, then the <<<...>>> launch sites' (host_split.h)
    std::vector<SiteEntry> all;
    for (int i = 0; i < req->nentries; i++) {
        std::string id = std::to_string(i);
        auto *kfn = m.getGlobalVariable("__arc_kfn_" + id);
        llvm::Function *f = nullptr;
        if (kfn && kfn->hasInitializer())
            f = llvm::dyn_cast<llvm::Function>(kfn->getInitializer()->stripPointerCasts());
        all.push_back({f, m.getGlobalVariable("__arc_kdesc_" + id), "__arc_entry_" + id, req->entries[i].name});
    }
    for (auto &s : site_entries(m)) {
        // The loader finds an entry by its name: one instantiated for an
        // internal-linkage template argument (a static constexpr tiling of
        // the AOT guide) is internal too, so it is made visible.
        if (llvm::Function *e = m.getFunction(s.entry); e && e->hasLocalLinkage()) {
            e->setLinkage(llvm::GlobalValue::ExternalLinkage);
            e->setVisibility(llvm::GlobalValue::DefaultVisibility);
        }
        bool dup = false;
        for (auto &a : all)
            dup |= a.kernel == s.kernel;
        if (!dup)
            all.push_back(s);
    }
    const int nk = static_cast<int>(all.size());
    arc_meta meta{};
    std::vector<arc_kernel_meta> ks(nk);
    std::vector<std::vector<arc_param>> ps(nk);
    std::vector<std::string> lowered(nk), entry(nk);
    meta.arch = const_cast<char *>(req->opts->arch);
    meta.target_cpu = const_cast<char *>(cpu.c_str());
    meta.options = req->opts->joined;
    meta.nkernels = static_cast<uint32_t>(nk);
    meta.kernels = ks.data();
    static char empty[] = "";
    for (int i = 0; i < nk; i++) {
        std::vector<unsigned> d;
        llvm::Function *f = all[i].kernel;
        if (!read_kdesc(all[i].desc, d) || d.size() < 2 || !f ||
            d.size() < 2 + 4 * static_cast<size_t>(d[0]))
            return fail(res, log, ACL_ERROR_RTC_FAILURE,
                        std::string("internal error: no descriptor for kernel '") + all[i].name + "'");
        lowered[i] = f->getName().str();
        entry[i] = all[i].entry;
        const kscan_kernel *h = i < req->nentries ? req->entries[i].hint : nullptr;
        bool names = h && h->nparams == static_cast<int>(d[0]);
        const std::vector<std::string> *elems = nullptr;  // inferred element types (infer_types.cpp)
        {   // a plain kernel by its name, a template's instance by its mangled name
            auto it = names ? inferred.find(h->name) : inferred.end();
            if (it == inferred.end())
                it = inferred.find(lowered[i]);
            if (it != inferred.end() && it->second.size() == d[0])
                elems = &it->second;
        }
        ps[i].resize(d[0]);
        for (unsigned p = 0; p < d[0]; p++) {
            arc_param &ap = ps[i][p];
            ap.offset = d[2 + 4 * p];
            ap.size = d[3 + 4 * p];
            ap.align = d[4 + 4 * p];
            ap.kind = d[5 + 4 * p];
            ap.name = names ? h->params[p].name : empty;
            ap.type = names ? h->params[p].type : empty;
            // A byte pointer (GM_ADDR) the kernel's casts give one element type.
            ap.elem = elems && ap.kind == ARC_PARAM_POINTER && !meta_element_dtype(&ap)
                          ? const_cast<char *>((*elems)[p].c_str())
                          : empty;
        }
        arc_kernel_meta &k = ks[i];
        k.name = const_cast<char *>(all[i].name.c_str());
        k.lowered = const_cast<char *>(lowered[i].c_str());
        k.entry = const_cast<char *>(entry[i].c_str());
        k.ktype = kernel_type(m, lowered[i], &k.uses);
        k.nparams = d[0];
        k.args_size = d[1];
        auto sk = simt.kernels.find(entry[i]);
        k.simt_threads = sk == simt.kernels.end() ? 0 : sk->second.max_threads;
        k.simt_static_ub = sk == simt.kernels.end() ? 0 : sk->second.static_ub;
        k.params = ps[i].data();
    }
    size_t len = 0;
    unsigned char *bytes = meta_write(&meta, &len);
    if (!bytes)
        return fail(res, log, ACL_ERROR_RTC_OUT_OF_MEMORY, "out of memory writing metadata");
    auto *arr = llvm::ConstantDataArray::get(m.getContext(), llvm::ArrayRef<uint8_t>(bytes, len));
    std::free(bytes);
    auto *gv = new llvm::GlobalVariable(m, arr->getType(), true, llvm::GlobalValue::PrivateLinkage, arr,
                                        "__arc_meta");
    gv->setSection(ARC_META_SECTION);
    gv->setAlignment(llvm::Align(8));
    llvm::appendToUsed(m, {gv});
    res->lowered = static_cast<char **>(std::calloc(req->nentries ? req->nentries : 1, sizeof(char *)));
    if (!res->lowered)
        return fail(res, log, ACL_ERROR_RTC_OUT_OF_MEMORY, "out of memory");
    for (int i = 0; i < req->nentries; i++)
        res->lowered[i] = dup(lowered[i]);
    return ACL_SUCCESS;
}

} // namespace arc_rtc
