"""SIMT kernels used both by tests (tests/test_simt.py, tests/test_simt_race.py:
values against NumPy) and by bench/bench_simt.py (their speed): a block
reduction with shuffles and shared UB, a 32 x 32 tiled transpose through
shared UB (32 x 8 threads per block), and a guarded vector add.  Sources without the
simt_api/asc_simt.h include."""

VADD = r'''
__global__ __launch_bounds__(1024) void vadd(const float* a, const float* b, float* c, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
'''

BLOCK_SUM = r'''
__aicore__ inline float warp_sum(float v)   // shuffles in a function the kernel calls
{
    for (int off = 16; off > 0; off /= 2) v += asc_shfl_down(v, off);
    return v;
}

__global__ __launch_bounds__(1024) void block_sum(const float* x, float* out, uint32_t n)
{
    __ubuf__ float part[32];
    uint32_t tid = threadIdx.x;
    float s = 0.0f;
    for (uint32_t i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) s += x[i];
    s = warp_sum(s);
    if (tid % 32 == 0) part[tid / 32] = s;
    asc_syncthreads();
    if (tid < 32) {
        float v = tid < blockDim.x / 32 ? part[tid] : 0.0f;
        v = asc_reduce_add(v);
        if (tid == 0) out[blockIdx.x] = v;
    }
}
'''

TRANSPOSE = r'''
__global__ void transpose(const float* in, float* out, uint32_t n)
{
    __ubuf__ float tile[32][33];
    uint32_t x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (uint32_t j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    asc_syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (uint32_t j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
'''
