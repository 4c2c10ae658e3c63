/* arc/op_protocol.h - the codes ascendrtc and an op's host code exchange,
 * one table each, for both sides: the host driver (arc/host_driver.h, C++
 * compiled with the op's op_host sources), ops::Option/ops::AttrKind
 * (register/op_def.h), the extension (csrc/ext/op_host_code.c, C) and, through
 * _C.OP_PARAM_TYPES/OP_ATTR_KINDS/OP_STAGES, Python (ascendrtc/_op_*.py).
 * Also the plan a call returns: a C struct, no text to parse.  Internal to
 * ascendrtc; nothing here is for op code to use. */
#ifndef ARC_OP_PROTOCOL_H
#define ARC_OP_PROTOCOL_H

#include <stdint.h>

/* ops::Option: X(NAME, value) -- an input's/output's/attribute's type. */
#define ARC_OP_PARAM_TYPES(X) \
    X(IGNORE, 0)              \
    X(OPTIONAL, 1)            \
    X(REQUIRED, 2)            \
    X(DYNAMIC, 3)             \
    X(VIRTUAL, 4)

/* ops::AttrKind: X(NAME, value, what the op definition calls it). */
#define ARC_OP_ATTR_KINDS(X)             \
    X(NONE, 0, "None")                   \
    X(INT, 1, "Int")                     \
    X(FLOAT, 2, "Float")                 \
    X(BOOL, 3, "Bool")                   \
    X(STRING, 4, "String")               \
    X(LIST_INT, 5, "ListInt")            \
    X(LIST_FLOAT, 6, "ListFloat")        \
    X(LIST_BOOL, 7, "ListBool")          \
    X(LIST_LIST_INT, 8, "ListListInt")

/* Where a call is (arc_op_plan.stage): X(NAME, value, the op function it
 * runs or the step, for messages). */
#define ARC_OP_STAGES(X)                                                   \
    X(REQUEST, 0, "the request")                                           \
    X(DEFINITION, 1, "the op definition (its OpDef constructor)")          \
    X(INFER_SHAPE, 2, "the InferShape function")                           \
    X(INFER_DTYPE, 3, "the InferDataType function")                        \
    X(OUTPUTS, 4, "the output shapes")                                     \
    X(TILING, 5, "the tiling function (SetTiling)")                        \
    X(DONE, 6, "the host code")

/* What a plan call runs (arc_host_plan's mode). */
#define ARC_OP_MODES(X) \
    X(INFER, 1)         \
    X(TILING, 2)

enum arc_op_stage {
#define ARC_OP_STAGE_ENUM(id, v, what) ARC_OP_STAGE_##id = v,
    ARC_OP_STAGES(ARC_OP_STAGE_ENUM)
#undef ARC_OP_STAGE_ENUM
};

enum arc_op_mode {
#define ARC_OP_MODE_ENUM(id, v) ARC_OP_MODE_##id = v,
    ARC_OP_MODES(ARC_OP_MODE_ENUM)
#undef ARC_OP_MODE_ENUM
};

/* What runs at a stage, for messages: the host driver's and the
 * extension's (C and C++). */
static inline const char *arc_op_stage_what(int stage)
{
    switch (stage) {
#define ARC_OP_STAGE_CASE(id, v, what) case v: return what;
        ARC_OP_STAGES(ARC_OP_STAGE_CASE)
#undef ARC_OP_STAGE_CASE
    }
    return "the host code";
}

/* An output whose shape the caller does not know: `out` request lines
 * give this NDIM, and InferShape must give it. */
#define ARC_OP_SHAPE_UNKNOWN (-1)

/* The answer of arc_host_plan: the outputs (after InferShape and
 * InferDataType) and, in tiling mode, what the tiling function chose.
 * The driver mallocs the arrays and `error`; arc_host_plan_free frees them.
 * `stage` says how far the call got, so a caller that abandoned it (a
 * fault, a timeout) can name the function that was running. */
typedef struct arc_op_plan {
    int32_t ok;
    volatile int32_t stage; /* enum arc_op_stage */
    char *error;            /* when !ok: why */
    uint32_t nout;
    int32_t *out_dtype;     /* ge::DataType per output instance */
    int32_t *out_ndim;      /* rank per output instance */
    int64_t *out_dims;      /* the dims of every output, one after another */
    uint32_t block_dim, schedule_mode;
    uint64_t tiling_key;
    int32_t tiling_key_set;
    uint32_t nworkspace;
    uint64_t *workspace;
    uint64_t tiling_size;
    uint8_t *tiling;
    /* sizeof(T) of the tiling function's last GetTilingData<T>() (0: none),
     * against which a struct laid out from its text is checked, and T's
     * name ("" when none): a tiling function that picks one of several
     * structs per tiling key names the one its bytes hold. */
    uint64_t tiling_struct_size;
    char tiling_struct_name[128];
} arc_op_plan;

#endif
