// register/register_types.h - the visibility and deprecation markers CANN's
// registration headers put on their declarations: default visibility where
// the build defines HOST_VISIBILITY / DEV_VISIBILITY (in process here, any
// visibility links), a deprecation note otherwise.
#ifndef ARC_HOST_REGISTER_REGISTER_TYPES_H
#define ARC_HOST_REGISTER_REGISTER_TYPES_H

#if defined(HOST_VISIBILITY) && defined(__GNUC__)
#define FMK_FUNC_HOST_VISIBILITY __attribute__((visibility("default")))
#else
#define FMK_FUNC_HOST_VISIBILITY
#endif
#if defined(DEV_VISIBILITY) && defined(__GNUC__)
#define FMK_FUNC_DEV_VISIBILITY __attribute__((visibility("default")))
#else
#define FMK_FUNC_DEV_VISIBILITY
#endif
#ifndef ATTRIBUTED_DEPRECATED
#define ATTRIBUTED_DEPRECATED(replacement) __attribute__((deprecated("Please use " #replacement " instead.")))
#endif

#endif
