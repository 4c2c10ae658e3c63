// emit_split.cpp - see emit_split.h.
#include "emit_split.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include <pthread.h>

#include "acl/acl_rt_compile.h"
#include "elf_merge.h"
#include "emit.h"
#include "limits.h"
#include "timing.h"

// libascendcl (fault.c): a fault on this thread siglongjmps to jb.
extern "C" void ascendrtc_fault_recovery(sigjmp_buf *jb);

namespace arc_rtc {
namespace {

// Below this many instructions a second thread saves less than it costs
// (the bitcode round trip and the join are about 5% of the generation).
constexpr size_t kSplitMin = 1000;
// At most this many parts (threads) however many are asked for.
constexpr unsigned kMaxParts = 64;

// How many parts m is generated in (1: whole).
unsigned parts_for(const llvm::Module &m)
{
    bool simt = false;
    size_t insts = 0, fns = 0;
    for (const llvm::Function &f : m) {
        if (f.isDeclaration())
            continue;
        simt |= f.getName().starts_with("__arc_simt_run_");
        insts += f.getInstructionCount();
        fns++;
    }
    /* one part per kSplitMin instructions, at least 2, at most the cores */
    size_t n = insts >= kSplitMin ? std::min<size_t>({std::max<size_t>(2, insts / kSplitMin),
                                                      std::thread::hardware_concurrency(), kMaxParts})
                                  : 1;
    if (const char *e = std::getenv("ASCENDRTC_CODEGEN_THREADS"); e && *e) {
        char *end;
        unsigned long v = std::strtoul(e, &end, 10);
        if (*end || v < 1 || v > kMaxParts || *e == '-')
            std::fprintf(stderr, "ascendrtc: warning: ASCENDRTC_CODEGEN_THREADS=%s is not a thread count (a whole "
                                 "number from 1 to %u); using the default\n", e, kMaxParts);
        else
            n = v;
    }
    n = std::min(n, fns);
    if (!simt || n < 2 || m.getNamedMetadata("llvm.dbg.cu") || !m.alias_empty() || !m.ifunc_empty())
        return 1;
    for (const llvm::GlobalObject &g : m.global_objects())
        if (g.hasComdat() || (llvm::isa<llvm::GlobalVariable>(g) && llvm::cast<llvm::GlobalVariable>(g).isThreadLocal()))
            return 1; /* a comdat group or TLS: not what the join takes */
    return (unsigned)n;
}

// One part: the module's bitcode and which functions are its in, its
// object (or why not) out.
struct Piece {
    const llvm::SmallVector<char, 0> *bc = nullptr;
    const std::vector<unsigned> *owner = nullptr; // per function of the module, in order: its part
    unsigned index = 0;
    const std::string *cpu = nullptr;
    int opt_level = 0;
    llvm::SmallVector<char, 0> obj;
    std::string log, why;
    int rc = ACL_ERROR_RTC_FAILURE;
    double cpu_ms = 0; // the thread's CPU time (ASCENDRTC_RTC_TIMING)
};

// The part's own copy of the module keeps the bodies of its functions (the
// use lists of what they use in the module's order: the code generated is
// the whole module's) and, part 0, the global variables; the rest become
// declarations.
void generate(Piece &p, const std::string &cpu, int opt_level)
{
    llvm::LLVMContext ctx;
    auto m = llvm::parseBitcodeFile(llvm::MemoryBufferRef(llvm::StringRef(p.bc->data(), p.bc->size()), "part"), ctx);
    if (!m) {
        p.why = "code generation in parts: " + llvm::toString(m.takeError());
        return;
    }
    unsigned k = 0;
    for (llvm::Function &f : **m)
        if (k < p.owner->size() && (*p.owner)[k++] != p.index && !f.isDeclaration())
            f.deleteBody();
    if (p.index)
        for (llvm::GlobalVariable &g : llvm::make_early_inc_range((*m)->globals())) {
            if (g.hasAppendingLinkage()) /* llvm.used and the like: part 0's */
                g.eraseFromParent();
            else if (!g.isDeclaration()) {
                g.setInitializer(nullptr);
                g.setLinkage(llvm::GlobalValue::ExternalLinkage);
                g.setComdat(nullptr);
            }
        }
    std::unique_ptr<llvm::TargetMachine> tm = target_machine((*m)->getTargetTriple(), cpu, opt_level, &p.why);
    if (tm)
        p.rc = generate_code(**m, *tm, p.obj, p.log, false);
}

// A thread's part, contained as rtc_compile contains a compile: an LLVM
// fatal error or a crash ends the part, not the process.
void *generate_contained(void *arg)
{
    Piece *p = static_cast<Piece *>(arg);
    Escape esc;
    t_escape = &esc;
    if (int sig = sigsetjmp(esc.jb, 1)) {
        ascendrtc_fault_recovery(nullptr);
        t_escape = nullptr;
        p->rc = ACL_ERROR_RTC_COMPILATION;
        p->why = sig > 1 ? std::string("the compiler crashed (") + strsignal(sig) +
                               ") generating code; this is a bug in LLVM or in ascendrtc"
                         : esc.why;
        return nullptr;
    }
    ascendrtc_fault_recovery(&esc.jb);
    double t0 = PhaseTimer::cpu_ms();
    generate(*p, *p->cpu, p->opt_level);
    p->cpu_ms = PhaseTimer::cpu_ms() - t0;
    ascendrtc_fault_recovery(nullptr);
    t_escape = nullptr;
    return nullptr;
}

// A local symbol made global to cross between parts, and how it was.
struct Promoted {
    llvm::GlobalValue *gv;
    llvm::GlobalValue::LinkageTypes linkage;
    llvm::GlobalValue::VisibilityTypes visibility;
};

} // namespace

int emit_split(llvm::Module &m, int opt_level, const std::string &cpu, std::vector<char> &obj, std::string &log)
{
    const unsigned n = parts_for(m);
    if (n < 2)
        return kNotSplit;
    // Largest functions first, each to the part with the fewest instructions
    // so far; global variables (data, no code) with part 0.
    std::vector<llvm::Function *> fns;
    for (llvm::Function &f : m)
        if (!f.isDeclaration())
            fns.push_back(&f);
    std::stable_sort(fns.begin(), fns.end(), [](llvm::Function *a, llvm::Function *b) {
        return a->getInstructionCount() > b->getInstructionCount();
    });
    std::map<const llvm::Function *, unsigned> part_of;
    std::vector<size_t> load(n, 0);
    for (llvm::Function *f : fns) {
        unsigned i = (unsigned)(std::min_element(load.begin(), load.end()) - load.begin());
        part_of[f] = i;
        load[i] += f->getInstructionCount() + 1;
    }
    std::vector<unsigned> owner;
    for (llvm::Function &f : m)
        owner.push_back(part_of.count(&f) ? part_of[&f] : 0);
    std::vector<Promoted> promoted;
    std::set<std::string> local;
    for (llvm::GlobalValue &g : m.global_values()) {
        if (!g.hasLocalLinkage() || g.isDeclaration())
            continue;
        promoted.push_back({&g, g.getLinkage(), g.getVisibility()});
        if (!g.hasName())
            g.setName("__arc_cg_local");
        g.setLinkage(llvm::GlobalValue::ExternalLinkage);
        g.setVisibility(llvm::GlobalValue::HiddenVisibility);
        local.insert(g.getName().str());
    }
    auto restore = [&] {
        for (Promoted &p : promoted) {
            p.gv->setLinkage(p.linkage);
            p.gv->setVisibility(p.visibility);
        }
    };
    llvm::SmallVector<char, 0> bc;
    {
        llvm::raw_svector_ostream os(bc);
        llvm::WriteBitcodeToFile(m, os, /*ShouldPreserveUseListOrder=*/true);
    }
    std::vector<Piece> pieces(n);
    for (unsigned i = 0; i < n; i++) {
        pieces[i].bc = &bc;
        pieces[i].owner = &owner;
        pieces[i].index = i;
    }
    // pthreads, not std::thread: a thread the system refuses is a compile
    // generated whole, not an exception (there are none here).
    std::vector<pthread_t> threads;
    for (Piece &p : pieces) {
        p.cpu = &cpu;
        p.opt_level = opt_level;
        pthread_t t;
        if (pthread_create(&t, nullptr, generate_contained, &p))
            break;
        threads.push_back(t);
    }
    for (pthread_t t : threads)
        pthread_join(t, nullptr);
    restore(); /* the parts are generated: the module is the caller's again */
    if (threads.size() < n)
        return kNotSplit;
    int rc = ACL_SUCCESS;
    for (Piece &p : pieces) {
        log += p.log;
        if (!p.why.empty())
            log += "error: " + p.why + "\n";
        if (p.rc != ACL_SUCCESS && rc == ACL_SUCCESS)
            rc = p.rc;
    }
    if (rc != ACL_SUCCESS)
        return rc;
    std::vector<std::vector<char>> objs;
    for (Piece &p : pieces)
        objs.emplace_back(p.obj.begin(), p.obj.end());
    std::string why;
    if (elf_merge(objs, local, obj, &why)) {
        if (t_timer && t_timer->on) { /* this thread's lap leaves the parts out */
            char buf[64];
            t_timer->report += ", code in " + std::to_string(n) + " parts (cpu";
            for (unsigned i = 0; i < n; i++) {
                std::snprintf(buf, sizeof buf, "%s %.1f", i ? " +" : "", pieces[i].cpu_ms);
                t_timer->report += buf;
            }
            t_timer->report += " ms on their threads)";
        }
        return ACL_SUCCESS;
    }
    if (std::getenv("ASCENDRTC_CODEGEN_THREADS"))
        log += "note: code generation in parts not joined (" + why + "): generated whole\n";
    obj.clear();
    return kNotSplit;
}

} // namespace arc_rtc
