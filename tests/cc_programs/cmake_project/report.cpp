// Plain host C++ in the same target: compiled by CMake's C++ compiler.
#include <cstdio>
#ifdef SQUARE_OFFSET
#error "an ASC-only definition (ascendc_compile_definitions) reached a C++ source"
#endif

int report(const int *v, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += v[i] != i * i + 3;
    std::printf("%s: %d of %d wrong\n", bad ? "test failed" : "test pass", bad, n);
    return bad != 0;
}
