"""Host tiling for the advanced Ascend C API: the tiling structs that
``Pad``/``UnPad``, ``SoftMax``/``SimpleSoftMax``, ``LayerNorm`` and
``RmsNorm`` and ``ConfusionTranspose`` take in a kernel, and their scratch sizes.

Each ``*_tiling`` function returns the struct as a ``uint8`` NumPy array,
ready to pass as a kernel's tiling argument (``GM_ADDR tiling``) or to copy
into a larger tiling buffer; the layout is the one ``kernel_operator.h``
declares (``PadTiling``, ``SoftMaxTiling``...).  The work is done in C by
``csrc/host_api/lib/adv_tiling.h``, which op-project host code compiles too
(``AscendC::PadTilingFunc`` and the rest).  Bad shapes raise ``ValueError``
naming the problem.

``buffer_bytes`` is the scratch the kernel gives the API (``stackBufferSize``
/ ``localWorkSpaceSize``); ``None`` tiles for the maximum from ``tmp_size``.
"""
import numpy as np

from . import _C

__all__ = ["tmp_size", "pad_tiling", "unpad_tiling", "softmax_tiling", "layernorm_tiling", "rmsnorm_tiling",
           "confusion_transpose_tiling"]

_APIS = ("pad", "unpad", "softmax", "layernorm", "rmsnorm", "confusion_transpose")


def _run(api, shape, ori_shape, type_size, buffer_bytes, flag=False, kind=0):
    data, mx, mn = _C.adv_tiling(api, tuple(shape), None if ori_shape is None else tuple(ori_shape), int(type_size),
                                 -1 if buffer_bytes is None else int(buffer_bytes), bool(flag), int(kind))
    return np.frombuffer(data, np.uint8).copy(), mx, mn


def tmp_size(api, shape, type_size, reuse_source=False, transpose_type=7):
    """(max, min) scratch bytes of advanced API ``api`` ('pad', 'unpad',
    'softmax', 'layernorm', 'rmsnorm', 'confusion_transpose' for scenario
    ``transpose_type``) on ``shape`` -- what ``GetPadMaxMinTmpSize``,
    ``GetSoftMaxMax/MinTmpSize``, ``GetLayerNormMaxMinTmpSize``,
    ``GetRmsNormMaxMinTmpSize`` and ``GetConfusionTransposeMaxMinTmpSize`` return."""
    if api not in _APIS:
        raise ValueError(f"unknown advanced API {api!r} (one of {', '.join(_APIS)})")
    ori = shape if api == "pad" else None
    _, mx, mn = _run(api, shape, ori, type_size, None, reuse_source, transpose_type)
    return mx, mn


def pad_tiling(shape, ori_shape, type_size, buffer_bytes=None):
    """PadTiling for ``Pad`` on a 2-D ``shape`` [height, width] whose first
    ``ori_shape[1]`` columns are valid (``PadTilingFunc``)."""
    return _run("pad", shape, ori_shape, type_size, buffer_bytes)[0]


def unpad_tiling(shape, type_size, buffer_bytes=None):
    """UnPadTiling for ``UnPad`` on a 2-D ``shape`` [height, width] (``UnPadTilingFunc``)."""
    return _run("unpad", shape, None, type_size, buffer_bytes)[0]


def softmax_tiling(shape, type_size, buffer_bytes=None):
    """SoftMaxTiling for ``SoftMax``/``SimpleSoftMax`` row-wise over the last
    axis of ``shape`` (``SoftMaxTilingFunc``)."""
    return _run("softmax", shape, None, type_size, buffer_bytes)[0]


def layernorm_tiling(shape, type_size, buffer_bytes=None, original_h=None, reuse_source=False):
    """LayerNormTiling for ``LayerNorm`` over [B, S, H] ``shape``, of which the
    first ``original_h`` (default H) columns are valid (``GetLayerNormNDTilingInfo``)."""
    ori = None if original_h is None else (shape[0], shape[1], original_h)
    return _run("layernorm", shape, ori, type_size, buffer_bytes, reuse_source)[0]


def rmsnorm_tiling(shape, type_size, buffer_bytes=None, original_h=None):
    """RmsNormTiling for ``RmsNorm`` over [B, S, H] ``shape``, of which the
    first ``original_h`` (default H) columns are valid (``GetRmsNormTilingInfo``)."""
    ori = None if original_h is None else (shape[0], shape[1], original_h)
    return _run("rmsnorm", shape, ori, type_size, buffer_bytes)[0]


def confusion_transpose_tiling(shape, type_size, transpose_type, buffer_bytes=None):
    """ConfusionTransposeTiling for ``ConfusionTranspose`` scenario
    ``transpose_type`` (1..7, the ``TransposeType`` values) on ``shape``
    [B, N, S, H/N], or [H, W] for scenario 7 (``GetConfusionTransposeTilingInfo``)."""
    return _run("confusion_transpose", shape, None, type_size, buffer_bytes, kind=transpose_type)[0]
