// exe_graph/runtime/range.h - gert::Range<T>: a [min, max] pair of
// pointers (shape ranges of a graph compile's InferShapeRange functions).
#ifndef ARC_HOST_EXE_GRAPH_RANGE_H
#define ARC_HOST_EXE_GRAPH_RANGE_H

namespace gert {

template <typename T> class Range {
public:
    Range() = default;
    Range(T *min, T *max) : min_(min), max_(max) {}
    explicit Range(T *same) : min_(same), max_(same) {}
    bool operator==(const Range<T> &o) const { return min_ == o.min_ && max_ == o.max_; }
    void SetMin(T *min) { min_ = min; }
    void SetMax(T *max) { max_ = max; }
    const T *GetMin() const { return min_; }
    const T *GetMax() const { return max_; }
    T *GetMin() { return min_; }
    T *GetMax() { return max_; }

private:
    T *min_ = nullptr;
    T *max_ = nullptr;
};

} // namespace gert

#endif
