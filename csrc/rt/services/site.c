/* site.c - the kernel source line of the runtime service call being made.
 * The compiler puts a call to __arc_site("file:line") before every call
 * of a service that can report an error (csrc/rtc/sites.cpp), so a trap or
 * a race report names the user's line without debug info at run time. */
#include "rt/rt_internal.h"

static __thread const char *site;

void __arc_site(const char *where)
{
    site = where;
    arc_core *k = __arc_core();
    if (k)
        k->dev[ARC_SITE_SLOT] = (unsigned long long)(uintptr_t)where;
}

void sim_site_mark(arc_core *k, const char *where)
{
    site = where;
    k->dev[ARC_SITE_SLOT] = (unsigned long long)(uintptr_t)where;
}

const char *sim_core_site(const arc_core *k)
{
    return k ? (const char *)(uintptr_t)__atomic_load_n(&k->dev[ARC_SITE_SLOT], __ATOMIC_RELAXED) : NULL;
}

const char *sim_site(void)
{
    return site;
}
