// graph/ascend_string.h - ge::AscendString (register/op_def.h defines it).
#include "register/op_def.h"
