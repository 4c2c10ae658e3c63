/* module.c - modules (loaded binaries): aclrtBinaryLoad*, aclrtBinaryGetFunction and function
 * queries.  A binary is an x86-64 ELF object with an ".arc_meta" section
 * (common/meta.h); loading checks the metadata (arch, host CPU, kernel
 * types), links the object with the ORC loader (orc_loader.cpp) and resolves
 * every kernel's entry trampoline at once, so link errors surface at load.
 * The LAZY_LOAD option is accepted; loading is always eager. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/checksum.h"
#include "rt/rt_internal.h"

struct sim_module {
    uint32_t magic;
    sim_orc_image *img;
    arc_meta meta;
    sim_func *funcs; /* one per kernel of meta */
    const sim_arch *arch;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int inflight;    /* launches queued or running */
    int kept;        /* abandoned cores may still run its code: never freed */
};

static const sim_orc_symbol runtime_symbols[] = {
#define X(name) {#name, (void *)&name},
    ARC_KERNEL_SYMBOLS(X)
#undef X
    {NULL, NULL},
};

static const char *ktype_name(uint32_t t)
{
    static const char *n[] = {"KERNEL_TYPE_AIV_ONLY", "KERNEL_TYPE_AIC_ONLY", "KERNEL_TYPE_MIX_AIV_1_0",
                              "KERNEL_TYPE_MIX_AIC_1_0", "KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2",
                              "KERNEL_TYPE_AICORE", "KERNEL_TYPE_VECTORCORE", "KERNEL_TYPE_MIX_AICORE",
                              "KERNEL_TYPE_MIX_VECTOR_CORE"};
    return t < sizeof n / sizeof n[0] ? n[t] : "an unknown kernel type";
}

const char *sim_ktype_describe(const arc_kernel_meta *km, char *buf, size_t n)
{
    uint32_t u = km->uses;
    const char *why = u & ARC_USES_WRITTEN ? "as its KERNEL_TASK_TYPE says"
                      : u & ARC_USES_MATMUL ? "inferred from its use of the Matmul API, as CANN's compiler does"
                      : (u & ARC_USES_CUBE) && (u & ARC_USES_VEC)
                          ? "inferred from its cube and vector instructions, as CANN's compiler does"
                      : u & ARC_USES_CUBE ? "inferred from its cube instructions, as CANN's compiler does"
                                          : "the default";
    snprintf(buf, n, "%s, %s", ktype_name(km->ktype), why);
    return buf;
}

/* The aclrtBinaryLoadOptions CANN documents (lazy load, magic).  *magic is 0
 * when none. */
static aclError check_options(const char *api, const aclrtBinaryLoadOptions *o, int from_file, uint32_t *magic)
{
    *magic = 0;
    if (!o)
        return ACL_SUCCESS;
    if (o->numOpt && !o->options)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "options->numOpt is %zu but options->options is NULL",
                       o->numOpt);
    for (size_t i = 0; i < o->numOpt; i++) {
        const aclrtBinaryLoadOption *op = &o->options[i];
        switch ((int)op->type) {
        case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
            if (op->value.isLazyLoad > 1)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                               "option %zu: ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD value %u must be 0 or 1", i,
                               op->value.isLazyLoad);
            break;
        case ACL_RT_BINARY_LOAD_OPT_MAGIC:
            if (from_file)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                               "option %zu: ACL_RT_BINARY_LOAD_OPT_MAGIC is only accepted by "
                               "aclrtBinaryLoadFromData", i);
            if (op->value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE &&
                op->value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
                op->value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
                return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                               "option %zu: magic 0x%08x is not ACL_RT_BINARY_MAGIC_ELF_AICORE (0x43554245), "
                               "_VECTOR_CORE (0x41415246) or _CUBE_CORE (0x41494343)", i, op->value.magic);
            *magic = op->value.magic;
            break;
        case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
            return sim_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api,
                           "option %zu: ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE (AI CPU kernels) is not supported "
                           "by the simulated NPU", i);
        default:
            return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                           "option %zu: unknown option type %d (valid: 1 LAZY_LOAD, 2 MAGIC/LAZY_MAGIC)", i,
                           (int)op->type);
        }
    }
    return ACL_SUCCESS;
}

static void bin_free(sim_module *b)
{
    for (uint32_t i = 0; b->funcs && i < b->meta.nkernels; i++) {
        sim_handle_del(&b->funcs[i]);
        b->funcs[i].magic = 0;
    }
    sim_orc_unload(b->img);
    meta_free(&b->meta);
    free(b->funcs);
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
    b->magic = 0;
    free(b);
}

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static uint32_t host_threads;
static int use_fibers; /* run the blocks of SyncAll kernels as fibers (ASCENDRTC_FIBERS, default 1) */

