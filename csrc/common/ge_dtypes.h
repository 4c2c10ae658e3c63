/* ge_dtypes.h - ge::DataType, the one table: the host tiling API's enum
 * (host_api/graph/types.h), the kernel-side declarations
 * (device/register/op_def_registry.h), the Matmul tiling API's enum and
 * Python (_C.GE_DTYPES: op projects' dtype numbers) expand it.  Values
 * follow CANN's public documentation, so an op's dtype numbers mean the
 * same here and on a real NPU (34-41, the 8/6/4-bit floats: aclDataType's
 * numbers in asc-devkit's dump constants, which ge::DataType shares).
 *
 * X(name, value, bytes, dtype, ctype): bytes per element (0: not a whole
 * byte); dtype: the NumPy dtype name ("" when NumPy has none); ctype: the
 * kernel's C type for it ("" when kernels have none). */
#ifndef ARC_COMMON_GE_DTYPES_H_
#define ARC_COMMON_GE_DTYPES_H_

#define ARC_GE_DTYPES(X)                                   \
    X(DT_FLOAT, 0, 4, "float32", "float")                 \
    X(DT_FLOAT16, 1, 2, "float16", "half")                \
    X(DT_INT8, 2, 1, "int8", "int8_t")                    \
    X(DT_INT32, 3, 4, "int32", "int32_t")                 \
    X(DT_UINT8, 4, 1, "uint8", "uint8_t")                 \
    X(DT_INT16, 6, 2, "int16", "int16_t")                 \
    X(DT_UINT16, 7, 2, "uint16", "uint16_t")              \
    X(DT_UINT32, 8, 4, "uint32", "uint32_t")              \
    X(DT_INT64, 9, 8, "int64", "int64_t")                 \
    X(DT_UINT64, 10, 8, "uint64", "uint64_t")             \
    X(DT_DOUBLE, 11, 8, "float64", "double")              \
    X(DT_BOOL, 12, 1, "bool", "bool")                     \
    X(DT_STRING, 13, 0, "", "")                           \
    X(DT_DUAL_SUB_INT8, 14, 1, "", "")                    \
    X(DT_DUAL_SUB_UINT8, 15, 1, "", "")                   \
    X(DT_COMPLEX64, 16, 8, "complex64", "complex64")      \
    X(DT_COMPLEX128, 17, 16, "complex128", "")            \
    X(DT_QINT8, 18, 1, "", "")                            \
    X(DT_QINT16, 19, 2, "", "")                           \
    X(DT_QINT32, 20, 4, "", "")                           \
    X(DT_QUINT8, 21, 1, "", "")                           \
    X(DT_QUINT16, 22, 2, "", "")                          \
    X(DT_RESOURCE, 23, 0, "", "")                         \
    X(DT_STRING_REF, 24, 0, "", "")                       \
    X(DT_DUAL, 25, 0, "", "")                             \
    X(DT_VARIANT, 26, 0, "", "")                          \
    X(DT_BF16, 27, 2, "bfloat16", "bfloat16_t")           \
    X(DT_UNDEFINED, 28, 0, "", "")                        \
    X(DT_INT4, 29, 0, "", "")                             \
    X(DT_UINT1, 30, 0, "", "")                            \
    X(DT_INT2, 31, 0, "", "")                             \
    X(DT_UINT2, 32, 0, "", "")                            \
    X(DT_COMPLEX32, 33, 4, "", "complex32")               \
    X(DT_HIFLOAT8, 34, 1, "", "")                         \
    X(DT_FLOAT8_E5M2, 35, 1, "", "")                      \
    X(DT_FLOAT8_E4M3FN, 36, 1, "", "")                    \
    X(DT_FLOAT8_E8M0, 37, 1, "", "")                      \
    X(DT_FLOAT6_E3M2, 38, 0, "", "")                      \
    X(DT_FLOAT6_E2M3, 39, 0, "", "")                      \
    X(DT_FLOAT4_E2M1, 40, 0, "", "")                      \
    X(DT_FLOAT4_E1M2, 41, 0, "", "")

#endif /* ARC_COMMON_GE_DTYPES_H_ */
