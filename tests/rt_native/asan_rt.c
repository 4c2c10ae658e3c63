/* asan_rt.c - drives the runtime's memory, stream, event, args and launch
 * paths, good and bad, for the sanitizer build (make asan).  With a kernel
 * binary path (the add kernel of tests/helpers/rt_kernels.py: x, y, z,
 * int n) it also loads, packs arguments and launches from several threads;
 * with a second path (the trap kernel: out, int bad, int mode) it checks
 * that traps - also of blocks waiting in SyncAll - are reported cleanly;
 * with a third (the wait kernel: blocks waiting for the last one through
 * GM) that the stall detector lets such a launch finish; with a fourth (the
 * mix kernel: out, int bad) that MIX sub-cores switch as fibers and a trap
 * unwinds the ones waiting.
 * Prints ASAN_RT_OK and exits 0 when every check held. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

static int failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #cond, \
                    aclGetRecentErrMsg());                                           \
            failures++;                                                              \
        }                                                                            \
    } while (0)
#define OK(x) CHECK((x) == ACL_SUCCESS)

static void memory_paths(void)
{
    void *d = NULL, *h = NULL, *d2 = NULL;
    OK(aclrtMalloc(&d, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&d2, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
    OK(aclrtMallocHost(&h, 1000));
    memset(h, 0x5a, 1000);
    OK(aclrtMemcpy(d, 1000, h, 1000, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(d2, 1000, d, 1000, ACL_MEMCPY_DEVICE_TO_DEVICE));
    OK(aclrtMemset(d, 1000, 0, 500));
    char back[1000];
    OK(aclrtMemcpy(back, sizeof back, d2, 1000, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(back[0] == 0x5a && back[999] == 0x5a);
    CHECK(aclrtMemcpy(d, 1000, h, 1001, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclrtMemcpy(d, 2000, h, 1001, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclrtMemset((char *)d + 999, 10, 0, 2) == ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclrtFree((char *)d + 8) == ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclrtFree(h) == ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclrtMalloc(&d, 0, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
    OK(aclrtFree(d2));
    CHECK(aclrtFree(d2) == ACL_ERROR_RT_PARAM_INVALID); /* double free: reported, not performed */
    CHECK(aclrtMemcpy(d2, 8, h, 8, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtFree(d));
    OK(aclrtFreeHost(h));
    size_t fr, tot;
    OK(aclrtGetMemInfo(1, &fr, &tot));
    CHECK(fr <= tot);
}

