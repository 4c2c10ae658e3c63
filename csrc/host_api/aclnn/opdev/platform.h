// aclnn/opdev/platform.h - the op-API platform header, as op host tiling
// code includes it for NpuArch (ops-math's CoalesceSparse compares
// GetCurNpuArch() with NpuArch::DAV_3510).  The op-API's own platform
// queries (op::GetCurrentPlatformInfo, ...) belong to the aclnn library,
// which ascendrtc does not build; host code naming them is refused, named.
#ifndef ARC_HOST_ACLNN_OPDEV_PLATFORM_H
#define ARC_HOST_ACLNN_OPDEV_PLATFORM_H

#include "platform/soc_spec.h"

#endif
