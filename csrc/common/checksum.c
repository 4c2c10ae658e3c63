/* checksum.c - seal and check a compiled binary's trailer (checksum.h). */
#include "common/checksum.h"

#include <stdio.h>
#include <string.h>

#include "common/fnv.h"

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

void arc_sum_seal(unsigned char *buf, size_t len)
{
    memcpy(buf + len, ARC_SUM_MAGIC, 8);
    put_u64(buf + len + 8, arc_fnv1a64(buf, len + 8, ARC_FNV1A64_INIT));
}

int arc_sum_check(const unsigned char *blob, size_t len, size_t *body, char *err, size_t errlen)
{
    if (len < ARC_SUM_BYTES || memcmp(blob + len - ARC_SUM_BYTES, ARC_SUM_MAGIC, 8) != 0) {
        snprintf(err, errlen, "it has no ascendrtc checksum trailer (\"" ARC_SUM_MAGIC "\" in its last %u bytes): the "
                 "binary was damaged or truncated, or was not produced by this ascendrtc's aclrtcGetBinData; "
                 "recompile it", ARC_SUM_BYTES);
        return -1;
    }
    uint64_t want = get_u64(blob + len - 8);
    uint64_t got = arc_fnv1a64(blob, len - 8, ARC_FNV1A64_INIT);
    if (want != got) {
        snprintf(err, errlen, "checksum mismatch: its trailer says %016llx but its %zu bytes hash to %016llx; the "
                 "binary's code or metadata was modified or damaged (recompile it)", (unsigned long long)want,
                 len - ARC_SUM_BYTES, (unsigned long long)got);
        return -1;
    }
    *body = len - ARC_SUM_BYTES;
    return 0;
}
