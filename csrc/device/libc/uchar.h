/* uchar.h - mbstate_t, which libc++'s character traits name; the device
 * converts no multibyte text (see README.md). */
#ifndef ARC_LIBC_UCHAR_H_
#define ARC_LIBC_UCHAR_H_
typedef struct { int count; unsigned value; } mbstate_t;
#endif
