/* version/asc_devkit_version.h - the asc-devkit version ascendrtc follows.
 * Every device compile defines ASC_DEVKIT_VERSION_NUM and its parts
 * (rtc/config.cpp), as CANN's build force-includes its version header; a
 * kernel that includes the header by name finds them here. */
#ifndef ASC_DEVKIT_VERSION_H
#define ASC_DEVKIT_VERSION_H
#ifndef ASC_DEVKIT_VERSION_NUM
#error "ASC_DEVKIT_VERSION_NUM is defined by ascendrtc's device compile (rtc/config.cpp)"
#endif
#endif
