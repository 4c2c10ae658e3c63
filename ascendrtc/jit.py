"""``@ascendrtc.jit``: kernel source specialised for the arguments of each
call, compiled once per variant, cached in memory and on disk.

::

    @arc.jit(block_dim=8)                       # a function that returns the source
    def vadd(x, y, z):
        return SRC.replace("{N}", str(x.size)).replace("{T}", arc.ctype(x.dtype))

    vadd = arc.jit(TEMPLATE, params="x, y, z", block_dim=8)   # ${x.size}, ${ctype(x.dtype)} ...

    @arc.jit(template=TEMPLATE, block_dim=8)    # a function that returns template values
    def vadd(x, y, z):
        return {"N": x.size, "T": x.dtype}

    vadd(x, y, z)            # renders, compiles (or hits a cache), launches
    vadd[16, stream](x, y, z)

The source function / template sees, per parameter, what its policy lets it
see (:mod:`ascendrtc._jit_policy`): arrays as :class:`ArraySpec` (shape,
dtype, size, ctype), scalars by value, run-time parameters not at all.  A
call computes its in-memory key from exactly those facts -- shapes, dtypes,
baked-in values -- so a warm call is one dict lookup before the launch; the
source is rendered and hashed only when a new variant is needed, and then
the disk cache (:mod:`ascendrtc.cache`) is asked before the compiler.

Kernel arguments: the Python parameters whose names match the kernel's
parameters, in the kernel's order (else all of them, if the counts match;
else ``kernel_args=``).  A baked-in scalar the kernel does not take is
simply not passed.

Caveat: the in-memory key does not see globals the source function reads
or header files changed during the process; :meth:`JitKernel.cache_clear`
drops the in-memory variants.  The disk key covers everything.
"""
from __future__ import annotations

import dataclasses
import inspect
import logging
import os
import sys
import threading
import time
import warnings
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import cache as _cache
from ._jit_gen import _internal, _register_source, _selector
from ._jit_names import _kernel_name_in, _pick_kernel, _template_origin
from ._jit_errors import JitCompileError, RecompileBudgetError, RecompileWarning, _Progress
from ._jit_options import JitOptions
from ._jit_policy import ArraySpec, Part, RuntimeValue, bucket, classify, exact, fast_key_exprs, rounding, runtime, spec
from . import _jit_template
from ._jit_template import Template, TemplateError, ctype, render_returned
from ._program import CompileError, Program

__all__ = ["jit", "JitKernel", "JitOptions", "JitCompileError", "RecompileBudgetError", "RecompileWarning",
           "Template", "TemplateError", "ArraySpec", "RuntimeValue", "exact", "runtime", "bucket", "spec", "ctype"]

log = logging.getLogger("ascendrtc.jit")


# ---- the decorated kernel -----------------------------------------------------

class _Variant:
    __slots__ = ("label", "kernel", "call", "block_dim", "binary", "how", "source", "parts")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


