/* prewarm.c - ascendrtc_rtc_prewarm (common/exports.h): one throwaway
 * compile that sets the compiler up before the user's first one.  A new
 * process's first compile pays for what later ones find ready: the LLVM
 * target's tables, the device headers mounted in memory, and the first
 * touch of clang's and LLVM's code and lazily built state (passes, target
 * machine).  The extension runs this on a thread of its own while Python
 * is still importing (csrc/ext/prewarm.c).  The source does not include
 * kernel_operator.h, so no precompiled device API is built or loaded: that
 * stays with the cache-backed store of the first real compile. */
#include <string.h>

#include "acl/acl_rt_compile.h"
#include "common/exports.h"
#include "compile.h"

/* A loop the optimiser vectorises and the back end selects with its
 * optimising path, as kernels' loops are. */
static const char kSource[] = "extern \"C\" void __arc_prewarm(float *x, const float *y, int n)\n"
                              "{\n"
                              "    for (int i = 0; i < n; i++)\n"
                              "        x[i] = x[i] * 2.0f + y[i];\n"
                              "}\n";

void ascendrtc_rtc_prewarm(const int *cancel)
{
    const char *const options[] = {"--npu-arch=dav-2201", "-O2"};
    rtc_opts o;
    char err[256];
    memset(&o, 0, sizeof o);
    if (rtc_opts_parse(2, options, &o, err, sizeof err) != ACL_SUCCESS)
        return;
    rtc_request req;
    memset(&req, 0, sizeof req);
    req.text = kSource;
    req.len = sizeof kSource - 1;
    req.file_name = "prewarm.cpp";
    req.opts = &o;
    req.cancel = cancel;
    rtc_result res;
    rtc_compile(&req, &res); /* the result is not wanted, only the warmth */
    rtc_result_free(&res, 0);
    rtc_opts_free(&o);
}
