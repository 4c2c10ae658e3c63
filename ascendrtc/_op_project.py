"""CANN custom-op projects run from Python, unbuilt.

An op project holds ``op_host/<op>.cpp`` (the op definition and its host
tiling function), ``op_host/<op>_tiling.h`` (the tiling struct in the tiling
DSL) and ``op_kernel/<op>.cpp`` (the kernel).  :func:`op_project` loads one
-- from a directory or from its files in memory -- and returns an
:class:`OpProject`; calling it with NumPy arrays runs what the op build and
the framework would::

    op = ascendrtc.op_project("AddCustom")      # op_host/ and op_kernel/ inside
    z = op(x, y)                                 # NumPy in, NumPy out

1. the op definition checks the inputs' dtypes against the combinations it
   lists, and gives the outputs' dtypes;
2. InferShape/InferDataType (where the op has them) give the outputs' shapes;
3. the host tiling function runs (compiled in process against ascendrtc's
   clean-room host API) and chooses the block dim, tiling key, workspace and
   tiling data, for the simulated SoC the launch runs on;
4. the kernel is compiled for these dtypes and this tiling key (cached),
   and launched with the inputs, outputs, workspace and tiling data.

The steps stay reachable: :meth:`OpProject.tiling` returns the host's choice
(:class:`Tiling`, with the tiling struct field by field), and
:meth:`OpProject.launch` runs the kernel with a tiling you give.
"""
from __future__ import annotations

import re
import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _C
from ._poison import check_written, poison, poisoning
from ._errors import Error
from ._op_kernel import OpProjectError, op_kernel
from ._op_host import (ATTR_WORD, DT_UNDEFINED, PARAM, SHAPE_UNKNOWN, STAGE_OUTPUTS, OpHostCode,
                       HostCompileError, ge_dtype_name, ge_dtype_of, host_timeout, numpy_dtype_of)
from ._op_library import host_sources
from ._op_dynamic import generated_tiling_header, group, known_shapes, out_counts, run_lists
from ._op_request import ATTR_ZERO, as_list, attr_default, attr_line, compile_reason, def_dtypes, host_array
from ._op_tiling_struct import PlainStructs, Tiling, TilingStruct

__all__ = ["OpProject", "Tiling"]

# Bytes of the tiling buffer a tiling function fills (gert::TilingData
# capacity).  The simulator's choice; op_project(tiling_capacity=) changes it.
DEFAULT_TILING_CAPACITY = 16 * 1024

_OP_ADD = re.compile(r"\bOP_ADD\s*\(\s*(\w+)\s*[,)]")



def _error(op: str, file: Optional[str], reason: str, log: str = "") -> OpProjectError:
    """An OpProjectError naming the op, the project file at fault (where one
    is) and the reason; ``log`` holds compiler diagnostics where a compile
    failed.  The same facts are attributes: ``op``, ``file``, ``reason``, ``log``."""
    where = f" ({file})" if file else ""
    e = OpProjectError(f"op {op}{where}: {reason}")
    e.op, e.file, e.reason, e.log = op, file, reason, log
    return e


def _camel_to_snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", s).lower()


