// crash_where.cpp - clang's pretty stack, read by the runtime's fault
// handler (rt/cores/fault.c) before it leaves a crashed compile.  Runs in
// the signal handler: a fixed buffer, no allocation of its own.
#include "crash_where.h"

#include <llvm/Support/PrettyStackTrace.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>

extern "C" void ascendrtc_fault_recovery_note(void (*note)(void));

namespace arc_rtc {
namespace {

thread_local char t_where[640];

// A raw_ostream into t_where (unbuffered: it never allocates a buffer).
class FixedOut : public llvm::raw_ostream {
    size_t n_ = 0;
    void write_impl(const char *p, size_t size) override
    {
        for (size_t i = 0; i < size && n_ + 1 < sizeof t_where; i++)
            if (p[i] != '\n') /* each entry's own: sep() goes between them */
                t_where[n_++] = p[i];
        t_where[n_] = 0;
    }
    uint64_t current_pos() const override { return n_; }

public:
    FixedOut() : llvm::raw_ostream(true) { t_where[0] = 0; }
    void sep()
    {
        if (n_ && n_ + 3 < sizeof t_where) {
            std::memcpy(t_where + n_, "; ", 3);
            n_ += 2;
        }
    }
};

void note()
{
    FixedOut os;
    for (auto *e = static_cast<const llvm::PrettyStackTraceEntry *>(llvm::SavePrettyStackState()); e;
         e = e->getNextEntry()) {
        os.sep();
        e->print(os);
    }
}

} // namespace

void crash_where_arm()
{
    t_where[0] = 0;
    ascendrtc_fault_recovery_note(note);
}

const char *crash_where() { return t_where; }

} // namespace arc_rtc
