"""PyTorch interop: run an Ascend C kernel as a PyTorch custom op.

Kernels already take CPU ``torch.Tensor`` arguments (through DLPack, sharing
their memory), and ``torch.from_dlpack(device_array)`` views a device array
without a copy on the simulated NPU.  :func:`custom_op` goes one step further
and registers a kernel with ``torch.library``, so that
``torch.ops.<ns>.<name>(a, b)`` runs it, and ``torch.compile`` traces it
through a fake (meta) implementation::

    import torch, ascendrtc as arc
    from ascendrtc.torch import custom_op

    @arc.jit(block_dim=8)
    def vadd(x, y, z):
        return ADD_SRC.replace("N_ELEMS", str(x.size))

    custom_op("arc_demo::vadd", vadd, outputs=lambda x, y: torch.empty_like(x))
    torch.ops.arc_demo.vadd(torch.ones(256), torch.ones(256))

This module imports torch; ``import ascendrtc`` does not.  Install a CPU
build of PyTorch with ``pip install torch --index-url https://download.pytorch.org/whl/cpu``.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Optional, Sequence

import torch

__all__ = ["custom_op"]

_SCALARS = {float: "float", int: "int", bool: "bool", "float": "float", "int": "int", "bool": "bool"}


def _schema(outputs: Callable, n_outputs: int) -> str:
    """``(Tensor x, Tensor y, float alpha) -> Tensor`` from the outputs function:
    its parameters are the op's inputs; ``float``/``int``/``bool``
    annotations make scalars, everything else is a Tensor."""
    params = []
    for p in inspect.signature(outputs).parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise TypeError(f"custom_op(outputs=...): parameter '{p.name}' must be a plain positional parameter")
        params.append(f"{_SCALARS.get(p.annotation, 'Tensor')} {p.name}")
    ret = "Tensor" if n_outputs == 1 else "(" + ", ".join(["Tensor"] * n_outputs) + ")"
    return f"({', '.join(params)}) -> {ret}"


def _host(v: Any) -> Any:
    """A CPU tensor detached (the launch views its memory through DLPack and
    names it as a torch.Tensor in messages); other values as they are."""
    if isinstance(v, torch.Tensor):
        if v.device.type != "cpu":
            raise TypeError(f"ascendrtc custom ops take CPU tensors (the simulated NPU runs in host memory), "
                            f"got a tensor on {v.device}")
        return v.detach()
    return v


def _param_names(kernel: Any) -> Sequence[str]:
    names = getattr(kernel, "_pnames", None)  # a jit kernel: its Python parameters
    if names is None and hasattr(kernel, "params"):  # a Kernel: the kernel's own parameters
        names = [p[0] for p in kernel.params]
    if names is None:
        raise TypeError(f"custom_op: expected an ascendrtc.jit kernel or an ascendrtc.Kernel, got "
                        f"{type(kernel).__name__}")
    return list(names)


def _keep_inputs_and_output(ctx: Any, inputs: tuple, output: Any) -> None:
    ctx.inputs, ctx.output = inputs, output


def custom_op(name: str, kernel: Any, *, outputs: Callable, block_dim: Optional[int] = None,
              backward: Optional[Callable] = None, setup_context: Optional[Callable] = None) -> Callable:
    """Register ``kernel`` as the PyTorch operator ``name`` (``"namespace::op"``).

    ``kernel`` is a :func:`ascendrtc.jit` kernel, or a :class:`~ascendrtc.Kernel`
    (then give ``block_dim``).  ``outputs(*inputs)`` allocates the op's
    output tensors -- e.g. ``lambda x, y: torch.empty_like(x)`` -- and its
    parameter names say which of the kernel's parameters are the op's
    inputs, in the op's order; the kernel's other parameters are the
    outputs, in the kernel's order (return a tuple when there are several).
    ``outputs`` also serves as the fake implementation that ``torch.compile``
    traces with, so it must only look at shapes and dtypes.  Scalar inputs
    need a ``def`` with ``float``, ``int`` or ``bool`` annotations
    (``def out(x, alpha: float): return torch.empty_like(x)``).

    Autograd: ``backward(ctx, *grads)`` returns one gradient per input (None
    for scalars and for inputs that need none); ``ctx.inputs`` and
    ``ctx.output`` hold the call's inputs and result unless ``setup_context``
    (``torch.library.register_autograd``'s) saves something else.  It may
    itself launch kernels.  Without ``backward`` the op still takes tensors
    that require grad, and ``.backward()`` through it raises instead of
    leaving ``.grad`` None.

    Returns the operator (``torch.ops.<namespace>.<op>``).
    """
    if "::" not in name:
        raise ValueError(f"custom_op name {name!r}: expected 'namespace::op'")
    pnames = _param_names(kernel)
    inputs = list(inspect.signature(outputs).parameters)
    unknown = [n for n in inputs if n not in pnames]
    if unknown:
        raise TypeError(f"custom_op({name!r}): outputs() takes {', '.join(unknown)}, which the kernel's parameters "
                        f"({', '.join(pnames)}) do not include")
    out_names = [n for n in pnames if n not in inputs]
    if not out_names:
        raise TypeError(f"custom_op({name!r}): every kernel parameter is an input; the outputs are the kernel "
                        f"parameters that outputs() does not take")
    n_out = len(out_names)
    launch = kernel if block_dim is None else kernel[block_dim]
    schema = _schema(outputs, n_out)
    ns, op = name.split("::", 1)

    def alloc(args: tuple) -> Sequence[torch.Tensor]:
        outs = outputs(*args)
        outs = (outs,) if isinstance(outs, torch.Tensor) else tuple(outs)
        if len(outs) != n_out:
            raise TypeError(f"{name}: outputs() returned {len(outs)} tensor(s) for the kernel's outputs "
                            f"{', '.join(out_names)}")
        return outs

    def impl(*args):
        outs = alloc(args)
        values = dict(zip(inputs, args))
        values.update(zip(out_names, outs))
        launch(*(_host(values[n]) for n in pnames))
        return outs[0] if n_out == 1 else outs

    def fake(*args):
        outs = alloc(args)
        return outs[0] if n_out == 1 else outs

    torch.library.define(name, schema)
    torch.library.impl(name, "CPU", func=impl)
    torch.library.register_fake(name, fake)
    if backward is None:
        def backward(ctx, *grads):
            raise RuntimeError(f"{name} has no backward: pass custom_op(..., backward=fn), where fn(ctx, *grads) "
                               f"returns one gradient per input ({', '.join(inputs)})")
    torch.library.register_autograd(name, backward, setup_context=setup_context or _keep_inputs_and_output)
    return getattr(getattr(torch.ops, ns), op)
