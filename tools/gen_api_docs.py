"""Generate docs/api.md, the API reference, from ascendrtc's docstrings.

    python tools/gen_api_docs.py          # rewrite docs/api.md
    python tools/gen_api_docs.py --check  # exit 1 if docs/api.md is stale

The test suite runs the check, so the reference cannot drift from the code.
``ascendrtc.torch`` is read with ``ast`` (its docstrings, not an import), so
the reference is the same with or without PyTorch installed.
"""
import ast
import inspect
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "docs", "api.md")

SECTIONS = [
    ("Compiling and loading", ["Program", "Binary", "Module", "Kernel", "CompileError"]),
    ("Device memory", ["DeviceArray", "to_device", "empty", "zeros", "empty_like", "zeros_like", "In", "Out",
                       "InOut"]),
    ("Streams, events and the device", ["Stream", "Event", "synchronize", "default_stream", "device_info"]),
    ("The jit decorator", ["jit", "JitOptions", "JitKernel", "exact", "runtime", "bucket", "spec", "ArraySpec",
                           "Template", "ctype"]),
    ("Backends", ["set_backend", "get_backend", "sim_home"]),
    ("Estimated NPU time", ["profile", "Profile", "LaunchReport"]),
    ("Errors", ["Error", "AclError", "LaunchError", "JitCompileError", "TemplateError", "RecompileBudgetError",
                "RecompileWarning", "CacheMissError", "CacheDirError", "OpProjectError"]),
]
CACHE_NAMES = ["compile", "CompileResult", "mode", "get_cache", "program_key", "fingerprint"]


def _doc(obj) -> str:
    d = inspect.getdoc(obj) or ""
    # C functions carry their signature as the docstring's first line.
    if "\n--\n" in d:
        d = d.split("\n--\n", 1)[1]
    return inspect.cleandoc(d).strip()


class _Ann:
    """An annotation kept as source text (``from __future__ import annotations``),
    shown without quotes."""

    def __init__(self, text: str):
        self.text = text.strip("'\"")

    def __repr__(self) -> str:
        return self.text


def _plain(sig: inspect.Signature) -> str:
    def ann(a):
        return _Ann(a) if isinstance(a, str) else a
    params = [p.replace(annotation=ann(p.annotation)) for p in sig.parameters.values()]
    return str(sig.replace(parameters=params, return_annotation=ann(sig.return_annotation)))


def _sig(name: str, obj) -> str:
    try:
        return f"{name}{_plain(inspect.signature(obj))}"
    except (TypeError, ValueError):
        first = (getattr(obj, "__doc__", None) or "").strip().splitlines()
        if first and first[0].startswith(name.split(".")[-1] + "("):
            return name.rsplit(".", 1)[0] + "." + first[0] if "." in name else first[0]
        return name


def _members(cls):
    """Public methods and properties defined on the class itself, sorted."""
    out = []
    for k in sorted(vars(cls)):
        if k.startswith("_") and k not in ("__call__", "__getitem__", "__dlpack__", "__dlpack_device__"):
            continue
        v = vars(cls)[k]
        if isinstance(v, property) or type(v).__name__ in ("getset_descriptor", "member_descriptor"):
            if _doc(v):
                out.append((k, None, _doc(v)))
        elif callable(v) or isinstance(v, (classmethod, staticmethod)):
            f = v.__func__ if isinstance(v, (classmethod, staticmethod)) else v
            d = _doc(f)
            if d and not d.startswith(("Call self as a function", "Return self[key]")):
                out.append((k, _sig(k, f), d))
    return out


def _entry(name: str, obj, prefix: str = "ascendrtc") -> list:
    lines = []
    if inspect.isclass(obj):
        kind = "exception" if issubclass(obj, BaseException) else "class"
        try:
            sig = f"{name}{_plain(inspect.signature(obj))}" if kind == "class" else name
        except (TypeError, ValueError):
            sig = _sig(name, obj)
        lines += [f"### {kind} `{prefix}.{sig}`", "", _doc(obj), ""]
        for k, s, d in _members(obj):
            head = f"`{s}`" if s else f"`{k}` (property)"
            lines += [f"- **{head}** — " + d.replace("\n\n", "\n").replace("\n", "\n  "), ""]
    else:
        lines += [f"### `{prefix}.{_sig(name, obj)}`", "", _doc(obj), ""]
    return lines


def _torch_section() -> list:
    path = os.path.join(ROOT, "ascendrtc", "torch.py")
    with open(path) as f:
        tree = ast.parse(f.read())
    lines = ["## PyTorch (`ascendrtc.torch`)", "", inspect.cleandoc(ast.get_docstring(tree) or ""), ""]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            args = ast.unparse(node.args)
            lines += [f"### `ascendrtc.torch.{node.name}({args})`", "",
                      inspect.cleandoc(ast.get_docstring(node) or ""), ""]
    return lines


def render() -> str:
    import ascendrtc
    from ascendrtc import cache
    lines = ["# API reference", "",
             "Generated from the docstrings by `python tools/gen_api_docs.py`; do not edit by hand.", "",
             f"ascendrtc {ascendrtc.__version__}. " + _doc(ascendrtc).split("\n\n")[0], ""]
    listed = set()
    for title, names in SECTIONS:
        lines += [f"## {title}", ""]
        for n in names:
            lines += _entry(n, getattr(ascendrtc, n))
            listed.add(n)
    others = sorted(set(ascendrtc.__all__) - listed - {"cache"})  # new exports not yet given a section
    if others:
        lines += ["## Other", ""]
        for n in others:
            lines += _entry(n, getattr(ascendrtc, n))
    lines += ["## The compile cache (`ascendrtc.cache`)", "", _doc(cache), ""]
    for n in CACHE_NAMES:
        lines += _entry(n, getattr(cache, n), prefix="ascendrtc.cache")
    lines += _torch_section()
    text = "\n".join(lines).rstrip() + "\n"
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def main(argv) -> int:
    text = render()
    if "--check" in argv:
        with open(OUT) as f:
            if f.read() != text:
                print("docs/api.md is stale: run python tools/gen_api_docs.py", file=sys.stderr)
                return 1
        return 0
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
