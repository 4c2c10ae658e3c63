// register/device_op_impl_registry.h - tiling sink: DEVICE_IMPL_OP_OPTILING
// (op).Tiling(fn) registers a tiling function that CANN runs on the device
// (the AI CPU) at launch time, when a value-dependent input's data exists
// only there.  ascendrtc runs every tiling function on the host at launch
// time with every input's data in hand, which is what the device run
// computes, so the registration is the host one (op_impl_registry.h).
#ifndef ARC_HOST_REGISTER_DEVICE_OP_IMPL_REGISTRY_H
#define ARC_HOST_REGISTER_DEVICE_OP_IMPL_REGISTRY_H

#include "register/op_impl_registry.h"

#define DEVICE_IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)

#endif
