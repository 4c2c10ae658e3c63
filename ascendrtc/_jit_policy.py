"""Specialisation policies of jit parameters and the values a source
function or template sees for them.

Per parameter, the user says what a new argument value does:

``exact``     the value (for arrays: shape and dtype) is baked into the
              source; a new value is a new variant.  The default for arrays
              and scalars.
``bucket()``  ints (array dims) are rounded up -- next power of two and/or a
              multiple of N -- before the source sees them; the actual value
              still reaches the kernel at run time, so it must handle the
              tail.
``runtime``   not part of the source or the key: passed to the kernel as a
              scalar or tiling argument.  The default for anything that is
              neither an array nor a scalar.
"""
from __future__ import annotations

from typing import Any, Callable, List, NamedTuple, Optional, Tuple

import numpy as np

from ._C import Intent
from ._jit_template import ctype

__all__ = ["Policy", "exact", "runtime", "bucket", "ArraySpec", "RuntimeValue", "spec", "Part", "KEY_RULES",
           "classify", "fast_key_exprs", "rounding"]


class Policy:
    """How one parameter specialises; use :data:`exact`, :data:`runtime`
    or :func:`bucket`."""
    __slots__ = ("kind", "pow2", "multiple", "minimum")

    def __init__(self, kind: str, pow2: bool = False, multiple: Optional[int] = None, minimum: int = 0):
        self.kind, self.pow2, self.multiple, self.minimum = kind, pow2, multiple, minimum

    def round(self, v: int, what: str) -> int:
        """``v`` rounded up to its bucket."""
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{what}: bucket() needs an int, got {type(v).__name__} {v!r}")
        v = int(v)
        if v < 0:
            raise ValueError(f"{what}: bucket() needs a non-negative int, got {v}")
        if self.pow2:
            v = max(v, self.minimum, 1)
            v = 1 << (v - 1).bit_length()
        if self.multiple:
            v = max(v, self.minimum)
            v = -(-v // self.multiple) * self.multiple
        return v

    def __repr__(self) -> str:
        if self.kind != "bucket":
            return f"ascendrtc.{self.kind}"
        args = []
        if self.multiple:
            args.append(f"multiple={self.multiple}")
        if self.pow2:
            args.append("pow2=True")
        if self.minimum:
            args.append(f"minimum={self.minimum}")
        return f"ascendrtc.bucket({', '.join(args)})"


exact = Policy("exact")
runtime = Policy("runtime")


def bucket(multiple: Optional[int] = None, *, pow2: bool = False, minimum: int = 0) -> Policy:
    """A bucketing policy: round ints (array dims) up to the next power of
    two (``pow2=True``) and/or a multiple of ``multiple``, at least
    ``minimum``.  ``bucket(pow2=True, multiple=64)`` gives 64, 64, 128, 256...
    """
    if multiple is not None and (isinstance(multiple, bool) or not isinstance(multiple, int) or multiple < 1):
        raise ValueError(f"bucket(multiple=...) must be a positive int, got {multiple!r}")
    if not pow2 and multiple is None:
        raise ValueError("bucket() needs pow2=True and/or multiple=N")
    if isinstance(minimum, bool) or not isinstance(minimum, int) or minimum < 0:
        raise ValueError(f"bucket(minimum=...) must be a non-negative int, got {minimum!r}")
    return Policy("bucket", pow2=pow2, multiple=multiple, minimum=minimum)


class ArraySpec:
    """What a source function or template sees of an array argument:
    ``shape`` (bucketed when its policy buckets it), ``dtype``, ``ndim``,
    ``size``, ``itemsize``, ``nbytes`` and ``ctype``.  Also usable in
    :meth:`JitKernel.warmup` in place of a real array (see :func:`spec`)."""
    __slots__ = ("_shape", "dtype", "ndim", "name")

    def __init__(self, shape: Optional[Tuple[int, ...]], dtype: Any, ndim: Optional[int] = None, name: str = "?"):
        self._shape = None if shape is None else tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.ndim = len(self._shape) if self._shape is not None else int(ndim or 0)
        self.name = name

    @property
    def shape(self) -> Tuple[int, ...]:
        if self._shape is None:
            raise TypeError(f"the shape of '{self.name}' is a run-time value (its policy is ascendrtc.runtime), so "
                            f"the source cannot depend on it; use ascendrtc.exact or bucket(...) to template it")
        return self._shape

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def ctype(self) -> str:
        return ctype(self.dtype)

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        dims = ",".join("?" * self.ndim) if self._shape is None else ",".join(map(str, self._shape))
        return f"{self.dtype.name}[{dims}]"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, ArraySpec) and self._shape == other._shape and self.dtype == other.dtype
                and self.ndim == other.ndim)

    def __hash__(self) -> int:
        return hash((self._shape, self.dtype, self.ndim))


