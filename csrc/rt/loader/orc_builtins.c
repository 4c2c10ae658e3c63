/* orc_builtins.c - the libc, libm and compiler-builtin functions loaded
 * kernels may call, by address (orc_loader.cpp defines them for every image).
 * Kept in C: in C++ the math names are overloaded.  Anything not listed
 * fails to link with a message naming the symbol. */
#include <math.h>
#include <string.h>

#include "rt/rt_internal.h"

/* libgcc helpers clang emits for 128-bit division and integer powers. */
extern void __divti3(void), __udivti3(void), __modti3(void), __umodti3(void);
extern void __powisf2(void), __powidf2(void), __stack_chk_fail(void);

#define FN(f) {#f, (void *)&f}
#define AS(n, f) {n, (void *)&f}

const sim_orc_symbol sim_orc_builtins[] = {
    FN(memcpy), FN(memmove), FN(memset), FN(memcmp),
    FN(expf), FN(exp), FN(exp2f), FN(exp2), FN(expm1f), FN(expm1),
    FN(logf), FN(log), FN(log2f), FN(log2), FN(log10f), FN(log10), FN(log1pf), FN(log1p),
    FN(sqrtf), FN(sqrt), FN(cbrtf), FN(powf), FN(pow), FN(hypotf),
    FN(sinf), FN(sin), FN(cosf), FN(cos), FN(tanf), FN(tan), FN(sincosf), FN(sincos),
    FN(asinf), FN(acosf), FN(atanf), FN(atan), FN(atan2f), FN(atan2),
    FN(sinhf), FN(coshf), FN(tanhf), FN(tanh), FN(asinhf), FN(acoshf), FN(atanhf),
    FN(erff), FN(erf), FN(erfcf), FN(lgammaf), FN(tgammaf),
    FN(floorf), FN(floor), FN(ceilf), FN(ceil), FN(roundf), FN(round), FN(rintf), FN(rint),
    FN(truncf), FN(trunc), FN(nearbyintf), FN(nearbyint), FN(lrintf), FN(llrintf), FN(lroundf),
    FN(fmodf), FN(fmod), FN(remainderf), FN(fabsf), FN(fabs), FN(fminf), FN(fmin), FN(fmaxf), FN(fmax),
    FN(fmaf), FN(fma), FN(copysignf), FN(ldexpf), FN(frexpf), FN(modff),
    FN(exp10f), FN(j0f), FN(j1f), FN(jnf), FN(y0f), FN(y1f), FN(ynf), FN(nextafterf), FN(remquof),
    FN(logbf), FN(ilogbf), FN(scalbnf), FN(scalblnf), FN(llroundf), FN(fdimf), FN(erfc), FN(cbrt),
    FN(hypot),
    AS("__extendhfsf2", sim_extendhfsf2), AS("__gnu_h2f_ieee", sim_extendhfsf2),
    AS("__extendhfdf2", sim_extendhfdf2),
    AS("__truncsfhf2", sim_truncsfhf2), AS("__gnu_f2h_ieee", sim_truncsfhf2),
    AS("__truncdfhf2", sim_truncdfhf2),
    AS("__truncsfbf2", sim_truncsfbf2), AS("__truncdfbf2", sim_truncdfbf2),
    AS("__extendbfsf2", sim_extendbfsf2),
    FN(__divti3), FN(__udivti3), FN(__modti3), FN(__umodti3), FN(__powisf2), FN(__powidf2),
    FN(__stack_chk_fail),
    AS("clock", sim_kernel_clock), /* the Utils API's cycle counter, not libc's CPU time */
    {NULL, NULL},
};
