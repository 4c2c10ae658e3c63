/* utils/debug/asc_time.h - clock(): the cycles counted from the program's
 * start to the call (Utils API, SIMD and SIMT).  On the simulated NPU the
 * loader links it to the runtime's count of the simulated SoC's cycles from
 * the host's monotonic time (rt/services/clock.c), not to the C library's
 * CPU-time clock(); the declaration is the C library's own, so both headers
 * may be included. */
#ifndef ARC_UTILS_DEBUG_ASC_TIME_H_
#define ARC_UTILS_DEBUG_ASC_TIME_H_
extern "C" long clock(void) noexcept;
#endif