/* Threads for kernels whose blocks never wait for each other: the host's
 * CPUs (more only add a wake-up and a context switch per block), or
 * ASCENDRTC_CORE_THREADS. */
static void host_threads_init(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    const char *e = getenv("ASCENDRTC_CORE_THREADS");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        if (*end == '\0' && v > 0 && v <= 4096)
            n = v;
        else
            fprintf(stderr, "ascendrtc: warning: ASCENDRTC_CORE_THREADS=%s is not a thread count (a whole number "
                            "from 1 to 4096); using the host's %ld CPUs\n", e, n);
    }
    host_threads = n > 0 ? (uint32_t)n : 1;
    const char *f = getenv("ASCENDRTC_FIBERS");
    if (f && *f && strcmp(f, "1") && strcmp(f, "0"))
        fprintf(stderr, "ascendrtc: warning: ASCENDRTC_FIBERS=%s is not 0 (a thread per block of a SyncAll kernel) "
                        "or 1 (fibers, the default); using fibers\n", f);
    use_fibers = !(f && !strcmp(f, "0"));
}

/* Choose the cores a kernel runs on.  Returns -1 for types the separated
 * SoCs (2201/3510) do not accept. */
static int place(sim_func *f, uint32_t magic, int cross_core)
{
    const sim_arch *a = f->arch;
    uint32_t t = f->km->ktype;
    if (t > 5)
        return -1;
    int cube = t == 1 || t == 3;
    if (magic == ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE)
        cube = 0;
    else if (magic == ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
        cube = 1;
    f->core_type = (uint32_t)cube;
    /* A mix kernel occupies one AIC plus its AIVs per block: at most as many
     * blocks as cube cores run at once.  Each block runs as one thread. */
    f->max_concurrent = cube || t >= 4 ? a->cube_cores : a->vector_cores;
    /* Blocks that meet in SyncAll must all be live at once: as fibers
     * (core_fibers.c), or as a thread each (MIX kernels, ASCENDRTC_FIBERS=0); the
     * others take blocks from a shared counter (core_claim.c), so a few
     * threads run any number. */
    pthread_once(&host_once, host_threads_init);
    f->fibers = cross_core && t < 4 && use_fibers;
    f->threads = (cross_core && !f->fibers) || host_threads > f->max_concurrent ? f->max_concurrent : host_threads;
    return 0;
}

/* Whether the object can reach a wait across blocks: it names
 * __arc_sync_all or __arc_cross_set_all (CrossCoreSetFlag mode 0) as an
 * undefined symbol; any mention counts, to err on the safe side. */
static int names_sync_all(const void *data, size_t length)
{
    /* sizeof: with the NUL; also found as the tail of a merged string-table entry */
    static const char sym[] = "__arc_sync_all", x0[] = "__arc_cross_set_all";
    return memmem(data, length, sym, sizeof sym) != NULL || memmem(data, length, x0, sizeof x0) != NULL;
}

static aclError load(const char *api, const void *data, size_t length, uint32_t magic, sim_module **out)
{
    char err[1024];
    size_t off, size;
    /* Before anything reads the bytes: a flipped bit in the metadata could
     * otherwise move a parameter, one in the code crash the process. */
    if (arc_sum_check(data, length, &length, err, sizeof err))
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "corrupt kernel binary: %s", err);
    if (elf_find_section(data, length, ARC_META_SECTION, &off, &size, err, sizeof err))
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "not a kernel binary: %s", err);
    if (sim_elf_check(data, length, err, sizeof err))
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "corrupt kernel binary: %s", err);
    sim_module *b = calloc(1, sizeof *b);
    if (!b)
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory");
    b->magic = SIM_MAGIC_BIN;
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    aclError rc = ACL_SUCCESS;
    if (meta_parse((const unsigned char *)data + off, size, &b->meta, err, sizeof err)) {
        rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "not a valid kernel binary: %s", err);
        goto fail;
    }
    if (!(b->arch = sim_arch_find(b->meta.arch))) {
        rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                     "the binary was built for --npu-arch '%s', which the simulated NPU does not provide (%s)",
                     b->meta.arch, sim_arch_names());
        goto fail;
    }
    if (b->meta.nkernels == 0) {
        rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "the binary contains no kernels");
        goto fail;
    }
    if (sim_orc_cpu_check(b->meta.target_cpu, err, sizeof err)) {
        rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "%s", err);
        goto fail;
    }
    if (!(b->funcs = calloc(b->meta.nkernels, sizeof *b->funcs))) {
        rc = sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory");
        goto fail;
    }
    const char *label = b->meta.kernels[0].name;
    if (sim_orc_load(data, length, label, runtime_symbols, &b->img, err, sizeof err)) {
        rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "cannot load the binary: %s", err);
        goto fail;
    }
    if (sim_rdc_link(data, b->img, runtime_symbols, err, sizeof err)) {
        rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "cannot link the binary's relocatable device code: %s", err);
        goto fail;
    }
    for (uint32_t i = 0; i < b->meta.nkernels; i++) {
        sim_func *f = &b->funcs[i];
        f->magic = SIM_MAGIC_FUNC;
        f->bin = b;
        f->km = &b->meta.kernels[i];
        f->arch = b->arch;
        if (place(f, magic, names_sync_all(data, length))) {
            rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "kernel '%s' has kernel type %u (%s), which %s (%s) does "
                         "not run; use KERNEL_TYPE_AIV_ONLY..KERNEL_TYPE_MIX_AIC_1_2 (0..5)",
                         f->km->name, f->km->ktype, ktype_name(f->km->ktype), b->arch->soc, b->arch->arch);
            goto fail;
        }
        f->entry = (sim_entry_fn)sim_orc_lookup(b->img, f->km->entry, err, sizeof err);
        if (!f->entry) {
            rc = sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "kernel '%s': %s", f->km->name, err);
            goto fail;
        }
    }
    for (uint32_t i = 0; i < b->meta.nkernels; i++)
        sim_handle_add(&b->funcs[i], SIM_K_FUNC);
    sim_handle_add(b, SIM_K_BIN);
    *out = b;
    return ACL_SUCCESS;
