/* c_flow.c - ascendrtc's simulated NPU from plain C, through CANN's own API:
 * a templated kernel with an in-memory header, compiled in process, a name
 * expression to its lowered name, a launch with aclrtLaunchKernelWithArgsArray
 * timed by events, and what a compile error looks like.
 *
 *   source "$(python3 -m ascendrtc home)/set_env.sh"
 *   cc -std=c11 examples/c_flow.c -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 \
 *      -lascendcl -lacl_rtc -o c_flow && ./c_flow
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"

#define CHECK(call)                                                                          \
    do {                                                                                     \
        aclError rc_ = (call);                                                               \
        if (rc_ != ACL_SUCCESS) {                                                            \
            fprintf(stderr, "%s:%d: %s -> %d: %s\n", __FILE__, __LINE__, #call, rc_,        \
                    aclGetRecentErrMsg());                                                   \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* y[i] = x[i] * SCALE for a block's slice; T and the slice length are
 * template parameters, SCALE comes from an in-memory header. */
static const char *kSource =
    "#include \"kernel_operator.h\"\n"
    "#include \"scale.h\"\n"
    "template <typename T, int32_t LEN>\n"
    "__global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y)\n"
    "{\n"
    "    AscendC::GlobalTensor<T> xg, yg;\n"
    "    xg.SetGlobalBuffer((__gm__ T *)x + LEN * AscendC::GetBlockIdx(), LEN);\n"
    "    yg.SetGlobalBuffer((__gm__ T *)y + LEN * AscendC::GetBlockIdx(), LEN);\n"
    "    AscendC::TPipe pipe;\n"
    "    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;\n"
    "    pipe.InitBuffer(buf, LEN * sizeof(T));\n"
    "    AscendC::LocalTensor<T> t = buf.Get<T>();\n"
    "    AscendC::DataCopy(t, xg, LEN);\n"
    "    AscendC::PipeBarrier<PIPE_ALL>();\n" /* pipes run concurrently on an NPU */
    "    AscendC::Muls(t, t, (T)SCALE, LEN);\n"
    "    AscendC::PipeBarrier<PIPE_ALL>();\n"
    "    AscendC::DataCopy(yg, t, LEN);\n"
    "}\n";
static const char *kHeader = "constexpr float SCALE = 2.5f;\n";
static const char *kHeaderName = "scale.h";

static void show_compile_error(void)
{
    aclrtcProg prog;
    const char *bad = "#include \"kernel_operator.h\"\n"
                      "extern \"C\" __global__ __aicore__ void broken(GM_ADDR x)\n"
                      "{\n    AscendC::GlobalTensor<float> g\n}\n";
    CHECK(aclrtcCreateProg(&prog, bad, "broken.asc", 0, NULL, NULL));
    aclError rc = aclrtcCompileProg(prog, 0, NULL);
    size_t n;
    CHECK(aclrtcGetCompileLogSize(prog, &n));
    char *log = malloc(n);
    CHECK(aclrtcGetCompileLog(prog, log));
    printf("a compile error (%d), as the log shows it:\n%s", rc, log);
    free(log);
    CHECK(aclrtcDestroyProg(&prog));
}

int main(void)
{
    enum { BLOCKS = 8, LEN = 64, N = BLOCKS * LEN };
    const char *expr = "scale<float, 64>";

    aclrtcProg prog;
    CHECK(aclrtcCreateProg(&prog, kSource, "scale.asc", 1, &kHeader, &kHeaderName));
    CHECK(aclrtcAddNameExpr(prog, expr));
    const char *opts[] = {"--npu-arch=dav-2201", "-O2"};
    CHECK(aclrtcCompileProg(prog, 2, opts));
    const char *lowered;
    CHECK(aclrtcGetLoweredName(prog, expr, &lowered));
    size_t size;
    CHECK(aclrtcGetBinDataSize(prog, &size));
    char *bin = malloc(size);
    CHECK(aclrtcGetBinData(prog, bin));
    printf("compiled %s -> %s (%zu-byte binary)\n", expr, lowered, size);

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));
    aclrtBinHandle binary;
    CHECK(aclrtBinaryLoadFromData(bin, size, NULL, &binary));
    aclrtFuncHandle fn;
    CHECK(aclrtBinaryGetFunction(binary, lowered, &fn));
    size_t nparams;
    CHECK(aclrtFunctionGetParamCount(fn, &nparams));

    float host[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i;
    void *x, *y;
    CHECK(aclrtMalloc(&x, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(x, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtEvent start, stop;
    CHECK(aclrtCreateEvent(&start));
    CHECK(aclrtCreateEvent(&stop));
    void *args[] = {&x, &y};
    CHECK(aclrtRecordEvent(start, stream));
    CHECK(aclrtLaunchKernelWithArgsArray(fn, BLOCKS, stream, NULL, args));
    CHECK(aclrtRecordEvent(stop, stream));
    CHECK(aclrtSynchronizeStream(stream));
    float ms;
    CHECK(aclrtEventElapsedTime(&ms, start, stop));

    float out[N];
    CHECK(aclrtMemcpy(out, sizeof out, y, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != host[i] * 2.5f;
    printf("%zu params, %d blocks, %.3f ms, y[%d] = %g, mismatches: %d\n", nparams, BLOCKS, ms, N - 1,
           out[N - 1], bad);

    /* errors come back as codes plus a sentence */
    aclError rc = aclrtBinaryGetFunction(binary, "no_such_kernel", &fn);
    printf("unknown kernel -> %d: %s\n", rc, aclGetRecentErrMsg());
    show_compile_error();

    CHECK(aclrtDestroyEvent(start));
    CHECK(aclrtDestroyEvent(stop));
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtBinaryUnLoad(binary));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    CHECK(aclrtcDestroyProg(&prog));
    free(bin);
    return bad != 0;
}
