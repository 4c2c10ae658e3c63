"""An op project as a PyTorch operator (:meth:`ascendrtc.OpProject.as_torch_op`).

The schema comes from the op definition: tensor inputs in the op's order
(``Tensor?`` for optional, ``Tensor[]`` for dynamic ones), then the
attributes as keyword-only arguments with their defaults.  The fake
implementation runs the op's InferShape/InferDataType only, so
``torch.compile`` can trace it.  This module imports torch.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from ._op_host import ATTR, PARAM

_DTYPES = {torch.float32: np.float32, torch.float16: np.float16, torch.float64: np.float64, torch.int8: np.int8,
           torch.int16: np.int16, torch.int32: np.int32, torch.int64: np.int64, torch.uint8: np.uint8,
           torch.bool: np.bool_}
_TORCH = {np.dtype(v): k for k, v in _DTYPES.items()}
_TYPES = {ATTR["INT"]: "int", ATTR["FLOAT"]: "float", ATTR["BOOL"]: "bool", ATTR["STRING"]: "str",
          ATTR["LIST_INT"]: "int[]", ATTR["LIST_FLOAT"]: "float[]", ATTR["LIST_BOOL"]: "bool[]"}


def _f32(v: float) -> str:
    """The shortest text that reads back as the same float32 (0.01, not 0.0099999998)."""
    return np.format_float_positional(np.float32(v), unique=True, trim="0")


def _default(a: dict) -> str:
    k = a["kind"]
    if k == ATTR["INT"]:
        return str(a["ints"][0])
    if k == ATTR["FLOAT"]:
        return _f32(a["floats"][0])
    if k == ATTR["BOOL"]:
        return "True" if a["ints"][0] else "False"
    if k == ATTR["STRING"]:
        return '"' + a["str"].replace("\\", "\\\\").replace('"', '\\"') + '"'
    if k == ATTR["LIST_INT"]:
        return "[" + ", ".join(str(v) for v in a["ints"]) + "]"
    if k == ATTR["LIST_FLOAT"]:
        return "[" + ", ".join(_f32(v) for v in a["floats"]) + "]"
    if k == ATTR["LIST_BOOL"]:
        return "[" + ", ".join("True" if v else "False" for v in a["ints"]) + "]"
    raise TypeError(f"attribute kind {k}")


def schema(op) -> str:
    """The torch.library schema of an op project."""
    params = []
    for p in op.definition["inputs"]:
        t = {PARAM["OPTIONAL"]: "Tensor? {}=None", PARAM["DYNAMIC"]: "Tensor[] {}"}.get(p["param_type"], "Tensor {}")
        params.append(t.format(p["name"]))
    attrs = []
    for a in op.definition["attrs"]:
        if a["kind"] not in _TYPES:
            raise TypeError(f"op {op.op_type}: attribute '{a['name']}' (kind {a['kind']}) has no PyTorch type")
        attrs.append(f"{_TYPES[a['kind']]} {a['name']}" + (f"={_default(a)}" if a["has_default"] else ""))
    if attrs:
        params += ["*"] + attrs
    n = len(op.output_names)
    ret = "Tensor" if n == 1 else "(" + ", ".join(["Tensor"] * n) + ")"
    return f"({', '.join(params)}) -> {ret}"


def _np(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        if v.device.type != "cpu":
            raise TypeError(f"ascendrtc ops take CPU tensors (the simulated NPU runs in host memory), got {v.device}")
        return v.detach().numpy()
    if isinstance(v, (list, tuple)) and v and isinstance(v[0], torch.Tensor):
        return [_np(x) for x in v]
    return v


def _split(op, args: tuple, kwargs: dict):
    n = len(op.input_names)
    return [_np(a) for a in args[:n]], {k: _np(v) for k, v in kwargs.items()}


def _keep(ctx: Any, inputs: tuple, output: Any, keyword_only_inputs: Optional[dict] = None) -> None:
    ctx.inputs, ctx.output, ctx.attrs = inputs, output, dict(keyword_only_inputs or {})


def register(op, name: str, backward: Optional[Callable] = None, setup_context: Optional[Callable] = None):
    """Defines ``name`` (``"ns::op"``) for ``op`` and returns ``torch.ops.ns.op``."""
    if "::" not in name:
        raise ValueError(f"as_torch_op name {name!r}: expected 'namespace::op'")
    ns, opname = name.split("::", 1)
    torch.library.define(name, schema(op))

    def impl(*args, **kwargs):
        ins, attrs = _split(op, args, kwargs)
        out = op(*ins, **attrs)
        outs: List[np.ndarray] = list(out) if isinstance(out, tuple) else [out]
        res = tuple(torch.from_numpy(np.ascontiguousarray(o)) for o in outs)
        return res[0] if len(res) == 1 else res

    def fake(*args, **kwargs):
        shapes = []
        for a in args[:len(op.input_names)]:
            if isinstance(a, torch.Tensor):
                # shapes and dtypes only: a zero-strided array of the right dtype
                if a.dtype not in _DTYPES:
                    raise TypeError(f"{name}: no NumPy dtype for {a.dtype}")
                dt = np.dtype(_DTYPES[a.dtype])
                shapes.append(np.lib.stride_tricks.as_strided(np.zeros(1, dt), a.shape, [0] * a.dim()))
            else:
                shapes.append(a)
        outs = op.infer(*shapes, **kwargs)
        res = tuple(torch.empty(shape, dtype=_TORCH[np.dtype(dt)]) for shape, dt in outs)
        return res[0] if len(res) == 1 else res

    torch.library.impl(name, "CPU", func=impl)
    torch.library.register_fake(name, fake)
    if backward is None:
        inputs = ", ".join(op.input_names)

        def backward(ctx, *grads):
            raise RuntimeError(f"{name} has no backward: pass as_torch_op(..., backward=fn), where fn(ctx, *grads) "
                               f"returns one gradient per input ({inputs})")
    torch.library.register_autograd(name, backward, setup_context=setup_context or _keep)
    return getattr(getattr(torch.ops, ns), opname)