fail:
    bin_free(b);
    return rc;
}

aclError aclrtBinaryLoadFromData(const void *data, size_t length, const aclrtBinaryLoadOptions *options,
                                 aclrtBinHandle *binHandle)
{
    const char *api = "aclrtBinaryLoadFromData";
    uint32_t magic;
    sim_module *b;
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!data)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "data is NULL");
    if (!length)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "length is 0");
    if (!binHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "binHandle is NULL");
    if ((rc = check_options(api, options, 0, &magic)) || (rc = load(api, data, length, magic, &b)))
        return rc;
    *binHandle = b;
    return ACL_SUCCESS;
}

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle)
{
    const char *api = "aclrtBinaryLoadFromFile";
    uint32_t magic;
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!binPath)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "binPath is NULL");
    if (!binHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "binHandle is NULL");
    if ((rc = check_options(api, options, 1, &magic)))
        return rc;
    /* Regular files only (a FIFO would block, /dev/zero never ends), and
     * no larger than a kernel object can sensibly be. */
    int fd = open(binPath, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return sim_err(ACL_ERROR_INVALID_FILE, api, "cannot open '%s': %s", binPath, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return sim_err(ACL_ERROR_INVALID_FILE, api, "'%s' is not a regular file (a kernel binary must be one)",
                       binPath);
    }
    if (st.st_size == 0 || (uint64_t)st.st_size > ARC_MAX_BINARY_BYTES) {
        close(fd);
        return sim_err(ACL_ERROR_INVALID_FILE, api, "'%s' is %lld bytes: %s", binPath, (long long)st.st_size,
                       st.st_size ? "larger than the 1 GiB a kernel binary may have" : "the file is empty");
    }
    size_t len = (size_t)st.st_size;
    unsigned char *buf = malloc(len);
    if (!buf) {
        close(fd);
        return sim_err(ACL_ERROR_BAD_ALLOC, api, "out of host memory reading '%s'", binPath);
    }
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (got != len) {
        free(buf);
        return sim_err(ACL_ERROR_INVALID_FILE, api, "cannot read '%s': got %zu of its %zu bytes", binPath, got, len);
    }
    sim_module *b;
    rc = load(api, buf, len, magic, &b);
    free(buf); /* the ORC loader keeps its own copy */
    if (rc)
        return rc;
    *binHandle = b;
    return ACL_SUCCESS;
}

static aclError bin_resolve(aclrtBinHandle h, const char *api, sim_module **out)
{
    if (!h)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "binHandle is NULL");
    if (!sim_handle_ok(h, SIM_K_BIN, SIM_MAGIC_BIN))
        return sim_err(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "binHandle %p is not a loaded binary (never loaded, or already unloaded)", h);
    *out = h;
    return ACL_SUCCESS;
}

