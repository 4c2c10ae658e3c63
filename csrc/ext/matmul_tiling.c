/* matmul_tiling.c - _C.matmul_tiling: the TCubeTiling fields from the one
 * tiling computation of csrc/host_api/lib/matmul/arc_matmul_tiling.h. */
#include "arc_ext.h"
#include "host_api/lib/matmul/arc_matmul_tiling.h"

PyObject *arc_matmul_tiling_py(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *kwlist[] = {"M", "N", "K", "in_size", "out_size", "bias_size", "cores", "single_m", "single_n",
                             "single_k", "base_m", "base_n", "base_k", NULL};
    long long M, N, K, sm = -1, sn = -1, sk = -1, bm = -1, bn = -1, bk = -1;
    int in_size, out_size, bias_size, cores;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LLLiiii|LLLLLL", kwlist, &M, &N, &K, &in_size, &out_size, &bias_size,
                                     &cores, &sm, &sn, &sk, &bm, &bn, &bk))
        return NULL;
    arc_mm_tiling_in in = {.M = M, .N = N, .Ka = K, .Kb = K, .singleM = sm, .singleN = sn, .singleK = sk,
                           .baseM = bm, .baseN = bn, .baseK = bk, .in_size = in_size, .out_size = out_size,
                           .bias_size = bias_size, .cores = cores};
    int32_t out[ARC_TCUBE_NFIELDS];
    char err[256];
    if (arc_matmul_tiling(&in, out, err, sizeof err)) {
        PyErr_Format(PyExc_ValueError, "matmul tiling: %s", err);
        return NULL;
    }
    PyObject *t = PyTuple_New(ARC_TCUBE_NFIELDS);
    if (!t)
        return NULL;
    for (int i = 0; i < ARC_TCUBE_NFIELDS; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(out[i]));
    return t;
}