class OpProject:
    """A CANN custom-op project (see :func:`op_project`).

    ``op_type`` is the op's name (``OP_ADD(...)``), ``definition`` the op
    definition as a dict, ``input_names``/``output_names``/``attr_names``
    its declared parameters.
    """

    def __init__(self, files: Mapping[str, str], op_type: Optional[str] = None, name: Optional[str] = None,
                 tiling_capacity: int = DEFAULT_TILING_CAPACITY, options: Sequence[str] = (),
                 host_timeout: Optional[float] = None, units: Optional[Mapping[str, str]] = None,
                 rules: Optional[Mapping[str, List[str]]] = None, kernel_options: Sequence[str] = (),
                 kernels: Optional[Mapping[str, str]] = None):
        self.files = dict(files)
        self.host_timeout = host_timeout
        self.name = name or "op project"
        self.tiling_capacity = int(tiling_capacity)
        self._options = list(options)
        self._kernel_options = list(kernel_options)
        # op-API sources go to the aclnn library, not the tiling one; in an
        # op library, what its CMake compiles for the simulated SoC
        soc = _soc_of_device()
        if rules and rules["units"] and soc["config"] not in rules["units"]:
            socs = [n for u in rules["units"] for n, v in _C.SOCS.items() if v["short"].lower() == u][:1]
            raise _error(op_type or self.name, "CMakeLists.txt",
                         f"its op library builds it for {', '.join(rules['units'])} (COMPUTE_UNIT), not for "
                         f"{soc['config']}, the simulated SoC ({soc['soc']})" +
                         (f"; ASCENDRTC_SIM_SOC={socs[0]} simulates one it is built for" if socs else ""))
        hosts = host_sources(self.files, rules, soc["config"])
        if not hosts:
            raise _error(op_type or self.name, "op_host/", "the project has no op_host/*.cpp (the op definition and "
                         f"tiling function); files: {', '.join(sorted(self.files)) or 'none'}")
        # the directory's own op first: its DEPENDENCIES' sources define theirs (ops-math's Pad needs PadV3's)
        types = sorted(((p, m.group(1)) for p in hosts for m in _OP_ADD.finditer(self.files[p])),
                       key=lambda t: not t[0].startswith("op_host/"))
        if op_type is None:
            if not types:
                raise _error(self.name, hosts[0], "no OP_ADD(<OpType>) in the op_host sources")
            op_type = types[0][1]
        elif op_type not in [t for _, t in types]:
            raise _error(op_type, hosts[0], f"no OP_ADD({op_type}) in the op_host sources "
                                 f"(found: {', '.join(t for _, t in types) or 'none'})")
        self.op_type = op_type
        self.host_file = next(p for p, t in types if t == op_type)
        self.kernel_name = _camel_to_snake(op_type)
        # an op package's CMake names each op's kernel (npu_op_kernel_sources)
        self.kernel_file = (kernels or {}).get(op_type) or self._find_kernel()
        if kernels and op_type in kernels and kernels[op_type] not in self.files:
            raise _error(op_type, "CMakeLists.txt", f"npu_op_kernel_sources names {kernels[op_type]} as the op's "
                         "kernel (KERNEL_DIR/KERNEL_FILE), which the package does not have")
        try:
            units = dict(units or {})
            self._host = OpHostCode({**self.files, **units}, hosts, self._options, self._timeout())
        except HostCompileError as e:  # the compile, or its static initialisers ("init": naming the file)
            raise (_error(op_type, e.file or self.host_file, str(e)) if e.stage == "init" else
                   _error(op_type, self.host_file, compile_reason(e.log) if e.log else str(e), e.log)) from None
        self._factory = self._host.factory(op_type)
        if not self._factory:
            raise _error(op_type, self.host_file, f"OP_ADD({op_type}) did not define the op's factory")
        d = self._host.describe(self._factory, self._timeout())
        if not d.get("ok"):
            raise _error(op_type, self.host_file, d.get("error", "the op definition failed"))
        self.definition = d
        self.input_names = [p["name"] for p in d["inputs"]]
        self.output_names = [p["name"] for p in d["outputs"]]
        self.attr_names = [a["name"] for a in d["attrs"]]
        self._plain = PlainStructs(d.get("plain_classes", []))
        self._struct = self._pick_struct(d.get("tiling_classes", []))
        self._kernel_side = None  # the op's OpKernel, made on first launch
        self._kernels: Dict[tuple, Any] = {}  # (dtypes, tiling key) -> Kernel with its intents set
        self._lock = threading.Lock()
        self._closed = False

    # ------------------------------------------------------------ setup
    def _timeout(self) -> float:
        return host_timeout(self.host_timeout)

    def _find_kernel(self) -> Optional[str]:
        ks = sorted(p for p in self.files if p.startswith("op_kernel/") and p.endswith((".cpp", ".cc", ".cce")))
        # the op libraries' Ascend 950 kernels: <op>_apt.cpp or arch35/<op>.cpp
        # (their other kernel is for the earlier SoCs)
        n = self.kernel_name
        wants = [f"op_kernel/{n}.cpp"]
        if (self._soc()["info"].get("npu_arch") or 2201) == 3510:
            wants = [f"op_kernel/{n}_apt.cpp", f"op_kernel/arch35/{n}.cpp"] + wants
        else:
            ks = [k for k in ks if not k.endswith("_apt.cpp") and "/arch35/" not in k]
        for want in wants:
            if want in ks:
                return want
        return ks[0] if len(ks) == 1 else None

    def _pick_struct(self, classes) -> Optional[TilingStruct]:
        """The op's registered tiling class (or the only one), as the compiler laid it out."""
        by_op = {c["op"]: c for c in classes}
        c = by_op.get(self.op_type) or (classes[0] if len(classes) == 1 else None)
        if c:   # a DSL class: the layout its host code reports
            return TilingStruct.from_host(c)
        return self._plain.only()  # the one GetTilingData<T>() struct (a call names its own: _plan)

    # ------------------------------------------------------------ dtypes
    def _soc(self) -> Dict[str, Any]:
        return _soc_of_device()

    def _params(self, which: str, soc_config: str) -> List[dict]:
        """The declared inputs or outputs, with the SoC's AddConfig overrides."""
        base = [dict(p) for p in self.definition[which]]
        for cfg in self.definition["configs"]:
            if cfg["soc"] == soc_config and cfg["given"]:
                over = {p["name"]: p for p in cfg[which]}
                for p in base:
                    if p["name"] in over and over[p["name"]]["dtypes"]:
                        p["dtypes"] = over[p["name"]]["dtypes"]
                        p["dtype_list"] = over[p["name"]]["dtype_list"]
                        p["formats"] = over[p["name"]]["formats"]
        return base

    def _column(self, ins: List[dict], arrays: List[List[np.ndarray]], outs: List[dict]) -> List[int]:
        """The outputs' ge dtypes from the definition's dtype column that
        matches the inputs; an error naming the inputs when none does."""
        width = max([len(p["dtypes"]) for p in ins + outs if not p["dtype_list"]] or [1])
        given = []
        for p, arrs in zip(ins, arrays):
            for a in arrs:
                ge = ge_dtype_of(a.dtype)
                if ge is None:
                    raise _error(self.op_type, self.host_file,
                                         f"input '{p['name']}' has dtype {a.dtype}, which has no ge::DataType")
                given.append((p, ge))
        for j in range(width):
            if all(ge in p["dtypes"] if p["dtype_list"] else (j < len(p["dtypes"]) and p["dtypes"][j] == ge)
                   for p, ge in given):
                return [p["dtypes"][0] if p["dtype_list"] else p["dtypes"][j] if j < len(p["dtypes"]) else DT_UNDEFINED
                        for p in outs]
        combos = []
        for j in range(width):
            combos.append(", ".join(f"{p['name']}={ge_dtype_name(p['dtypes'][j] if not p['dtype_list'] else p['dtypes'][0])}"
                                    for p in ins if p["dtypes"] and (p["dtype_list"] or j < len(p["dtypes"]))))
        got = ", ".join(f"{p['name']}={a.dtype}" for p, arrs in zip(ins, arrays) for a in arrs)
        raise _error(self.op_type, self.host_file,
                             f"the op definition lists no dtype combination for the inputs ({got}); "
                             f"it supports: " + " | ".join(combos))

    # ------------------------------------------------------------ requests
    def _bind(self, args: Sequence[Any], kwargs: Dict[str, Any]) -> Tuple[List[List[np.ndarray]], Dict[str, Any]]:
        """Positional and keyword inputs -> one list of arrays per declared
        input (empty for an absent optional); the rest are attributes."""
        kwargs = dict(kwargs)
        ins = self.definition["inputs"]
        if len(args) > len(ins):
            raise TypeError(f"{self.op_type} takes {len(ins)} input(s) ({', '.join(self.input_names)}), "
                            f"got {len(args)}")
        values: List[Any] = list(args) + [kwargs.pop(p["name"], None) for p in ins[len(args):]]
        bound = []
        for p, v in zip(ins, values):
            if v is None:
                if p["param_type"] == PARAM["REQUIRED"]:
                    raise TypeError(f"{self.op_type}: missing required input '{p['name']}'")
                bound.append([])
            elif p["param_type"] == PARAM["DYNAMIC"]:
                if not isinstance(v, (list, tuple)):
                    raise TypeError(f"{self.op_type}: dynamic input '{p['name']}' takes a list of arrays")
                bound.append([host_array(x) for x in v])
            else:
                bound.append([host_array(v)])
        return bound, kwargs

    def _attr_lines(self, attrs: Dict[str, Any]) -> List[str]:
        unknown = sorted(set(attrs) - set(self.attr_names))
        if unknown:
            raise TypeError(f"{self.op_type} has no input or attribute {', '.join(map(repr, unknown))} "
                            f"(inputs: {', '.join(self.input_names)}; attributes: "
                            f"{', '.join(self.attr_names) or 'none'})")
        lines = []
        for i, a in enumerate(self.definition["attrs"]):
            kind = a["kind"]
            if a["name"] in attrs:
                v = attrs[a["name"]]
            elif a["has_default"]:
                v = attr_default(a)
            elif a["required"]:
                raise TypeError(f"{self.op_type}: missing required attribute '{a['name']}' "
                                f"({ATTR_WORD.get(kind, '?')})")
            else:
                v = ATTR_ZERO.get(kind, 0)
            try:
                lines.append(attr_line(i, kind, v))
            except (TypeError, ValueError) as e:
                raise TypeError(f"{self.op_type}: attribute '{a['name']}' ({ATTR_WORD.get(kind, '?')}): {e}") \
                    from None
        return lines

    def _request(self, soc: Dict[str, Any], inputs: List[List[np.ndarray]],
                 outputs: Sequence[Tuple[int, Optional[Tuple[int, ...]], int]], attr_lines: List[str]) -> str:
        """The host call's request: one in/out line per instance (ir, shape,
        ge dtype), then nin/nout, which add the absent trailing ones."""
        f = _soc_facts(soc["info"])
        lines = [f"capacity {self.tiling_capacity}",
                 "soc {} {} {} {} {} {} {} {} {} {} {} {} 1 {}".format(
                     soc["soc"], soc["short"], f["aic"], f["aiv"], f["ub"], f["l1"], f["l0a"], f["l0b"], f["l0c"],
                     f["l2"], f["hbm"], _C.LIB_API_WORKSPACE, f["arch"])]
        ins = self.definition["inputs"]
        for ir, (p, arrs) in enumerate(zip(ins, inputs)):
            fmt = p["formats"][0] if p["formats"] else 2
            for a in arrs:
                dims = " ".join(str(d) for d in a.shape)
                lines.append(f"in {ir} {ge_dtype_of(a.dtype)} {fmt} {a.ndim} {dims} "
                             f"{a.ctypes.data:x} {a.nbytes}")
        for ir, shape, ge in outputs:
            if shape is None:
                lines.append(f"out {ir} {ge} 2 {SHAPE_UNKNOWN}")
            else:
                lines.append(f"out {ir} {ge} 2 {len(shape)} " + " ".join(str(d) for d in shape))
        lines += [f"nin {len(inputs)}", f"nout {len(self.output_names)}"]
        return "\n".join(lines + attr_lines) + "\n"

    def _plan(self, args, kwargs, mode: str = "TILING", out_shapes=None
              ) -> Tuple[List[List[np.ndarray]], List[str], Tiling]:
        """One contained call of the host code: InferShape/InferDataType
        and (mode "TILING") the tiling function."""
        inputs, attrs = self._bind(args, kwargs)
        soc = self._soc()
        ins, outs = self._params("inputs", soc["config"]), self._params("outputs", soc["config"])
        out_ge = self._column(ins, inputs, outs)
        lines = self._attr_lines(attrs)
        counts = out_counts(outs, inputs, ins, PARAM["DYNAMIC"], out_shapes)
        known = known_shapes(self.op_type, self.output_names, self.definition["infer_shape"], inputs, out_shapes,
                             counts)
        irs = [ir for ir, n in enumerate(counts) for _ in range(n)]
        request = self._request(soc, inputs, [(ir, k, out_ge[ir]) for ir, k in zip(irs, known)], lines)
        r = self._open_host().plan(self._factory, mode, request, self._timeout())
        if not r[0]:
            stage, msg = r[1], r[2]
            if stage == STAGE_OUTPUTS:
                raise _error(self.op_type, self.host_file, self._unknown_output(int(msg), inputs))
            raise _error(self.op_type, self.host_file, msg)  # it names the function (STAGES)
        out_np = []
        for shape, ge, ir in zip(r[2], r[1], irs):
            dt = numpy_dtype_of(ge)
            if dt is None:
                raise _error(self.op_type, self.host_file, f"output '{self.output_names[ir]}' has dtype "
                             f"{ge_dtype_name(ge)}, which NumPy cannot hold")
            out_np.append((tuple(shape), dt))
        out_np = group(out_np, counts, [p["param_type"] == PARAM["DYNAMIC"] for p in outs])
        if mode != "TILING":
            return inputs, lines, Tiling(0, 0, b"", (), self._struct, False, out_np)
        _, _, _, block_dim, key, key_set, ws, data, _, _, sname = r
        struct, why = self._struct, ""
        named = self._plain.get(sname) if sname else None
        if named is not None and (struct is None or struct.name != sname.rsplit("::", 1)[-1]):
            struct, why = named  # the struct this call's GetTilingData<T>() used (one of several per tiling key)
        return inputs, lines, Tiling(block_dim, key, data, ws, struct, key_set, out_np, why)

    def _unknown_output(self, index: int, inputs: List[List[np.ndarray]]) -> str:
        name = self.output_names[index] if index < len(self.output_names) else f"#{index}"
        given = ", ".join(f"{n} {a.shape}" for n, arrs in zip(self.input_names, inputs) for a in arrs)
        return (f"the shape of output '{name}' cannot be known before launch: the op has no InferShape and its "
                f"inputs' shapes differ ({given}); pass out_shapes=[...] (one shape per output: "
                f"{', '.join(self.output_names)}) or outputs=[arrays] to give it")

    # ------------------------------------------------------------ public
    def infer(self, *inputs: Any, out_shapes: Optional[Sequence[Sequence[int]]] = None,
              **attrs: Any) -> List[Tuple[Tuple[int, ...], np.dtype]]:
        """The outputs' (shape, dtype) for these inputs: the op definition's
        dtype column, then InferShape/InferDataType where the op has them.
        Without InferShape: ``out_shapes``, else the inputs' shape when they
        all have the same one; otherwise an error saying what to pass."""
        return self._plan(inputs, attrs, "INFER", out_shapes)[2].outputs

    def tiling(self, *inputs: Any, out_shapes: Optional[Sequence[Sequence[int]]] = None, **attrs: Any) -> Tiling:
        """Runs the op's InferShape and host tiling function for these
        inputs (arrays, or anything with ``shape`` and ``dtype`` is not
        enough: value-depend inputs read the data) and attributes."""
        return self._plan(inputs, attrs, "TILING", out_shapes)[2]

    def kernel(self, dtypes: Mapping[str, Any], tiling_key: Union[int, str] = 0):
        """The op's kernel (a :class:`~ascendrtc.Kernel`) compiled for
        ``dtypes`` ({parameter name: dtype}, inputs and outputs) with
        ``tiling_key`` fixed at compile time, as the op build does (template
        kernels are instantiated for it; ``"first"``: the first combination
        its ``ASCENDC_TPL_SEL`` lists); cached per combination by
        :func:`ascendrtc.op_kernel`."""
        if self.kernel_file is None:
            raise _error(self.op_type, "op_kernel/", f"no kernel source: expected op_kernel/{self.kernel_name}.cpp")
        self._open_host()
        with self._lock:
            if self._kernel_side is None:
                arch = self._soc()["info"].get("npu_arch") or 2201
                files, headers = generated_tiling_header(self.files, self.op_type, self._struct)
                self._kernel_side = op_kernel(files, self.kernel_file, op_type=self.op_type,
                                              params=self.input_names + self.output_names, arch=f"dav-{arch}",
                                              options=self._kernel_options, tiling_headers=headers)
            side = self._kernel_side
        try:
            return side.kernel(dict(dtypes), tiling_key=tiling_key if tiling_key == "first" else int(tiling_key))
        except OpProjectError:
            raise
        except Error as e:
            raise _error(self.op_type, self.kernel_file, f"the kernel did not compile: {e}",
                         getattr(e, "log", "") or "") from None

    def _launchable(self, dtypes: Dict[str, np.dtype], key: int):
        """kernel() with the intents a launch with host arrays needs (inputs
        and tiling copied in, outputs and workspace zeroed and copied
        back), set once per kernel; cached here, so a warm call crosses
        into C only to launch."""
        ck = (tuple(dtypes.items()), key)
        k = self._kernels.get(ck)
        if k is None:
            k = self.kernel(dtypes, key)
            stated = def_dtypes(self.op_type, self.kernel_file, k, self.input_names + self.output_names, dtypes)
            if stated:
                k.dtypes = stated           # the others keep their inferred check
            n_in, n_out = len(self.input_names), len(self.output_names)
            intents = {i: "in" for i in range(n_in)}
            intents.update({n_in + i: "out" for i in range(n_out)})
            if len(k.params) >= n_in + n_out + 2:
                intents[n_in + n_out] = "out"        # the workspace
                intents[n_in + n_out + 1] = "in"     # the tiling
            k.intents = intents
            with self._lock:
                k = self._kernels.setdefault(ck, k)
        return k

    def launch(self, *inputs: Any, tiling: Union[Tiling, bytes], block_dim: Optional[int] = None,
               tiling_key: Optional[int] = None, outputs: Optional[Sequence[Any]] = None,
               workspace_size: Optional[int] = None, out_shapes: Optional[Sequence[Sequence[int]]] = None,
               **attrs: Any):
        """Runs the kernel with a tiling you give (a :class:`Tiling`, e.g.
        ``op.tiling(x, y).replace(tileNum=4)``, or raw bytes with
        ``block_dim``/``tiling_key``).  Outputs are allocated from the op's
        InferShape (or ``out_shapes``) unless ``outputs`` (arrays, filled in
        place) are given."""
        given = self._given(outputs)
        shapes = out_shapes if given is None else [np.shape(o) for o in given]
        if isinstance(tiling, Tiling):
            t = tiling
        else:
            if block_dim is None:
                raise TypeError("launch(tiling=<bytes>) needs block_dim=")
            planned = self._plan(inputs, attrs, "TILING", shapes)[2]
            t = Tiling(block_dim, tiling_key or 0, bytes(tiling), planned.workspace_sizes, self._struct,
                       True, planned.outputs)
        if block_dim is not None:
            t.block_dim = int(block_dim)
        if tiling_key is not None:
            t.tiling_key = int(tiling_key)
        bound, _ = self._bind(inputs, attrs)
        return self._run(bound, t, given, workspace_size)

    def __call__(self, *inputs: Any, outputs: Optional[Sequence[Any]] = None,
                 out_shapes: Optional[Sequence[Sequence[int]]] = None, **attrs: Any):
        """Runs the op: dtype check, InferShape, host tiling, kernel compile
        (cached) and launch.  Returns the output array (a tuple for several).
        ``outputs`` (arrays, filled in place) or ``out_shapes`` give the
        outputs of an op without InferShape whose inputs differ in shape."""
        given = self._given(outputs)
        bound, _, t = self._plan(inputs, attrs, "TILING",
                                 out_shapes if given is None else [np.shape(o) for o in given])
        return self._run(bound, t, given, None)

    def _given(self, outputs: Any) -> Optional[List[Any]]:
        """outputs= as a list, one array per declared output."""
        given = as_list(outputs)
        if given is not None and len(given) != len(self.output_names):
            raise _error(self.op_type, self.host_file,
                         f"outputs= gives {len(given)} array(s); the op definition declares {len(self.output_names)} "
                         f"output(s) ({', '.join(self.output_names)})")
        return given

    def _check_given(self, given: List[Any], t: Tiling) -> None:
        """outputs= against what the op definition gives for these inputs."""
        for o, name, (shape, dt) in zip(given, self.output_names, t.outputs):
            got_dt, got_shape = np.dtype(getattr(o, "dtype", None) or np.asarray(o).dtype), tuple(np.shape(o))
            if got_dt != dt or got_shape != tuple(shape):
                raise _error(self.op_type, self.host_file,
                             f"outputs=: output '{name}' is {got_dt} {got_shape}, but the op definition gives "
                             f"{dt} {tuple(shape)} for these inputs")

    def _run(self, bound: List[List[np.ndarray]], t: Tiling, given: Optional[List[Any]], workspace_size):
        ins = self.definition["inputs"]
        computed = [p["name"] for p in self.definition["outputs"] if p.get("shape_computed")]
        if computed:
            raise _error(self.op_type, self.kernel_file, f"output(s) {', '.join(computed)}: the kernel computes the "
                         "shape (OutputShapeDependOnCompute); running such an op is not supported yet")
        if any(not arrs for arrs, p in zip(bound, ins) if p["param_type"] != PARAM["DYNAMIC"]):
            missing = [p["name"] for arrs, p in zip(bound, ins) if not arrs]
            raise _error(self.op_type, self.kernel_file,
                         f"optional input(s) {', '.join(missing)} absent: launching with a null GM_ADDR "
                         f"is not supported yet; pass the input")
        dyn = [p["param_type"] == PARAM["DYNAMIC"] for p in ins]
        lists = any(dyn) or any(isinstance(o, list) for o in t.outputs)
        if lists and (given is not None or any(not arrs for arrs in bound)):
            raise _error(self.op_type, self.kernel_file, "an op with dynamic (list) inputs or outputs runs with "
                         "each list non-empty and its outputs allocated here (no outputs=)")
        if given is not None:
            self._check_given(given, t)
        dtypes = {p["name"]: arrs[0].dtype for p, arrs in zip(ins, bound)}
        dtypes.update({n: (o[0] if isinstance(o, list) else o)[1] for n, o in zip(self.output_names, t.outputs)})
        kern = self._launchable(dtypes, t.tiling_key)
        if lists:
            return run_lists(self, kern, bound, dyn, t, workspace_size)
        if given is None:
            outs = [np.empty(shape, dt) for shape, dt in t.outputs]
            args = outs
            if poisoning():   # outputs allocated here are poisoned (copied in): each must be written
                from . import InOut
                args = [InOut(poison(o)) for o in outs]
        else:  # filled in place: what the kernel does not write keeps its value
            from . import InOut
            outs = [o if isinstance(o, np.ndarray) else host_array(o) for o in given]
            args = [InOut(o) for o in outs]
        ws = max(int(workspace_size if workspace_size is not None else t.workspace_size), 32)
        tdata = t.data if t.data else b"\0" * 8
        tail = [np.empty(ws, np.uint8), np.frombuffer(tdata, np.uint8)][:max(len(kern.params) - len(dtypes), 0)]
        # one crossing: host arrays are copied in, the kernel runs, outputs come back
        kern(*[arrs[0] for arrs in bound], *args, *tail, block_dim=t.block_dim, tiling_key=t.tiling_key)
        if given is None and poisoning():
            for o, name in zip(outs, self.output_names):
                check_written(o, f"{self.op_type} output '{name}'")
        return outs[0] if len(outs) == 1 else tuple(outs)

    def as_torch_op(self, name: Optional[str] = None, *, backward: Optional[Any] = None,
                    setup_context: Optional[Any] = None):
        """Registers the op with PyTorch as ``torch.ops.<ns>.<op>`` (name
        ``"ns::op"``, default ``"ascendrtc_ops::<kernel name>"``): tensor
        inputs in the op's order, then its attributes as keyword arguments
        with their defaults.  Autograd as in :func:`ascendrtc.torch.custom_op`:
        ``backward(ctx, *grads)`` returns one gradient per input (None where
        none is needed); ``ctx.inputs``, ``ctx.attrs`` and ``ctx.output``
        hold the call unless ``setup_context`` saves something else.  Without
        ``backward``, ``.backward()`` through the op raises instead of
        leaving ``.grad`` None.  Returns the operator."""
        from ._op_torch import register
        return register(self, name or f"ascendrtc_ops::{self.kernel_name}", backward, setup_context)

    # ------------------------------------------------------------ lifetime
    def close(self) -> None:
        """Unloads the op now: its host code's static objects are destroyed
        and its destructor functions run (contained, as its initialisers
        ran: one that crashes, throws or hangs is a RuntimeWarning and the
        process goes on), the code is freed, its compiled kernels are
        dropped and :func:`op_project` forgets it (a later ``op_project`` of
        the same project loads it afresh).  Calls after ``close()`` raise
        :class:`OpProjectError`.  Idempotent; ``with op_project(...) as op:``
        closes at the end of the block."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._kernels.clear()
            self._kernel_side = None
        from ._op_loader import forget
        forget(self)
        self._host.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has unloaded the op."""
        return self._closed

    def __enter__(self) -> "OpProject":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _open_host(self) -> OpHostCode:
        if self._closed:
            raise _error(self.op_type, self.host_file, "the op was closed (OpProject.close() unloaded its host "
                         "code); op_project(...) loads it again")
        return self._host

    def __repr__(self) -> str:
        return (f"OpProject({self.op_type}: inputs {self.input_names}, outputs {self.output_names}, "
                f"attrs {self.attr_names}{', closed' if self._closed else ''})")