void sim_module_hold(sim_module *b)
{
    pthread_mutex_lock(&b->mu);
    b->inflight++;
    pthread_mutex_unlock(&b->mu);
}

void sim_module_release(sim_module *b)
{
    pthread_mutex_lock(&b->mu);
    if (--b->inflight == 0)
        pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void sim_module_keep(sim_module *b)
{
    pthread_mutex_lock(&b->mu);
    b->kept = 1;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

/* Waits for queued launches of the binary's kernels before freeing them;
 * a binary whose code abandoned cores may still run stays loaded. */
aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)
{
    const char *api = "aclrtBinaryUnLoad";
    sim_module *b;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = bin_resolve(binHandle, api, &b);
    if (rc)
        return rc;
    sim_handle_del(b);
    for (uint32_t i = 0; i < b->meta.nkernels; i++)
        sim_handle_del(&b->funcs[i]);
    pthread_mutex_lock(&b->mu);
    while (b->inflight && !b->kept)
        pthread_cond_wait(&b->cv, &b->mu);
    int kept = b->kept;
    pthread_mutex_unlock(&b->mu);
    if (!kept)
        bin_free(b);
    return ACL_SUCCESS;
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle)
{
    const char *api = "aclrtBinaryGetFunction";
    sim_module *b;
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = bin_resolve(binHandle, api, &b);
    if (rc)
        return rc;
    if (!kernelName)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "kernelName is NULL");
    if (!funcHandle)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "funcHandle is NULL");
    for (uint32_t i = 0; i < b->meta.nkernels; i++) {
        const arc_kernel_meta *k = &b->meta.kernels[i];
        if (strcmp(k->name, kernelName) == 0 || strcmp(k->lowered, kernelName) == 0) {
            *funcHandle = &b->funcs[i];
            return ACL_SUCCESS;
        }
    }
    char list[1024] = "";
    size_t n = 0;
    for (uint32_t i = 0; i < b->meta.nkernels && n < sizeof list; i++) {
        const arc_kernel_meta *k = &b->meta.kernels[i];
        int w = strcmp(k->name, k->lowered) ? snprintf(list + n, sizeof list - n, "%s'%s' (lowered '%s')",
                                                       i ? ", " : "", k->name, k->lowered)
                                            : snprintf(list + n, sizeof list - n, "%s'%s'", i ? ", " : "", k->name);
        n += w > 0 ? (size_t)w : 0;
    }
    return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "no kernel named '%s' in the binary; it has %u: %s", kernelName,
                   b->meta.nkernels, list);
}

aclError sim_func_resolve(aclrtFuncHandle h, const char *api, sim_func **out)
{
    if (!h)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "funcHandle is NULL");
    if (!sim_handle_ok(h, SIM_K_FUNC, SIM_MAGIC_FUNC))
        return sim_err(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "funcHandle %p is not a kernel of a loaded binary (its binary was unloaded?)", h);
    *out = h;
    return ACL_SUCCESS;
}

aclError sim_func_enter(aclrtFuncHandle h, const char *api, sim_func **out)
{
    aclError rc = sim_rt_enter(api);
    return rc ? rc : sim_func_resolve(h, api, out);
}

aclError aclrtFunctionGetParamCount(aclrtFuncHandle funcHandle, size_t *paramCount)
{
    const char *api = "aclrtFunctionGetParamCount";
    sim_func *f;
    aclError rc = sim_func_enter(funcHandle, api, &f);
    if (rc)
        return rc;
    if (!paramCount)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "paramCount is NULL");
    *paramCount = f->km->nparams;
    return ACL_SUCCESS;
}

aclError aclrtFunctionGetParamInfo(aclrtFuncHandle funcHandle, size_t paramIndex, size_t *offset, size_t *size)
{
    const char *api = "aclrtFunctionGetParamInfo";
    sim_func *f;
    aclError rc = sim_func_enter(funcHandle, api, &f);
    if (rc)
        return rc;
    if (!offset || !size)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", offset ? "size" : "offset");
    if (paramIndex >= f->km->nparams)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "paramIndex %zu is out of range: '%s' has %u parameter(s)",
                       paramIndex, f->km->name, f->km->nparams);
    *offset = f->km->params[paramIndex].offset;
    *size = f->km->params[paramIndex].size;
    return ACL_SUCCESS;
}
