// orc_perfmap.cpp - ASCENDRTC_PERF_MAP=1: every function a loaded kernel
// binary defines is appended to /tmp/perf-<pid>.map (perf's convention for
// JIT code: "start size name" in hex), so `perf record` / `perf top` name
// kernels and the device API's out-of-line helpers instead of showing raw
// addresses.  A JITLink plugin sees the final addresses after fix-up.
#include "rt/loader/orc_perfmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memory>
#include <mutex>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/ExecutionEngine/JITLink/JITLink.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#pragma GCC diagnostic pop

namespace {

std::mutex map_mu;

// Appends one line per defined callable symbol; the file is opened per
// image so that a fork()ed child (new pid) writes its own map.
llvm::Error write_map(llvm::jitlink::LinkGraph &G)
{
    std::lock_guard<std::mutex> g(map_mu);
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
    FILE *f = fopen(path, "a");
    if (!f)
        return llvm::Error::success();  // profiling aid only: never fail a load over it
    for (llvm::jitlink::Symbol *s : G.defined_symbols()) {
        if (!s->isCallable() || !s->hasName() || s->getSize() == 0)
            continue;
        fprintf(f, "%llx %llx %s\n", (unsigned long long)s->getAddress().getValue(),
                (unsigned long long)s->getSize(), s->getName().str().c_str());
    }
    fclose(f);
    return llvm::Error::success();
}

class PerfMapPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
    void modifyPassConfig(llvm::orc::MaterializationResponsibility &, llvm::jitlink::LinkGraph &,
                          llvm::jitlink::PassConfiguration &c) override
    {
        c.PostFixupPasses.push_back(write_map);
    }
    llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility &) override { return llvm::Error::success(); }
    llvm::Error notifyRemovingResources(llvm::orc::JITDylib &, llvm::orc::ResourceKey) override
    {
        return llvm::Error::success();
    }
    void notifyTransferringResources(llvm::orc::JITDylib &, llvm::orc::ResourceKey, llvm::orc::ResourceKey) override {}
};

}  // namespace

int sim_orc_perfmap_wanted(void)
{
    const char *e = getenv("ASCENDRTC_PERF_MAP");
    return e && *e && strcmp(e, "0") != 0;
}

void sim_orc_perfmap_attach(llvm::orc::ObjectLayer &layer)
{
    if (auto *oll = llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(&layer))
        oll->addPlugin(std::make_unique<PerfMapPlugin>());
}
