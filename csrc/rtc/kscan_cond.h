/* kscan_cond.h - what the kernel scan (kscan.c) knows of the macros a
 * compile defines, to decide `#if`/`#ifdef`/`#elif` groups without the
 * preprocessor: the -D/-U options, the source's own object-like #defines
 * and #undefs in text it knows is compiled, and nothing else (a macro a
 * header may define is unknown, and so is every condition naming it). */
#ifndef ARC_KSCAN_COND_H_
#define ARC_KSCAN_COND_H_

#include <stddef.h>

enum { KC_UNKNOWN = -1, KC_UNDEFINED = 0, KC_DEFINED = 1 };

typedef struct kcond kcond;

/* The state the compile's options ("-DX", "-DX=v", "-UX") give; NULL on
 * out-of-memory. */
kcond *kcond_new(int nopts, char *const *opts);
void kcond_free(kcond *c);
/* A macro's state from here on: KC_DEFINED with its replacement text
 * (value, vn bytes; NULL: "1"), KC_UNDEFINED, or KC_UNKNOWN (a #define in
 * a group the scan cannot decide).  -1 on out-of-memory. */
int kcond_set(kcond *c, const char *name, size_t n, int state, const char *value, size_t vn);
/* KC_DEFINED, KC_UNDEFINED or KC_UNKNOWN. */
int kcond_defined(const kcond *c, const char *name, size_t n);
/* An #if/#elif condition (text, n bytes): 1 true, 0 false, KC_UNKNOWN. */
int kcond_eval(const kcond *c, const char *text, size_t n);

#endif
