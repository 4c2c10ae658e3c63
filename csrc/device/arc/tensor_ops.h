/* tensor_ops.h - whole-tensor operators on LocalTensor: `z = x * y` (and
 * +, -, /, &, |) run the matching count-form API (Add, Sub, Mul, Div, And,
 * Or) over dst's elements when assigned.  Assumption (public facts are
 * silent on the count): dst.GetSize() elements; the API's own checks stop
 * a source shorter than that. */
#ifndef ARC_TENSOR_OPS_H_
#define ARC_TENSOR_OPS_H_

#include "arc/vec_binary.h"

namespace __arc {
enum TensorOp { TOP_ADD, TOP_SUB, TOP_MUL, TOP_DIV, TOP_AND, TOP_OR };
template <class T, int OP> struct TensorExpr {
    typedef void arc_tensor_expr;
    const AscendC::LocalTensor<T> &a;
    const AscendC::LocalTensor<T> &b;
    void run(const AscendC::LocalTensor<T> &dst) const
    {
        const int32_t n = (int32_t)dst.GetSize();
        if constexpr (OP == TOP_ADD) AscendC::Add(dst, a, b, n);
        else if constexpr (OP == TOP_SUB) AscendC::Sub(dst, a, b, n);
        else if constexpr (OP == TOP_MUL) AscendC::Mul(dst, a, b, n);
        else if constexpr (OP == TOP_DIV) AscendC::Div(dst, a, b, n);
        else if constexpr (OP == TOP_AND) AscendC::And(dst, a, b, n);
        else AscendC::Or(dst, a, b, n);
    }
};
} // namespace __arc

namespace AscendC {
template <typename T>
inline __arc::TensorExpr<T, __arc::TOP_ADD> operator+(const LocalTensor<T> &a, const LocalTensor<T> &b) { return {a, b}; }
template <typename T>
inline __arc::TensorExpr<T, __arc::TOP_SUB> operator-(const LocalTensor<T> &a, const LocalTensor<T> &b) { return {a, b}; }
template <typename T>
inline __arc::TensorExpr<T, __arc::TOP_MUL> operator*(const LocalTensor<T> &a, const LocalTensor<T> &b) { return {a, b}; }
template <typename T>
inline __arc::TensorExpr<T, __arc::TOP_DIV> operator/(const LocalTensor<T> &a, const LocalTensor<T> &b) { return {a, b}; }
template <typename T>
inline __arc::TensorExpr<T, __arc::TOP_AND> operator&(const LocalTensor<T> &a, const LocalTensor<T> &b) { return {a, b}; }
template <typename T>
inline __arc::TensorExpr<T, __arc::TOP_OR> operator|(const LocalTensor<T> &a, const LocalTensor<T> &b) { return {a, b}; }
} // namespace AscendC

#endif /* ARC_TENSOR_OPS_H_ */
