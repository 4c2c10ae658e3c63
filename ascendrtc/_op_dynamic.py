"""Dynamic (list) inputs and outputs of an op project at launch: how many
instances a dynamic output has, the host request's lines per instance, and
the list descriptor a kernel receives for a dynamic parameter (one GM_ADDR
for the whole list: arc/list_tensor.h's layout, the one CANN's runtime
passes and ListTensorDesc / GetTensorAddr read)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["out_counts", "flatten_shapes", "known_shapes", "group", "descriptor", "run_lists", "generated_tiling_header"]


def out_counts(outs: Sequence[dict], inputs: List[List[np.ndarray]], ins: Sequence[dict], dynamic: int,
               out_shapes: Optional[Sequence[Any]]) -> List[int]:
    """Instances of each declared output: 1, or for a dynamic one the
    number of shapes out_shapes gives it, else the first dynamic input's
    count (the foreach ops' rule: y[i] for each x[i])."""
    first = next((len(a) for a, p in zip(inputs, ins) if p["param_type"] == dynamic), 1)
    counts = []
    for i, p in enumerate(outs):
        if p["param_type"] != dynamic:
            counts.append(1)
        elif out_shapes is not None and i < len(out_shapes) and _is_list_of_shapes(out_shapes[i]):
            counts.append(len(out_shapes[i]))
        else:
            counts.append(first)
    return counts


def _is_list_of_shapes(s: Any) -> bool:
    return isinstance(s, (list, tuple)) and all(isinstance(x, (list, tuple)) for x in s)


def flatten_shapes(shapes: List[Any], counts: List[int]) -> List[Optional[Tuple[int, ...]]]:
    """Per-output shapes (a list of shapes for a dynamic output) as one per instance."""
    out: List[Optional[Tuple[int, ...]]] = []
    for s, n in zip(shapes, counts):
        if n == 1 and not _is_list_of_shapes(s):
            out.append(None if s is None else tuple(int(d) for d in s))
        elif s is None:
            out += [None] * n
        else:
            out += [tuple(int(d) for d in x) for x in s]
    return out


def known_shapes(op_type: str, names: List[str], infer_shape: bool, inputs: List[List[np.ndarray]], out_shapes,
                 counts: List[int]) -> List[Optional[Tuple[int, ...]]]:
    """The output instances' shapes as far as they are known before
    InferShape: given (``out_shapes``, a list of shapes for a dynamic
    output), else -- for an op without InferShape -- the inputs' common
    shape when every input has the same one; None for an output the host
    code must infer (or that nobody can know)."""
    if out_shapes is not None:
        if len(out_shapes) != len(names):
            raise TypeError(f"{op_type}: out_shapes gives {len(out_shapes)} shape(s) for the op's {len(names)} "
                            f"output(s) ({', '.join(names)})")
        return flatten_shapes(list(out_shapes), counts)
    seen = {a.shape for arrs in inputs for a in arrs}
    if infer_shape or len(seen) != 1:
        return [None] * sum(counts)
    return [next(iter(seen))] * sum(counts)


def group(flat: List[Any], counts: List[int], dynamic: List[bool]) -> List[Any]:
    """Instances back into one entry per declared output (a list for a dynamic one)."""
    out, at = [], 0
    for n, dyn in zip(counts, dynamic):
        out.append(list(flat[at:at + n]) if dyn else flat[at])
        at += n
    return out


def descriptor(arrays: Sequence[Any]) -> np.ndarray:
    """The list descriptor of device arrays: word 0 the byte offset of the
    pointer table, then per tensor {dim, index} and its dims, then one data
    pointer per tensor (uint64 words)."""
    words = [0]
    for i, a in enumerate(arrays):
        words.append(len(a.shape) | (i << 32))
        words += [int(d) for d in a.shape]
    words[0] = 8 * len(words)
    words += [int(a.ptr) for a in arrays]
    return np.array(words, np.uint64)


def run_lists(op: Any, kern: Any, bound: List[List[np.ndarray]], dynamic_in: List[bool], t: Any,
              workspace_size: Optional[int]) -> Any:
    """Runs an op kernel some of whose inputs or outputs are lists: every
    parameter in device memory, a list as its descriptor (the tensors it
    points at kept alive until the launch is done).  ``t.outputs`` holds
    (shape, dtype) per declared output, a list of them for a dynamic one.
    Under ASCENDRTC_POISON=1 each output instance is checked.  Returns the
    outputs as host arrays (a list for a dynamic one), one or a tuple."""
    from . import _arrays, synchronize
    from ._poison import check_written, poisoning
    keep: List[Any] = []

    def dev(a: Any) -> Any:
        d = a if isinstance(a, _arrays.DeviceArray) else _arrays.to_device(a)
        keep.append(d)
        return d

    def param(ds: List[Any], dyn: bool) -> Any:
        return dev(descriptor([dev(d) for d in ds])) if dyn else dev(ds[0])

    args = [param(arrs, dyn) for arrs, dyn in zip(bound, dynamic_in)]
    made = [[_arrays.empty(shape, dt, poison=poisoning()) for shape, dt in (o if isinstance(o, list) else [o])]
            for o in t.outputs]
    args += [param(m, isinstance(o, list)) for m, o in zip(made, t.outputs)]
    ws = max(int(workspace_size if workspace_size is not None else t.workspace_size), 32)
    tail = [np.zeros(ws, np.uint8), np.frombuffer(t.data if t.data else b"\0" * 8, np.uint8)]
    args += [dev(a) for a in tail[:max(len(kern.params) - len(args), 0)]]
    kern(*args, block_dim=t.block_dim, tiling_key=t.tiling_key)
    synchronize()
    outs = []
    for name, m, o in zip(op.output_names, made, t.outputs):
        hs = [d.get() for d in m]
        for j, h in enumerate(hs):
            if poisoning():
                check_written(h, f"{op.op_type} output '{name}'" + (f"[{j}]" if isinstance(o, list) else ""))
        outs.append(hs if isinstance(o, list) else hs[0])
    return outs[0] if len(outs) == 1 else tuple(outs)


def generated_tiling_header(files: Dict[str, str], op_type: str, struct: Any) -> Tuple[Dict[str, str], Any]:
    """(files, tiling_headers) for the op's kernel: as they are, unless the
    op's tiling struct is registered only outside op_host/*.h (an op
    library's shared directory, or a per-arch op_host/arch35/, whose
    headers are host code: foreach's foreach_tiling_def.h, Floor's
    floor_tiling_arch35.h); then the struct the host code reports, in the
    tiling DSL, as ``op_host/__arc_tiling_struct.h`` (CANN's build likewise
    generates the kernel's tiling struct from the host registration)."""
    reg = f"REGISTER_TILING_DATA_CLASS({op_type},"
    own = [p for p, t in files.items() if p.startswith("op_host/") and p.count("/") == 1 and p.endswith(".h") and
           ("BEGIN_TILING_DATA_DEF" in t or "REGISTER_TILING_DATA_CLASS" in t)]
    shared = [p for p, t in files.items() if (p.split("/")[1:2] == ["op_host"] or p.startswith("op_host/")) and
              p.count("/") == 2 and p.endswith(".h") and reg in t.replace(" ", "")]
    src = struct.dsl_source(op_type) if struct is not None and shared and not own else None
    if src is None:
        return files, None
    name = "op_host/__arc_tiling_struct.h"
    return {**files, name: src}, [name]