def spec(shape: Any, dtype: Any = np.float32) -> ArraySpec:
    """A stand-in for an array of ``shape`` and ``dtype``: pass it to
    :meth:`JitKernel.warmup` (or ``render``) to compile without data."""
    return ArraySpec((shape,) if isinstance(shape, int) else tuple(shape), dtype)


def _no_value(self, *a: Any) -> Any:
    raise TypeError(f"parameter '{self.name}' is passed at run time ({self.why}), so it has no value when the source "
                    f"is rendered; use ascendrtc.exact or bucket(...) to template it")


class RuntimeValue:
    """What the source sees of a run-time parameter: any use raises a
    TypeError that says so."""
    __slots__ = ("name", "why")

    def __init__(self, name: str, why: str = "its policy is ascendrtc.runtime"):
        self.name, self.why = name, why

    def __repr__(self) -> str:
        return f"<run-time {self.name}>"

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        _no_value(self)

    __str__ = __format__ = __int__ = __index__ = __float__ = __bool__ = _no_value
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _no_value
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _no_value
    __lt__ = __le__ = __gt__ = __ge__ = __neg__ = __lshift__ = __rshift__ = __pow__ = _no_value


_SCALARS = (bool, int, float, complex, np.generic)


def _is_array(v: Any) -> bool:
    return not isinstance(v, np.generic) and hasattr(v, "shape") and hasattr(v, "dtype")


def _dtype_of(v: Any) -> np.dtype:
    """NumPy's dtype for an array-like; DLPack exporters whose dtype NumPy
    does not know (torch.float32) are asked through DLPack (no copy)."""
    try:
        return np.dtype(v.dtype)
    except TypeError:
        return np.from_dlpack(v).dtype


class Part(NamedTuple):
    """One argument's share of a variant's key: the facts of it the source
    may depend on.  ``kind``: ``a`` array, ``s`` baked-in value, ``r`` run
    time (no facts)."""
    kind: str
    shape: Optional[Tuple[int, ...]] = None   # arrays; None when the shape is a run-time value
    ndim: Optional[int] = None
    dtype: Optional[np.dtype] = None
    vtype: Optional[type] = None              # baked-in values
    value: Any = None

    def facets(self) -> Tuple[Tuple[str, Any], ...]:
        """((facet, value), ...) for explanations and the recompile budget."""
        if self.kind == "a":
            return (("shape", self.shape if self.shape is not None else f"{self.ndim}-d"),
                    ("dtype", self.dtype.name))
        return (("value", self.value),) if self.kind == "s" else ()


def _baked(name: str, v: Any) -> Any:
    try:
        hash(v)
    except TypeError:
        raise TypeError(f"argument '{name}': a {type(v).__name__} cannot be baked into the source (it is not "
                        f"hashable); pass an array, a scalar, or mark '{name}' ascendrtc.runtime") from None
    return v


