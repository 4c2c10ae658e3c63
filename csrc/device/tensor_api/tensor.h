/* tensor_api/tensor.h - the Tensor API (AscendC::Te) of Ascend 950
 * (dav-3510): layouts (arc/te_layout.h), memory pointers and tensors
 * (arc/te_tensor.h), the copy and mmad atoms (arc/te_atom.h), the copies
 * into the cube (arc/te_copy_in.h) and Mmad and the copies out of it
 * (arc/te_copy_out.h), each built on the C++ API's cube simulation and
 * its checks; Squeeze (arc/te_squeeze.h). */
#ifndef ARC_TENSOR_API_TENSOR_H_
#define ARC_TENSOR_API_TENSOR_H_

#include "kernel_operator.h"

#if defined(__NPU_ARCH__) && __NPU_ARCH__ != 3510
#error "tensor_api/tensor.h: the Tensor API (AscendC::Te) exists on Ascend 950 only; compile with --npu-arch=dav-3510"
#endif

#include "arc/te_copy_out.h"
#include "arc/te_squeeze.h"

#endif /* ARC_TENSOR_API_TENSOR_H_ */
