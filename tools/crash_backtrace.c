/* crash_backtrace.c - a native backtrace when the test process dies.
 * tools/run_tests.sh builds this and tests/conftest.py loads it (before
 * Python's faulthandler, which chains to it after dumping the Python
 * stacks).  On SIGABRT/SIGSEGV/SIGBUS/SIGILL/SIGFPE it writes the
 * crashing thread's frames to the file named by ASCENDRTC_TEST_TRAIL with
 * ".native" appended; run_tests.sh resolves them with addr2line. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int out = -1;

static void on_crash(int sig)
{
    void *frames[64];
    int n = backtrace(frames, 64);
    if (out >= 0)
        backtrace_symbols_fd(frames, n, out);
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void install(void)
{
    const char *trail = getenv("ASCENDRTC_TEST_TRAIL");
    char path[4096];
    if (!trail || strlen(trail) + sizeof ".native" > sizeof path)
        return;
    strcpy(path, trail);
    strcat(path, ".native");
    out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc now, not inside the handler */
    static const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_crash);
}
