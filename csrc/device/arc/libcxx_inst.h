/* libcxx_inst.h - what libc++'s shared library would give device code:
 * std::__sort, which <algorithm> (sort.h) declares and instantiates
 * `extern template` for the arithmetic types.  The device has no libc++.so,
 * so the clang bridge includes this header at the end of a device compile
 * that included sort.h (compile.cpp), and std::sort of arithmetic values
 * links.  __sort does what sort.h's own dispatch does for other types (the
 * same introsort and branchless partition choice), so the order of equal
 * keys (-0.0 and 0.0) is the host libc++'s.  Explicit instantiation
 * definitions are weak_odr: one per kernel file is fine. */
#ifndef ARC_LIBCXX_INST_H_
#define ARC_LIBCXX_INST_H_
_LIBCPP_BEGIN_NAMESPACE_STD
template <class _Comp, class _RandomAccessIterator>
void __sort(_RandomAccessIterator __first, _RandomAccessIterator __last, _Comp)
{
    __less<> __comp; /* __less<T> is an empty ABI tag; the comparison is __less<>'s */
    std::__introsort<_ClassicAlgPolicy, __less<> &, _RandomAccessIterator,
                     __use_branchless_sort<__less<> &, _RandomAccessIterator>::value>(
        __first, __last, __comp, 2 * std::__log2i(__last - __first));
}
_LIBCPP_END_NAMESPACE_STD
#define __ARC_SORT_INST(T) template void std::__sort<std::__less<T> &, T *>(T *, T *, std::__less<T> &);
__ARC_SORT_INST(char)
__ARC_SORT_INST(signed char)
__ARC_SORT_INST(unsigned char)
__ARC_SORT_INST(short)
__ARC_SORT_INST(unsigned short)
__ARC_SORT_INST(int)
__ARC_SORT_INST(unsigned)
__ARC_SORT_INST(long)
__ARC_SORT_INST(unsigned long)
__ARC_SORT_INST(long long)
__ARC_SORT_INST(unsigned long long)
__ARC_SORT_INST(float)
__ARC_SORT_INST(double)
__ARC_SORT_INST(long double)
#undef __ARC_SORT_INST
#endif