# The policy table: per (argument kind, policy), the facts a variant's key
# holds, each as (Part field, the expression the generated fast path
# evaluates over the argument {v} -- {r} is the policy's rounding --, the
# function the slow path evaluates (argument, rounding, name)).  Both keys
# come from here: the fast one keeps raw attributes (so it also holds each
# array's class: a torch dtype is not a NumPy dtype), the slow one
# normalises them into a Part.
_CLASS = (None, "{v}.__class__", None)
_DTYPE = ("dtype", "{v}.dtype", lambda v, r, n: _dtype_of(v))
_VTYPE = ("vtype", "{v}.__class__", lambda v, r, n: type(v))
KEY_RULES = {
    ("a", "exact"): (_CLASS, ("shape", "{v}.shape", lambda v, r, n: tuple(v.shape)), _DTYPE),
    ("a", "bucket"): (_CLASS, ("shape", "{r}({v}.shape)", lambda v, r, n: r(v.shape)), _DTYPE),
    ("a", "runtime"): (_CLASS, ("ndim", "{v}.ndim", lambda v, r, n: len(v.shape)), _DTYPE),
    ("s", "exact"): (_VTYPE, ("value", "{v}", lambda v, r, n: _baked(n, v))),
    ("s", "bucket"): (_VTYPE, ("value", "{r}({v})", lambda v, r, n: r(v))),
    ("s", "runtime"): (),
}


def policy_kind(policy: Optional[Policy], array: bool, v: Any = None) -> str:
    """The policy that applies: the given one, else ``exact`` for arrays
    and scalars and ``runtime`` for anything else."""
    if policy is not None:
        return policy.kind
    return "exact" if array or isinstance(v, _SCALARS) else "runtime"


def rounding(policy: Optional[Policy], array: bool, name: str) -> Optional[Callable[[Any], Any]]:
    """The function a ``bucket`` policy applies to an array's shape or a
    value (None for the others)."""
    if policy is None or policy.kind != "bucket":
        return None
    if array:
        return lambda shape: tuple(policy.round(d, f"{name}.shape") for d in shape)
    return lambda v: policy.round(v, name)


def fast_key_exprs(name: str, kind: str, policy: Optional[Policy], r: str) -> List[str]:
    """The fast path's key expressions for parameter ``name`` of ``kind``
    (as :func:`classify` returns it), with ``r`` naming its rounding
    function."""
    if kind == "r":
        return []
    rule = KEY_RULES[("a" if kind == "a" else "s", policy.kind if policy is not None else "exact")]
    return [expr.format(v=name, r=r) for _, expr, _ in rule]


def classify(name: str, policy: Optional[Policy], v: Any) -> Tuple[str, Part, Any]:
    """(kind, key part, the value the source sees) of one argument.

    kind: ``a`` array, ``s`` scalar, ``r`` run time, ``o`` other baked in,
    ``i`` an array wrapped in In/Out/InOut.
    """
    kind = "a"
    if isinstance(v, Intent):
        v, kind = v.obj, "i"
    array = _is_array(v)
    if not array and kind == "i":
        raise TypeError(f"argument '{name}': In/Out/InOut wrap arrays, not {type(v).__name__}")
    pk = policy_kind(policy, array, v)
    r = rounding(policy, array, name)
    facts = {f: fn(v, r, name) for f, _, fn in KEY_RULES[("a" if array else "s", pk)] if f is not None}
    if array:
        shape = facts.get("shape")
        part = Part("a", shape, len(shape) if shape is not None else facts["ndim"], facts["dtype"])
        return kind, part, ArraySpec(part.shape, part.dtype, part.ndim, name=name)
    if pk == "runtime":
        why = ("its policy is ascendrtc.runtime" if policy is not None else
               f"a {type(v).__name__} argument is not baked into the source unless marked ascendrtc.exact")
        return "r", Part("r"), RuntimeValue(name, why)
    part = Part("s", vtype=facts["vtype"], value=facts["value"])
    return ("s" if isinstance(v, _SCALARS) else "o"), part, part.value
