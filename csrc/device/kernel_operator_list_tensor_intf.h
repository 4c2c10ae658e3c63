/* kernel_operator_list_tensor_intf.h - CANN's header for ListTensorDesc /
 * TensorDesc; ascendrtc's kernel_operator.h already holds them. */
#include "kernel_operator.h"
