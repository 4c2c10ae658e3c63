// graph/ge_error_codes.h - ge::graphStatus and its codes (graph/types.h owns them).
#ifndef ARC_HOST_GRAPH_GE_ERROR_CODES_H
#define ARC_HOST_GRAPH_GE_ERROR_CODES_H
#include "graph/types.h"
#endif
