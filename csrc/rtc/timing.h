// timing.h - ASCENDRTC_RTC_TIMING: where a compile spent its time, in its log.
#ifndef ARC_RTC_TIMING_H_
#define ARC_RTC_TIMING_H_

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Support/raw_ostream.h>

namespace arc_rtc {

// ASCENDRTC_RTC_TIMING=passes: the phase times plus LLVM's time per pass
// (optimiser and code generator) in the log.  For measuring only: the code
// generator's pass timers are process-wide, so concurrent compiles mix.
inline bool time_passes()
{
    const char *e = std::getenv("ASCENDRTC_RTC_TIMING");
    return e && std::strcmp(e, "passes") == 0;
}

// ASCENDRTC_RTC_TIMING=1 appends where the compile spent its time to the log:
// per phase the wall time and, in brackets, this thread's CPU time (the
// figure that holds when other processes load the machine).
struct PhaseTimer {
    bool on;
    std::string report, passes;
    std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
    double cpu = cpu_ms();
    bool optimising = false; // the optimiser's first pass has run
    PhaseTimer() : on(std::getenv("ASCENDRTC_RTC_TIMING") != nullptr) {}
    static double cpu_ms()
    {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    }
    void lap(const char *what)
    {
        if (!on)
            return;
        auto now = std::chrono::steady_clock::now();
        double c = cpu_ms();
        char buf[128];
        std::snprintf(buf, sizeof buf, "%s %s %.1f ms (cpu %.1f)", report.empty() ? "timing:" : ",", what,
                      std::chrono::duration<double, std::milli>(now - t).count(), c - cpu);
        report += buf;
        t = now;
        cpu = c;
    }
    // The optimised module's size, what the code generator gets.
    void count_ir(const llvm::Module &m)
    {
        size_t n = 0, fns = 0;
        for (const llvm::Function &f : m)
            if (!f.isDeclaration()) {
                fns++;
                n += f.getInstructionCount();
            }
        report += std::string(report.empty() ? "timing:" : ",") + " ir " + std::to_string(n) + " instructions in " +
                  std::to_string(fns) + " functions";
    }
};
// ASCENDRTC_RTC_DUMP_IR=<prefix>: the device module as text into
// <prefix><suffix> (for measuring: why a loop did not vectorise, what the
// code generator got).  Concurrent compiles overwrite each other's files.
inline void dump_ir(const llvm::Module &m, const char *suffix)
{
    const char *p = std::getenv("ASCENDRTC_RTC_DUMP_IR");
    if (!p || !*p)
        return;
    std::error_code ec;
    llvm::raw_fd_ostream os(std::string(p) + suffix, ec);
    if (!ec)
        m.print(os, nullptr);
}

// dump_ir as a module pass, at a point of the optimiser's pipeline.
struct DumpIr : llvm::PassInfoMixin<DumpIr> {
    const char *suffix;
    explicit DumpIr(const char *s) : suffix(s) {}
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
    {
        dump_ir(m, suffix);
        return llvm::PreservedAnalyses::all();
    }
};

// The running compile's timer, for the laps taken inside clang's action.
inline thread_local PhaseTimer *t_timer;

} // namespace arc_rtc

#endif