class JitKernel:
    """A kernel whose source is rendered per specialisation; see :func:`jit`.

    Call it like the function it decorates; ``kernel[block_dim]`` or
    ``kernel[block_dim, stream]`` overrides the launch configuration.

    Attributes: ``__name__`` (the function's name, or for a template alone
    the kernel function it defines), ``origin`` (what its disk-cache entries
    are grouped under), ``program_name``, ``block_dim``, ``stream``,
    ``options``, ``headers``, ``kernel_name``, ``intents``,
    ``max_variants``, ``on_budget``, ``counters`` (see :meth:`stats`) and
    ``explanations`` (why each of the last 50 variants was built).
    """

    def __init__(self, func: Optional[Callable], opts: JitOptions):
        template = opts.template
        tname = opts.name or getattr(func, "__name__", None)
        if tname is None and template is not None:  # a template alone: named for its kernel function
            tname = _kernel_name_in(template if isinstance(template, str) else template.text)
            if tname is None and isinstance(template, Template) and template.name != "<template>":
                tname = template.name
        if isinstance(template, str):
            template = Template(template, name=tname or "kernel")
        self._func, self._template = func, template
        if func is None and template is None:
            raise TypeError("jit() needs a function that returns the source, or a template")
        if func is not None:
            sig = inspect.signature(func)
        else:
            params = opts.params
            names = params.replace(",", " ").split() if isinstance(params, str) else list(params or ())
            if not names:
                raise TypeError("jit(template, params=...): name the kernel's parameters, e.g. params='x, y, z'")
            sig = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"jit: parameter '{p.name}' is *{p.name}/**{p.name}; a jit kernel needs named "
                                f"parameters (one per kernel argument or template value)")
            if p.name.startswith("__arc"):
                raise TypeError(f"jit: parameter name '{p.name}' is reserved")
        self._sig = sig
        self._pnames = list(sig.parameters)
        self.__name__ = tname or "kernel"
        self.__qualname__ = getattr(func, "__qualname__", self.__name__)
        self.__doc__ = getattr(func, "__doc__", None)
        self.__module__ = getattr(func, "__module__", None) or __name__
        self.__wrapped__ = func
        self.origin = opts.origin or (f"{self.__module__}.{self.__qualname__}" if func is not None
                                      else f"template:{self.__name__}")
        self.program_name = f"{self.__name__}.asc"
        for k in opts.specialize:
            if k not in sig.parameters:
                raise TypeError(f"jit(specialize=...): '{k}' is not a parameter of {self.__name__}"
                                f"({', '.join(self._pnames)})")
        self._policies = [opts.specialize.get(n) for n in self._pnames]
        for n in opts.kernel_args or ():
            if n not in sig.parameters:
                raise TypeError(f"jit(kernel_args=...): '{n}' is not a parameter of {self.__name__}")
        self._kernel_args = opts.kernel_args
        self.block_dim, self.stream, self.options, self.headers = opts.block_dim, opts.stream, opts.options, opts.headers
        self.kernel_name, self.intents = opts.kernel, opts.intents
        self.max_variants, self.on_budget = opts.max_variants, opts.on_budget
        # state
        self._lock = threading.Lock()
        self._building: Dict[Any, threading.Lock] = {}
        self._variants: Dict[Any, _Variant] = {}
        self._fast: Dict[Any, Callable] = {}
        self._hits = [0]
        self._kinds0: Optional[Tuple[str, ...]] = None
        self._facets: List[Dict[str, set]] = [dict() for _ in self._pnames]
        self._last_parts: Optional[tuple] = None
        self._warned = False
        self._nbudget = 0
        self.counters = {"slow_hits": 0, "disk_hits": 0, "compiles": 0, "compile_seconds": 0.0,
                         "load_seconds": 0.0}
        self.explanations: List[str] = []
        self._install(self._gen_call(None))

    # -- the call path --
    def _install(self, fn: Callable) -> None:
        # A per-instance subclass whose __call__ is the generated function
        # itself: a call costs no extra Python frame.
        cls = type(self)
        if cls is JitKernel:
            cls = type("JitKernel", (JitKernel,), {"__module__": JitKernel.__module__,
                                                    "__qualname__": JitKernel.__qualname__})
            self.__class__ = cls
        cls.__call__ = staticmethod(fn)

    def _gen_call(self, kinds: Optional[Tuple[str, ...]]) -> Callable:
        """The call function: with ``kinds`` known, a fast path that looks
        the variant up by shapes/dtypes/values and launches it."""
        ns: Dict[str, Any] = {"__arc_slow": self._slow, "__arc_fast": self._fast, "__arc_hits": self._hits}
        params, seen_kwonly = [], False
        for i, p in enumerate(self._sig.parameters.values()):
            if p.kind == p.KEYWORD_ONLY and not seen_kwonly:
                params.append("*")
                seen_kwonly = True
            s = p.name
            if p.default is not p.empty:
                ns[f"__arc_d{i}"] = p.default
                s += f"=__arc_d{i}"
            params.append(s)
            if p.kind == p.POSITIONAL_ONLY and (i + 1 == len(self._pnames) or
                                                list(self._sig.parameters.values())[i + 1].kind != p.POSITIONAL_ONLY):
                params.append("/")
        names = ", ".join(self._pnames)
        tup = f"({names},)" if self._pnames else "()"
        fname = self.__name__ if self.__name__.isidentifier() and not self.__name__.startswith("__arc") else "kernel"
        lines = [f"def {fname}({', '.join(params)}):"]
        # The slow path hands back errors from inside ascendrtc for this frame
        # to raise: a user's traceback shows their call and this one line.
        slow = [f"    __arc_r, __arc_error = __arc_slow({tup})",
                "    if __arc_error is not None:",
                "        raise __arc_error  # ascendrtc.jit: the message says what went wrong",
                "    return __arc_r"]
        if kinds is None:
            lines += slow
        else:
            key = []
            for i, (n, k, pol) in enumerate(zip(self._pnames, kinds, self._policies)):
                ns[f"__arc_r{i}"] = rounding(pol, k == "a", n)
                key += fast_key_exprs(n, k, pol, f"__arc_r{i}")
            # The slow path runs outside the except block, so its errors
            # do not show the fast path's lookup failure as their context.
            lines += ["    try:",
                      f"        __arc_e = __arc_fast[({', '.join(key)},)]" if key else "        __arc_e = __arc_fast[()]",
                      "    except Exception:",
                      "        __arc_e = None",
                      "    if __arc_e is None:",
                      *["    " + ln for ln in slow],
                      "    __arc_hits[0] += 1",
                      f"    return __arc_e({names})"]
            lines += [f"def __arc_key({names}):",
                      f"    return ({', '.join(key)},)" if key else "    return ()"]
        text = "\n".join(lines) + "\n"
        exec(compile(text, _register_source(f"<jit {self.__name__}>", text), "exec"), ns)  # noqa: S102
        self._keyfn = ns.get("__arc_key")
        return ns[fname]

    def _classify(self, args: Sequence[Any]) -> Tuple[Tuple[str, ...], Tuple[Part, ...], Dict[str, Any]]:
        kinds, parts, values = [], [], {}
        for n, pol, v in zip(self._pnames, self._policies, args):
            k, part, values[n] = classify(n, pol, v)
            kinds.append(k)
            parts.append(part)
        return tuple(kinds), tuple(parts), values

    def _slow(self, args: tuple, bound: Optional["_Bound"] = None) -> Tuple[Any, Optional[BaseException]]:
        """A call that missed the fast path (or ``kernel[block_dim, stream]``
        with ``bound``): (result, None), or (None, the error) for the caller to
        raise when it came from ascendrtc's own code (its frames would only
        hide the message); an error raised in the user's source function
        propagates."""
        __tracebackhide__ = True  # noqa: F841 - pytest and IPython hide this frame
        try:
            return (self._slow_call(args) if bound is None else bound._call(args)), None
        except Exception as e:
            if _internal(e.__traceback__.tb_next):
                return None, e.with_traceback(None)
            raise

    def _slow_call(self, args: tuple):
        kinds, parts, values = self._classify(args)
        skey = (None, parts)
        v = self._variants.get(skey)
        if v is None:
            v = self._variant(skey, values, None)
        else:
            self.counters["slow_hits"] += 1
        if "i" not in kinds:
            if self._kinds0 is None:
                with self._lock:
                    if self._kinds0 is None:
                        self._kinds0 = kinds
                        self._install(self._gen_call(kinds))
            if kinds == self._kinds0:
                try:
                    self._fast[self._keyfn(*args)] = v.call
                except Exception:  # a key the fast path cannot compute: stay on the slow path
                    pass
        return v.call(*args)

    def _bind(self, args: tuple, kwargs: dict) -> tuple:
        try:
            b = self._sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}({', '.join(self._pnames)}): {e}") from None
        b.apply_defaults()
        return tuple(b.arguments[n] for n in self._pnames)

    def __getitem__(self, key) -> "_Bound":
        bd, stream = key if isinstance(key, tuple) and len(key) == 2 else (key, None)
        if isinstance(bd, bool) or not isinstance(bd, int) or bd < 1:
            raise TypeError(f"{self.__name__}: use {self.__name__}[block_dim] or {self.__name__}[block_dim, stream] "
                            f"with a positive int block_dim, got {key!r}")
        return _Bound(self, bd, stream)

    # -- variants --
    def _variant(self, skey, values: Dict[str, Any], bd_override: Optional[int], budget: bool = True) -> _Variant:
        """The variant of ``skey``, built once even when threads race for
        it (those that wait count as memory hits)."""
        with self._lock:
            v = self._variants.get(skey)
            if v is not None:
                self.counters["slow_hits"] += 1
                return v
            lk = self._building.setdefault(skey, threading.Lock())
        with lk:
            v = self._variants.get(skey)
            if v is not None:
                with self._lock:
                    self.counters["slow_hits"] += 1
                return v
            v = self._build(skey, values, bd_override, budget)
            with self._lock:
                self._variants[skey] = v
                self._building.pop(skey, None)
            return v

    def _label(self, values: Mapping[str, Any], bd: int) -> str:
        shown = []
        for n in self._pnames:
            val = values[n]
            if isinstance(val, RuntimeValue):
                continue
            shown.append(f"{n}={val!r}")
        return f"{self.__name__}[{', '.join(shown)}; block_dim={bd}]"

    def _render_source(self, values: Dict[str, Any]) -> str:
        if self._func is None:
            return self._template.render(values)
        out = self._func(**{n: values[n] for n in self._pnames})
        if self._template is not None:
            if not isinstance(out, Mapping):
                raise TypeError(f"{self.__name__}: with jit(template=...) the function returns the template's values "
                                f"as a dict, not {type(out).__name__}")
            return self._template.render({**values, **out})
        if not isinstance(out, str):
            raise TypeError(f"{self.__name__}: the jit function must return the kernel source as a str, "
                            f"not {type(out).__name__}")
        return render_returned(out, values, self.__name__)  # ${...} placeholders: rendered like jit(SRC, params=)

    def _budget(self, facets: list, label: str) -> None:
        """Count the new variant; warn or raise past the budget, naming
        the parameter that varied most."""
        for seen, fac in zip(self._facets, facets):
            for f, val in fac:
                seen.setdefault(f, set()).add(val if _hashable(val) else repr(val))
        self._nbudget += 1
        n = self._nbudget
        if n <= self.max_variants:
            return
        varied = sorted(((len(s), name, f, s) for name, d in zip(self._pnames, self._facets)
                         for f, s in d.items() if len(s) > 1), key=lambda t: -t[0])
        if varied:
            cnt, name, f, s = varied[0]
            vals = ", ".join(sorted(map(str, s), key=lambda x: (len(x), x))[:6]) + (", ..." if len(s) > 6 else "")
            what = (f"parameter '{name}' ({'value' if f == 'value' else f}) took {cnt} distinct values: {vals}")
            hint = (f"mark '{name}' ascendrtc.bucket(...) or ascendrtc.runtime in jit(specialize=...)"
                    if f != "dtype" else f"'{name}' really varies in dtype; raise max_variants")
            others = [f"'{nm}' ({ff}, {c})" for c, nm, ff, _ in varied[1:4]]
            if others:
                what += "; also varied: " + ", ".join(others)
        else:
            what, hint = "no single parameter varied", "raise max_variants"
        msg = (f"jit kernel '{self.__name__}' needs variant {n}, over its budget of {self.max_variants} "
               f"({label}); {what}. To stop recompiling, {hint}.")
        if self.on_budget == "raise":
            raise RecompileBudgetError(msg)
        if not self._warned:
            self._warned = True
            warnings.warn(msg, RecompileWarning, stacklevel=6)  # the caller of the kernel

    def _explain_new(self, parts: tuple) -> str:
        old = self._last_parts
        if old is None:
            return "first variant"
        diffs = []
        for n, a, b in zip(self._pnames, old[1], parts[1]):
            if a == b:
                continue
            if a.kind == "a" and b.kind == "a":
                if a.shape != b.shape:
                    diffs.append(f"{n}.shape {a.shape if a.shape is not None else '?'} -> "
                                 f"{b.shape if b.shape is not None else '?'}")
                if a.dtype != b.dtype:
                    diffs.append(f"{n}.dtype {a.dtype} -> {b.dtype}")
            elif a.kind == "s" and b.kind == "s":
                diffs.append(f"{n} {a.value!r} -> {b.value!r}")
            else:
                diffs.append(f"{n} changed kind")
        if old[0] != parts[0]:
            diffs.append(f"block_dim {old[0]} -> {parts[0]}")
        return ", ".join(diffs) or "new variant"

    def _build(self, skey, values: Dict[str, Any], bd_override: Optional[int], budget: bool = True) -> _Variant:
        if bd_override is not None:
            bd = bd_override
        elif callable(self.block_dim):
            bd = self.block_dim(**values)
            if isinstance(bd, bool) or not isinstance(bd, int) or bd < 1:
                raise TypeError(f"{self.__name__}: block_dim function returned {bd!r}; expected a positive int")
        else:
            bd = self.block_dim
        label = self._label(values, bd)
        source = self._render_source({**values, "block_dim": bd})
        _jit_template.remember(self.program_name, source)
        if budget:  # warm-up asks for its variants on purpose
            with self._lock:
                self._budget([p.facets() for p in skey[1]], label)
        program = Program(source, self.program_name, headers=self.headers)
        try:
            res = _cache.compile(program, self.options, origin=self.origin, label=label)
        except CompileError as e:
            raise JitCompileError(e.code, e.name, e.log, source, e.options, e.program_name, e.message,
                                  getattr(e, "headers", None), label=label) from None
        t0 = time.perf_counter()
        kname = self.kernel_name or _pick_kernel(res.binary.kernel_names, self.__name__)
        kern = res.binary.load().get_kernel(kname, intents=self.intents)
        load_s = time.perf_counter() - t0
        launcher = kern[bd] if self.stream is None else kern[bd, self.stream]
        sel = self._selection(kern, skey[1])
        call = launcher if sel == list(range(len(self._pnames))) else _selector(launcher, sel, len(self._pnames))
        why = self._explain_new((bd_override, skey[1]))
        with self._lock:
            self._last_parts = (bd_override, skey[1])
            c = self.counters
            c["load_seconds"] += load_s
            if res.how in ("disk", "remote"):
                c["disk_hits"] += 1
                how = f"loaded from the {res.how} cache in {res.seconds * 1e3:.1f} ms"
            else:
                c["compiles"] += 1
                c["compile_seconds"] += res.seconds
                how = f"compiled in {res.seconds:.2f} s ({res.reason})" if res.reason else \
                    f"compiled in {res.seconds:.2f} s"
            msg = f"{label}: variant {len(self._variants) + 1} ({why}); {how}"
            self.explanations.append(msg)
            del self.explanations[:-50]
        log.info("%s", msg)
        if os.environ.get("ASCENDRTC_JIT_VERBOSE", "") not in ("", "0"):
            print(f"ascendrtc.jit: {msg}", file=sys.stderr)
        return _Variant(label=label, kernel=kern, call=call, block_dim=bd, binary=res.binary, how=res.how,
                        source=source, parts=skey[1])

    def _selection(self, kern, parts: tuple) -> List[int]:
        if self._kernel_args is not None:
            sel = [self._pnames.index(n) for n in self._kernel_args]
        else:
            knames = [p[0] for p in kern.params]
            if knames and all(n in self._pnames for n in knames):
                sel = [self._pnames.index(n) for n in knames]
            else:
                if len(knames) == len(self._pnames):
                    sel = list(range(len(self._pnames)))
                else:  # the parameters left once baked-in scalars are dropped
                    sel = [i for i, (p, pol) in enumerate(zip(parts, self._policies))
                           if not (p.kind == "s" and (pol is None or pol.kind == "exact"))]
                # By position only when the names are wholly the caller's own: where some
                # match, a differing one (eps for the kernel's n) is a mistake, not a rename.
                renamed = [(self._pnames[i], k) for i, k in zip(sel, knames) if self._pnames[i] != k]
                if renamed and any(k in self._pnames for k in knames):
                    py, k = renamed[0]
                    raise TypeError(f"{self.__name__}: kernel {kern.signature} and the Python parameters "
                                    f"({', '.join(self._pnames)}) match by name only in part; by position '{py}' "
                                    f"would be passed as the kernel's '{k}'. Name the Python parameters like the "
                                    f"kernel's, or pass jit(kernel_args=[...])")
        if len(sel) != len(kern.params):
            raise TypeError(f"{self.__name__}: cannot tell which arguments go to kernel {kern.signature}: it takes "
                            f"{len(kern.params)} and the call passes {len(sel)} of ({', '.join(self._pnames)}). Name "
                            f"the Python parameters like the kernel's, or pass jit(kernel_args=[...])")
        return sel

    # -- public helpers --
    def render(self, *args, **kwargs) -> str:
        """The source this call would compile (arrays may be :func:`spec`)."""
        bound = self._bind(args, kwargs)
        _, _, values = self._classify(bound)
        bd = self.block_dim(**values) if callable(self.block_dim) else self.block_dim
        return self._render_source({**values, "block_dim": bd})

    def warmup(self, calls: Iterable[Any], workers: Optional[int] = None, progress: bool = True) -> List[str]:
        """Compile (or load) the variants of ``calls`` ahead of time, in
        parallel; each item is a tuple of arguments (or a dict of keyword
        arguments), with :func:`spec` in place of arrays if you like.
        Shows a progress bar (tqdm when installed).  Variants asked for here
        do not count against the recompile budget.  The variants' labels."""
        items = [self._bind(*(((), c) if isinstance(c, Mapping) else (tuple(c), {}))) for c in calls]
        todo = []
        for args in items:
            _, parts, values = self._classify(args)
            todo.append(((None, parts), values))
        workers = workers or min(len(todo), os.cpu_count() or 1) or 1
        bar = _Progress(len(todo), f"warm-up {self.__name__}", progress)
        out: List[str] = [""] * len(todo)

        def one(i):
            skey, values = todo[i]
            return i, self._variant(skey, values, None, budget=False).label

        from concurrent.futures import ThreadPoolExecutor, as_completed
        try:
            with ThreadPoolExecutor(max_workers=workers) as ex:
                for f in as_completed([ex.submit(one, i) for i in range(len(todo))]):
                    i, label = f.result()
                    out[i] = label
                    bar.step(label)
        finally:
            bar.close()
        return out

    def stats(self) -> Dict[str, Any]:
        """Counters: ``hits`` (in-memory, fast and slow path), ``disk_hits``,
        ``compiles``, ``compile_seconds``, ``load_seconds``, ``variants``,
        and the last ``explanation``."""
        c = dict(self.counters)
        c["hits"] = self._hits[0] + c.pop("slow_hits")
        c["variants"] = len(self._variants)
        c["explanation"] = self.explanations[-1] if self.explanations else None
        return c

    @property
    def variants(self) -> List[str]:
        """The labels of the variants held in memory."""
        return [v.label for v in self._variants.values()]

    def cache_clear(self) -> None:
        """Drop the in-memory variants (the disk cache stays)."""
        with self._lock:
            self._variants.clear()
            self._fast.clear()
            self._last_parts = None
            self._facets = [dict() for _ in self._pnames]
            self._warned = False
            self._nbudget = 0

    def __reduce__(self):
        # By reference, as pickle does functions: a module-level kernel
        # travels to worker processes by name and keeps its own caches there.
        return self.__qualname__

    def __repr__(self) -> str:
        return f"<ascendrtc.jit {self.__name__}({', '.join(self._pnames)}), {len(self._variants)} variants>"


