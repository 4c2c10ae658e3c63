// graph/operator_reg.h - REG_OP, the op prototype declarations of an op
// library's op_graph/*_proto.h (REG_OP(Op).INPUT(x, TensorType(...))...
// .OP_END_FACTORY_REG(Op)), which op_host sources include.  They describe
// the op to CANN's graph compiler, which ascendrtc does not run: each
// declaration is accepted and its arguments are not evaluated (the op's
// inputs, outputs and attributes come from its OpDef, as for a launch).
#ifndef ARC_HOST_GRAPH_OPERATOR_REG_H
#define ARC_HOST_GRAPH_OPERATOR_REG_H

#include "graph/operator.h"

namespace ge {
namespace arc_reg {
struct Chain {
    constexpr Chain next() const { return *this; }
};
} // namespace arc_reg
} // namespace ge

#define REG_OP(name) [[maybe_unused]] static constexpr ::ge::arc_reg::Chain __arc_reg_op_##name = ::ge::arc_reg::Chain()
#define INPUT(...) next()
#define OPTIONAL_INPUT(...) next()
#define DYNAMIC_INPUT(...) next()
#define OUTPUT(...) next()
#define DYNAMIC_OUTPUT(...) next()
#define ATTR(...) next()
#define REQUIRED_ATTR(...) next()
#define DATATYPE(...) next()
#define GRAPH(...) next()
#define DYNAMIC_GRAPH(...) next()
#define OP_END_FACTORY_REG(name) next();

#endif