def _soc_facts(info: Mapping[str, Any]) -> Dict[str, int]:
    """What PlatformAscendC reports, from the device the launch runs on."""
    # L1/L0 sizes, which device_info() does not report: the arch's row of common/socs.h
    arch = next((a for a in _C.ARCHS.values() if a["npu_arch"] == (info.get("npu_arch") or 2201)),
                next(iter(_C.ARCHS.values())))
    mem = {k: arch[k] for k in ("l1", "l0a", "l0b", "l0c")}
    return {"aic": info.get("cube_core_num") or info.get("aicore_num") or 0,
            "aiv": info.get("vector_core_num") or 0, "ub": info.get("ub_size") or 0,
            "l2": info.get("l2_cache_size") or 0, "hbm": info.get("global_mem_size") or 0,
            "arch": arch["npu_arch"], **mem}


_soc_memo: List[Dict[str, Any]] = []


def _soc_of_device() -> Dict[str, Any]:
    """The simulated SoC of device 0 (what ``device_info()`` reports), read
    once per process."""
    if not _soc_memo:
        from . import device_info
        info = device_info()
        soc = info.get("soc_name") or "Ascend910B1"
        # the short SoC version PlatformAscendC reports; its lower case is the
        # AddConfig name that selects per-SoC dtype overrides (common/socs.h)
        short = _C.SOCS[soc]["short"] if soc in _C.SOCS else soc
        _soc_memo.append({"soc": soc, "short": short, "config": short.lower(), "info": info})
    return _soc_memo[0]