def _hashable(v: Any) -> bool:
    try:
        hash(v)
        return True
    except TypeError:
        return False


class _Bound:
    """``kernel[block_dim, stream]``: one launch with an explicit config."""
    __slots__ = ("jk", "bd", "stream")

    def __init__(self, jk: JitKernel, bd: int, stream: Any):
        self.jk, self.bd, self.stream = jk, bd, stream

    def __call__(self, *args, **kwargs):
        __tracebackhide__ = True  # noqa: F841
        r, error = self.jk._slow((args, kwargs), self)
        if error is not None:
            raise error  # one frame, not ascendrtc's inner ones
        return r

    def _call(self, call: Tuple[tuple, dict]):
        jk = self.jk
        bound = jk._bind(*call)
        kinds, parts, values = jk._classify(bound)
        bd = None if (not callable(jk.block_dim) and self.bd == jk.block_dim) else self.bd
        skey = (bd, parts)
        v = jk._variants.get(skey)
        if v is None:
            v = jk._variant(skey, values, bd)
        else:
            jk.counters["slow_hits"] += 1
        sel = jk._selection(v.kernel, parts)
        launcher = v.kernel[self.bd] if self.stream is None else v.kernel[self.bd, self.stream]
        return launcher(*(bound[i] for i in sel))