static void stream_event_paths(void)
{
    aclrtStream s1, s2;
    aclrtEvent a, b;
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateStreamWithConfig(&s2, 1, 0));
    OK(aclrtCreateEvent(&a));
    OK(aclrtCreateEventWithFlag(&b, ACL_EVENT_TIME_LINE));
    void *d, *h;
    OK(aclrtMalloc(&d, 1 << 16, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&h, 1 << 16));
    OK(aclrtRecordEvent(a, s1));
    for (int i = 0; i < 20; i++)
        OK(aclrtMemsetAsync(d, 1 << 16, i, 1 << 16, s1));
    OK(aclrtRecordEvent(b, s1));
    OK(aclrtStreamWaitEvent(s2, b));
    OK(aclrtMemcpyAsync(h, 1 << 16, d, 1 << 16, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    OK(aclrtSynchronizeStream(s2));
    CHECK(((unsigned char *)h)[100] == 19);
    float ms = -1;
    OK(aclrtSynchronizeEvent(b));
    OK(aclrtEventElapsedTime(&ms, a, b));
    CHECK(ms >= 0);
    aclrtEventRecordedStatus st;
    OK(aclrtQueryEventStatus(b, &st));
    CHECK(st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    OK(aclrtRecordEvent(a, s1));
    OK(aclrtDestroyEvent(a)); /* destroyed while its record may be queued */
    CHECK(aclrtDestroyEvent(a) == ACL_ERROR_RT_INVALID_HANDLE);
    OK(aclrtSynchronizeStreamWithTimeout(s1, 10000));
    OK(aclrtDestroyEvent(b));
    OK(aclrtMemsetAsync(d, 1 << 16, 1, 1 << 16, s1));
    OK(aclrtDestroyStream(s1)); /* drains its queue first */
    CHECK(aclrtDestroyStream(s1) == ACL_ERROR_RT_INVALID_HANDLE);
    CHECK(aclrtSynchronizeStream(s1) == ACL_ERROR_RT_INVALID_HANDLE);
    OK(aclrtDestroyStream(s2));
    OK(aclrtSynchronizeDevice());
    OK(aclrtFree(d));
    OK(aclrtFreeHost(h));
}

static aclrtFuncHandle add_fn;

static void *launch_thread(void *arg)
{
    (void)arg;
    enum { N = 256 };
    float x[N], z[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i;
    void *dx, *dz;
    aclrtStream s;
    OK(aclrtCreateStream(&s));
    OK(aclrtMalloc(&dx, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&dz, sizeof z, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE));
    for (int rep = 0; rep < 10; rep++) {
        aclrtArgsHandle a;
        aclrtParamHandle p;
        int n = 32;
        OK(aclrtKernelArgsInit(add_fn, &a));
        OK(aclrtKernelArgsAppend(a, &dx, 8, &p));
        OK(aclrtKernelArgsAppend(a, &dx, 8, &p));
        CHECK(aclrtKernelArgsAppend(a, &n, 4, &p) == ACL_ERROR_INVALID_PARAM); /* z is 8 bytes */
        OK(aclrtKernelArgsAppend(a, &dz, 8, &p));
        OK(aclrtKernelArgsAppend(a, &n, 4, &p));
        OK(aclrtKernelArgsFinalize(a));
        CHECK(aclrtLaunchKernelWithConfig(add_fn, 0, s, NULL, a, NULL) == ACL_ERROR_RT_PARAM_INVALID);
        OK(aclrtLaunchKernelWithConfig(add_fn, 8, s, NULL, a, NULL));
        void *args[4] = {&dx, &dx, &dz, &n};
        OK(aclrtLaunchKernelWithArgsArray(add_fn, 8, s, NULL, args));
    }
    OK(aclrtSynchronizeStream(s));
    OK(aclrtMemcpy(z, sizeof z, dz, sizeof z, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++)
        CHECK(z[i] == 2.0f * (float)i);
    OK(aclrtFree(dx));
    OK(aclrtFree(dz));
    OK(aclrtDestroyStream(s));
    return NULL;
}

static void kernel_paths(const char *path)
{
    aclrtBinHandle b;
    OK(aclrtBinaryLoadFromFile(path, NULL, &b));
    aclrtFuncHandle bad;
    CHECK(aclrtBinaryGetFunction(b, "nope", &bad) == ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtBinaryGetFunction(b, "add_custom", &add_fn));
    size_t hs, ms;
    OK(aclrtKernelArgsGetHandleMemSize(add_fn, &hs));
    OK(aclrtKernelArgsGetMemSize(add_fn, 28 + 64, &ms)); /* params + placeholder data */
    void *hm = malloc(hs), *um = malloc(ms);
    OK(aclrtKernelArgsInitByUserMem(add_fn, hm, um, ms));
    aclrtParamHandle ph;
    void *null_ptr = NULL;
    OK(aclrtKernelArgsAppend(hm, &null_ptr, 8, &ph));
    CHECK(aclrtKernelArgsAppendPlaceHolder(hm, &ph) == ACL_SUCCESS);
    void *buf;
    OK(aclrtKernelArgsGetPlaceHolderBuffer(hm, ph, 64, &buf));
    memset(buf, 0, 64);
    CHECK(aclrtKernelArgsFinalize(hm) == ACL_ERROR_RT_PARAM_INVALID); /* 2 of 4 params */
    free(hm);
    free(um);
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, launch_thread, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    OK(aclrtBinaryUnLoad(b));
    CHECK(aclrtBinaryUnLoad(b) == ACL_ERROR_RT_INVALID_HANDLE);
    static const unsigned char junk[100] = {0x7f, 'E', 'L', 'F'};
    CHECK(aclrtBinaryLoadFromData(junk, sizeof junk, NULL, &b) == ACL_ERROR_RT_PARAM_INVALID);
}

/* Function `name` of the binary at path (loaded into *b). */
static aclrtFuncHandle load_function(const char *path, const char *name, aclrtBinHandle *b)
{
    aclrtFuncHandle f = NULL;
    OK(aclrtBinaryLoadFromFile(path, NULL, b));
    OK(aclrtBinaryGetFunction(*b, name, &f));
    return f;
}

/* A launch config with one attribute: a timeout of `us` microseconds. */
static aclrtLaunchKernelCfg timeout_cfg(aclrtLaunchKernelAttr *at, uint32_t us)
{
    memset(at, 0, sizeof *at);
    at->id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    at->value.timeoutUs.timeoutLow = us;
    return (aclrtLaunchKernelCfg){at, 1};
}

static void trap_paths(const char *path)
{
    aclrtBinHandle b;
    aclrtFuncHandle f = load_function(path, "trapper", &b);
    void *out;
    OK(aclrtMalloc(&out, 48 * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int mode = 0; mode < 2; mode++) {
        int bad = 47, n = 48;
        void *args[3] = {&out, &bad, &mode};
        OK(aclrtLaunchKernelWithArgsArray(f, (uint32_t)n, NULL, NULL, args));
        CHECK(aclrtSynchronizeStream(NULL) == ACL_ERROR_RT_AICORE_EXCEPTION);
        CHECK(strstr(aclGetRecentErrMsg(), "trapper block 47/48: TestApi: bad value 42") != NULL);
        OK(aclrtSynchronizeStream(NULL));
    }
    OK(aclrtFree(out));
    OK(aclrtBinaryUnLoad(b));
}

/* Reliability paths: faults in kernel code and hangs fail the launch with
 * a message, and the next launch works (modes 2..6 of the trap kernel). */
static void fault_paths(const char *path)
{
    aclrtBinHandle b;
    aclrtFuncHandle f = load_function(path, "trapper", &b);
    void *out;
    OK(aclrtMalloc(&out, 48 * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    static const struct { int mode, n; aclError code; const char *msg; } cases[] = {
        {2, 4, ACL_ERROR_RT_AICORE_EXCEPTION, "invalid memory access"},
        {3, 4, ACL_ERROR_RT_AICORE_EXCEPTION, "TestGm: GM bytes [0, 4096)"},
#ifndef __SANITIZE_THREAD__ /* TSan defers signals until an intercepted call: a spinning core never takes one */
        {4, 4, ACL_ERROR_RT_AICORE_EXCEPTION, "integer division by zero"}, /* TSan: SIGFPE at times fatal */
        {5, 4, ACL_ERROR_RT_AICORE_TIMEOUT, "block 1 running"},
        {6, 4, ACL_ERROR_RT_AICORE_TIMEOUT, "waiting in SyncAll"},
#endif
    };
    aclrtLaunchKernelAttr at;
    aclrtLaunchKernelCfg cfg = timeout_cfg(&at, 200000); /* 0.2 s */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int bad = 1, mode = cases[i].mode;
        OK(aclrtMemset(out, 48 * 4, 0, 48 * 4));
        void *args[3] = {&out, &bad, &mode};
        OK(aclrtLaunchKernelWithArgsArray(f, (uint32_t)cases[i].n, NULL, &cfg, args));
        aclError got = aclrtSynchronizeStream(NULL);
        if (got != cases[i].code)
            fprintf(stderr, "mode %d: ", mode);
        CHECK(got == cases[i].code);
        CHECK(strstr(aclGetRecentErrMsg(), cases[i].msg) != NULL);
        int ok_mode = 0, nobad = 99;
        void *good[3] = {&out, &nobad, &ok_mode};
        OK(aclrtLaunchKernelWithArgsArray(f, 4, NULL, &cfg, good)); /* the next launch works */
        OK(aclrtSynchronizeStream(NULL));
    }
    OK(aclrtFree(out));
    OK(aclrtBinaryUnLoad(b));
}

/* Blocks that wait for the last one through GM, without SyncAll: the
 * stall detector must add threads (core_hang.c core_on_stall) until all run. */
static void stall_paths(const char *path)
{
    aclrtBinHandle b;
    aclrtFuncHandle f = load_function(path, "wait_last", &b);
    int *flag;
    OK(aclrtMalloc((void **)&flag, 64 * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtLaunchKernelAttr at;
    aclrtLaunchKernelCfg cfg = timeout_cfg(&at, 30000000); /* 30 s: a regression fails instead of hanging */
    for (uint32_t n = 3; n <= 24; n *= 2) {
        OK(aclrtMemset(flag, 64 * 4, 0, 64 * 4));
        void *args[1] = {&flag};
        OK(aclrtLaunchKernelWithArgsArray(f, n, NULL, &cfg, args));
        OK(aclrtSynchronizeStream(NULL));
        for (uint32_t i = 0; i < n; i++)
            CHECK(flag[1 + i] == 1);
    }
    OK(aclrtFree(flag));
    OK(aclrtBinaryUnLoad(b));
}

/* MIX blocks: an AIC and two AIVs as fibers of one thread, flags between
 * them; a trapping AIV fails the block and its waiting AIC unwinds. */
static void mix_paths(const char *path)
{
    aclrtBinHandle b;
    aclrtFuncHandle f = load_function(path, "mixer", &b);
    int *out;
    OK(aclrtMalloc((void **)&out, 128 * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int round = 0; round < 3; round++) {
        int bad = round == 1 ? 3 : -1;
        OK(aclrtMemset(out, 128 * 4, 0, 128 * 4));
        void *args[2] = {&out, &bad};
        OK(aclrtLaunchKernelWithArgsArray(f, 4, NULL, NULL, args));
        aclError got = aclrtSynchronizeStream(NULL);
        if (bad < 0) {
            OK(got);
            for (int i = 0; i < 8; i++)
                CHECK(out[i] == 1);
            for (int i = 0; i < 4; i++)
                CHECK(out[64 + i] == 1);
        } else {
            CHECK(got == ACL_ERROR_RT_AICORE_EXCEPTION);
            CHECK(strstr(aclGetRecentErrMsg(), "TestMix: bad AIV 3") != NULL);
        }
    }
    OK(aclrtFree(out));
    OK(aclrtBinaryUnLoad(b));
}

int main(int argc, char **argv)
{
    int rc = aclInit(NULL);
    CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_REPEAT_INITIALIZE);
    OK(aclrtSetDevice(0));
    CHECK(aclrtSetDevice(3) == ACL_ERROR_RT_INVALID_DEVICEID);
    memory_paths();
    stream_event_paths();
    if (argc > 1)
        kernel_paths(argv[1]);
    if (argc > 2) {
        trap_paths(argv[2]);
        fault_paths(argv[2]);
    }
    if (argc > 3)
        stall_paths(argv[3]);
    if (argc > 4)
        mix_paths(argv[4]);
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    puts("ASAN_RT_OK");
    return 0;
}
