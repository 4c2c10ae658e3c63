/* device_memory_functions.h - cache hints and their fences.  The simulated core
 * has no data cache in front of GM: every load sees GM, so the hints are
 * plain accesses and the cache maintenance calls order memory only. */
#ifndef ASC_SIMT_DEVICE_MEMORY_FUNCTIONS_H_
#define ASC_SIMT_DEVICE_MEMORY_FUNCTIONS_H_

#include "simt_api/device_types.h"

template <class T> __attribute__((always_inline)) inline T asc_ldcg(const T *p) { return *(const volatile T *)p; }
template <class T> __attribute__((always_inline)) inline T asc_ldca(const T *p) { return *p; }
template <class T> __attribute__((always_inline)) inline void asc_stcg(T *p, T v) { *(volatile T *)p = v; }
template <class T> __attribute__((always_inline)) inline void asc_stwt(T *p, T v) { *(volatile T *)p = v; }
template <class T> __attribute__((always_inline)) inline void asc_dcci_single(T *) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__attribute__((always_inline)) inline void asc_dcci_entire() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__attribute__((always_inline)) inline void asc_nop() {}

#endif