def jit(source: Union[None, str, Template, Callable] = None, **options: Any):
    """Make a kernel whose Ascend C source is specialised per call.

    Forms: ``@jit(block_dim=8)`` on a function returning the source;
    ``@jit(template=T, ...)`` on a function returning the template's values;
    ``jit(T, params="x, y, z", block_dim=8)`` for a template alone (``${x.size}``,
    ``${ctype(x.dtype)}``, ``${block_dim}`` ...).  ``options``: the fields
    of :class:`JitOptions` (``block_dim`` is required).
    """
    opts = JitOptions.of(options)
    if isinstance(source, (str, Template)):
        if opts.template is not None:
            raise TypeError("jit(): give the template once (positionally or as template=)")
        k = JitKernel(None, dataclasses.replace(opts, template=source))
        caller = sys._getframe(1)
        k.__module__ = caller.f_globals.get("__name__", k.__module__)  # where it is defined
        if opts.origin is None:
            k.origin = _template_origin(f"{k.__module__}.{k.__qualname__}",
                                        (caller.f_code.co_filename, caller.f_lineno))
        return k
    if callable(source):
        return JitKernel(source, opts)
    if source is not None:
        raise TypeError(f"jit() takes a function, a template str or a Template, not {type(source).__name__}")
    if opts.template is not None and opts.params is not None:
        return JitKernel(None, opts)

    def deco(func: Callable) -> JitKernel:
        return JitKernel(func, opts)
    return deco
