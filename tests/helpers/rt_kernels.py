"""Hand-made kernels (C, entry k_entry) for the runtime tests, with their
metadata.  Each returns the bytes of a binary (see helpers.rt)."""
from helpers.rt import KIND_FLOAT, KIND_INT, KIND_POINTER, KIND_STRUCT, build_binary, gm, write_meta

ADD = r'''
void k_entry(const unsigned char *args) {
    const float *x = *(float *const *)(args + 0), *y = *(float *const *)(args + 8);
    float *z = *(float **)(args + 16);
    long n = *(const int *)(args + 24), b = __arc_core()->block_idx;
    for (long i = b * n; i < (b + 1) * n; i++) z[i] = x[i] + y[i];
}
'''


def add_binary(arch="dav-2201", name="add_custom"):
    """z[i] = x[i] + y[i] over n elements per block: (x, y, z, int n)."""
    params = gm("x", "y", "z") + [(24, 4, 4, KIND_INT, "n", "int32_t")]
    return build_binary(ADD, meta=write_meta([dict(name=name, params=params, args_size=32)], arch=arch))


# Block b waits until *flag != 0, then writes out[b] = b + 1.  The host
# releases it, so tests can observe work that has not run yet.
SPIN = r'''
void k_entry(const unsigned char *args) {
    volatile int *flag = *(int *const *)(args + 0);
    int *out = *(int **)(args + 8);
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) __builtin_ia32_pause();
    out[__arc_core()->block_idx] = (int)__arc_core()->block_idx + 1;
}
'''


def spin_binary():
    return build_binary(SPIN, [dict(name="spin", params=gm("flag", "out"))])


# Blocks wait for the last block through GM (no SyncAll): flag[0] is set by
# the last block, then every block writes flag[1 + b] = 1.  Runs only when
# the simulator gives every block a thread (its stall detector).
WAIT = r'''
void k_entry(const unsigned char *args) {
    int *flag = *(int **)(args + 0);
    arc_core *c = __arc_core();
    if (c->block_idx == c->block_num - 1) __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
    else while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) __builtin_ia32_pause();
    __atomic_store_n(flag + 1 + c->block_idx, 1, __ATOMIC_RELAXED);
}
'''


def wait_binary():
    return build_binary(WAIT, [dict(name="wait_last", params=gm("flag"))])


# Every block adds 1 to a counter, waits at SyncAll, then records what it
# sees; `rounds` barriers in a row.  out[b] = counter seen after each round.
SYNC = r'''
void k_entry(const unsigned char *args) {
    int *counter = *(int **)(args + 0);
    int *out = *(int **)(args + 8);
    int rounds = *(const int *)(args + 16);
    arc_core *c = __arc_core();
    for (int r = 0; r < rounds; r++) {
        __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST);
        __arc_sync_all(1);
        out[r * c->block_num + c->block_idx] = __atomic_load_n(counter, __ATOMIC_SEQ_CST);
        __arc_sync_all(1);
    }
}
'''


def sync_binary(ktype=0, arch="dav-2201"):
    params = gm("counter", "out") + [(16, 4, 4, KIND_INT, "rounds", "int32_t")]
    return build_binary(SYNC, meta=write_meta([dict(name="sync_all", ktype=ktype, params=params, args_size=24)],
                                              arch=arch))


# Block `bad` traps with a formatted message; the others write out[b] = 1.
# mode 1: the others wait at SyncAll first (the trap must release them).
TRAP = r'''
void k_entry(const unsigned char *args) {
    int *out = *(int **)(args + 0);
    int bad = *(const int *)(args + 8), mode = *(const int *)(args + 12);
    arc_core *c = __arc_core();
    if (mode >= 2 && c->block_idx == bad) { /* faults (reliability): out is 48 ints */
        static volatile int zero = 0;
        unsigned long long range[2] = {0, 0};
        if (mode == 2) ((volatile int *)out)[80] = 1;               /* raw store into the guard page */
        if (mode == 3) __arc_gm_check(out, 4096, "TestGm", range);  /* device-API access out of bounds */
        if (mode == 4) out[0] = bad / zero;                         /* SIGFPE */
        if (mode == 5) while (!zero) {}                             /* spins until the timeout */
    }
    if (mode == 6 && c->block_idx == bad) { while (!*(volatile int *)out) {} }
    if (mode == 6) __arc_sync_all(1);                                /* others wait: a hang */
    if (c->block_idx == bad) __arc_trap("TestApi", "bad value %d in block %lld", 42, c->block_idx);
    if (mode == 1) __arc_sync_all(1);
    out[c->block_idx] = 1;
}
'''


def trap_binary():
    params = gm("out") + [(8, 4, 4, KIND_INT, "bad", "int32_t"), (12, 4, 4, KIND_INT, "mode", "int32_t")]
    return build_binary(TRAP, meta=write_meta([dict(name="trapper", params=params, args_size=16)]))


