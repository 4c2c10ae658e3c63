"""TCubeTiling for the Matmul API, computed the way the host tiling API
(``matmul_tiling::MultiCoreMatmulTiling``) does, so a kernel's 50 tiling
fields never have to be filled by hand::

    import ascendrtc.matmul_tiling as mt
    t = mt.tiling(1024, 512, 256, dtype="float16", out_dtype="float32", bias=True, cores=8)
    t["baseM"], t.usedCoreNum          # field access
    t.tobytes()                        # the kernel's TCubeTiling bytes (int32 fields in order)

The computation is the C function of ``csrc/host_api/lib/matmul/
arc_matmul_tiling.h`` (shared with op projects' host code).  ``cores`` is
the number of blocks the kernel spreads ``GetBlockIdx()`` over; launch
``t.usedCoreNum`` blocks.
"""
import numpy as np

from . import _C

#: TCubeTiling's fields, in the kernel struct's order (ARC_TCUBE_TILING_FIELDS,
#: csrc/device/kernel_tiling/kernel_tiling.h).
FIELDS = (
    "usedCoreNum", "M", "N", "Ka", "Kb", "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN", "baseK",
    "depthA1", "depthB1", "stepM", "stepN", "isBias", "transLength", "iterateOrder", "shareMode", "shareL1Size",
    "shareL0CSize", "shareUbSize", "batchM", "batchN", "singleBatchM", "singleBatchN", "stepKa", "stepKb",
    "depthAL1CacheUB", "depthBL1CacheUB", "dbL0A", "dbL0B", "dbL0C", "ALayoutInfoB", "ALayoutInfoS",
    "ALayoutInfoN", "ALayoutInfoG", "ALayoutInfoD", "BLayoutInfoB", "BLayoutInfoS", "BLayoutInfoN", "BLayoutInfoG",
    "BLayoutInfoD", "CLayoutInfoB", "CLayoutInfoS1", "CLayoutInfoN", "CLayoutInfoG", "CLayoutInfoS2", "BatchNum",
    "mxTypePara",
)

_SIZES = {"float16": 2, "half": 2, "bfloat16": 2, "bf16": 2, "float32": 4, "float": 4, "int8": 1, "int32": 4}


def _size(dtype):
    name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
    if name not in _SIZES:
        raise ValueError("matmul tiling: unsupported dtype %r (float16, bfloat16, float32, int8, int32)" % (dtype,))
    return _SIZES[name]


class TCubeTiling:
    """The 50 int32 fields; index by name or read as attributes."""

    def __init__(self, values):
        self.values = np.asarray(values, np.int32)

    def __getitem__(self, name):
        return int(self.values[FIELDS.index(name)])

    def __setitem__(self, name, value):
        self.values[FIELDS.index(name)] = value

    def __getattr__(self, name):
        if name in FIELDS:
            return self[name]
        raise AttributeError(name)

    def tobytes(self):
        """The kernel struct's bytes."""
        return self.values.tobytes()

    def array(self):
        """The fields as an int32 NumPy array (pass it as the tiling argument)."""
        return self.values.copy()

    def as_dict(self):
        return {f: int(v) for f, v in zip(FIELDS, self.values)}

    def __repr__(self):
        keep = ("usedCoreNum", "M", "N", "Ka", "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN",
                "baseK", "isBias")
        return "TCubeTiling(%s)" % ", ".join("%s=%d" % (k, self[k]) for k in keep)


def tiling(M, N, K, dtype="float16", out_dtype="float32", bias=False, bias_dtype=None, cores=1,
           single_shape=None, base_shape=None, trans_a=False, trans_b=False):
    """TCubeTiling for C (M x N) = A (M x K) x B (K x N) [+ bias] over
    `cores` blocks.  `trans_a`/`trans_b` describe the GM layouts and do not
    change the fields.  `single_shape`/`base_shape` = (m, n, k) fix those
    blocks (-1 entries are chosen).  Raises ValueError for shapes no tiling
    fits."""
    del trans_a, trans_b  # the layout is the kernel's MatmulType; the fields do not depend on it
    sm, sn, sk = single_shape if single_shape else (-1, -1, -1)
    bm, bn, bk = base_shape if base_shape else (-1, -1, -1)
    bsize = _size(bias_dtype or out_dtype) if bias else 0
    if bias and bsize == 2:
        bsize = 4  # a half bias is widened to float in the BiasTable
    return TCubeTiling(_C.matmul_tiling(int(M), int(N), int(K), _size(dtype), _size(out_dtype), bsize, int(cores),
                                        sm, sn, sk, bm, bn, bk))
