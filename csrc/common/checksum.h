/* checksum.h - the trailer that seals a compiled binary.
 *
 * aclrtcGetBinData's bytes are an ELF object followed by 16 bytes:
 *   "ARCSUM01"  u64 little-endian FNV-1a 64 of every byte before it
 * (the object and the magic).  A load checks it before reading anything
 * else, so a flipped bit anywhere (code, .arc_meta, ELF tables, the trailer
 * itself) is a clear "checksum" error, never a wrong parameter offset or a
 * crash.  FNV-1a changes its state bijectively per byte, so any change
 * confined to one byte always shows.  ELF readers ignore the bytes past the
 * section table, so the sealed object is still a valid object. */
#ifndef ARC_CHECKSUM_H_
#define ARC_CHECKSUM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARC_SUM_MAGIC "ARCSUM01"
#define ARC_SUM_BYTES 16u

/* Write the trailer for the len bytes at buf into buf[len..len+16). */
void arc_sum_seal(unsigned char *buf, size_t len);
/* Check a sealed blob of len bytes.  Returns 0 and the length of the
 * object without its trailer in *body, or -1 with a reason naming the
 * checksum in err. */
int arc_sum_check(const unsigned char *blob, size_t len, size_t *body, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* ARC_CHECKSUM_H_ */