# Reports the core's view: 16 int64 per block.
INFO = r'''
void k_entry(const unsigned char *args) {
    long long *out = *(long long **)(args + 0);
    arc_core *c = __arc_core();
    long long *o = out + 16 * c->block_idx;
    int dirty = 0;
    for (int i = 0; i < ARC_CORE_DEV_SLOTS; i++)   /* the runtime sets the race checks' slots itself */
        dirty |= i == ARC_RACE_SLOT ? c->dev[i] > ARC_RACE_ERROR : i == ARC_RACE_GM_SLOT ? c->dev[i] == 0x55 : c->dev[i] != 0;
    const char *n = c->kernel_name; long long len = 0; while (n[len]) len++;
    o[0] = c->block_idx; o[1] = c->block_num; o[2] = (long long)c->ub_size; o[3] = (long long)c->l1_size;
    o[4] = (long long)((unsigned long long)c->ub % 32); o[5] = (long long)((unsigned long long)c->l1 % 32);
    o[6] = dirty; o[7] = len; o[8] = c->arch; o[9] = c->core_type; o[10] = c->sub_block_idx;
    o[11] = c->sub_block_num;
    for (int i = 0; i < ARC_CORE_DEV_SLOTS; i++) c->dev[i] = 0x55;   /* the next launch must see zeros */
    c->ub[0] = 1; c->ub[c->ub_size - 1] = 2; c->l1[c->l1_size - 1] = 3;  /* the whole arena is usable */
}
'''


def info_binary(ktype=0, arch="dav-2201"):
    return build_binary(INFO, meta=write_meta([dict(name="core_info", ktype=ktype, params=gm("out"))], arch=arch))


# Scalars and a struct by value at packed metadata offsets (not the 8-byte
# steps Append uses), so the launch must place each parameter itself.
SCALARS = r'''
struct T { int a, b, c; };
void k_entry(const unsigned char *args) {
    double *out = *(double **)(args + 0);
    int i; float f; double d; struct T t;
    __builtin_memcpy(&i, args + 8, 4);
    __builtin_memcpy(&f, args + 12, 4);
    __builtin_memcpy(&d, args + 16, 8);
    __builtin_memcpy(&t, args + 24, 12);
    out[0] = i; out[1] = f; out[2] = d; out[3] = t.a; out[4] = t.b; out[5] = t.c;
}
'''

SCALAR_PARAMS = [(0, 8, 8, KIND_POINTER, "out", "double *"), (8, 4, 4, KIND_INT, "i", "int32_t"),
                 (12, 4, 4, KIND_FLOAT, "f", "float"), (16, 8, 8, KIND_FLOAT, "d", "double"),
                 (24, 12, 4, KIND_STRUCT, "t", "T")]


def scalars_binary():
    return build_binary(SCALARS, meta=write_meta([dict(name="scalars", params=SCALAR_PARAMS, args_size=36)]))


# A pointer parameter used as a placeholder: out[i] = tiling[i], n floats.
PLACEHOLDER = r'''
void k_entry(const unsigned char *args) {
    float *out = *(float **)(args + 0);
    const float *tiling = *(const float *const *)(args + 8);
    int n = *(const int *)(args + 16);
    for (int i = 0; i < n; i++) out[i] = tiling[i];
}
'''


def placeholder_binary():
    params = gm("out", "tiling") + [(16, 4, 4, KIND_INT, "n", "int32_t")]
    return build_binary(PLACEHOLDER, meta=write_meta([dict(name="ph", params=params, args_size=24)]))


# Two kernels in one object, with a C++-style lowered name for the second.
TWO = r'''
void k_entry(const unsigned char *args) { **(int **)args = 1; }
void k2_entry(const unsigned char *args) { **(int **)args = 2; }
'''


def two_kernel_binary():
    return build_binary(TWO, meta=write_meta([
        dict(name="one", lowered="one", entry="k_entry", params=gm("out")),
        dict(name="two<int>", lowered="_Z3twoIiEvPv", entry="k2_entry", params=gm("out")),
    ]))


# A MIX (AIC + 2 AIVs) kernel: the AIC waits for both AIVs' flag 3, so the
# sub-cores switch; AIV `bad` traps before setting it, so the waiting AIC is
# unwound.  out[aiv block] = 1, out[64 + AIC block] = 1.
MIX = r'''
void k_entry(const unsigned char *args) {
    int *out = *(int **)(args + 0);
    int bad = *(const int *)(args + 8);
    arc_core *c = __arc_core();
    if (c->core_type) {
        __arc_cross_core(1, 2, 3);
        out[64 + c->block_idx] = 1;
    } else {
        if (c->block_idx == bad) __arc_trap("TestMix", "bad AIV %lld", c->block_idx);
        out[c->block_idx] = 1;
        __arc_cross_core(0, 2, 3);
    }
}
'''


def mix_binary():
    params = gm("out") + [(8, 4, 4, KIND_INT, "bad", "int32_t")]
    return build_binary(MIX, meta=write_meta([dict(name="mixer", ktype=5, params=params, args_size=16)]))


def sanitizer_driver_args(directory):
    """The kernel binaries tests/rt_native/asan_rt.c takes, in its argument
    order (add, trap, wait, mix), written to `directory`: one string for the
    Makefile's ASAN_KERNEL / TSAN_KERNEL."""
    paths = []
    for name, make in (("add.o", add_binary), ("trap.o", trap_binary), ("wait.o", wait_binary),
                       ("mix.o", mix_binary)):
        path = directory / name
        path.write_bytes(make())
        paths.append(str(path))
    return " ".join(paths)
