// exe_graph/runtime/storage_shape.h - gert::StorageShape (exe_graph/runtime/shape.h defines it).
#include "exe_graph/runtime/shape.h"
