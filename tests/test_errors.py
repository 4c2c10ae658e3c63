"""One exception hierarchy: every public exception is an ascendrtc.Error,
keeps its standard base, and reports itself as ascendrtc.X."""
import pickle

import pytest

import ascendrtc as arc

PUBLIC = {
    "AclError": RuntimeError, "LaunchError": RuntimeError, "CompileError": RuntimeError,
    "JitCompileError": RuntimeError, "TemplateError": ValueError, "CacheMissError": RuntimeError,
    "CacheDirError": PermissionError, "RecompileBudgetError": RuntimeError, "OpProjectError": ValueError,
    "UnwrittenOutputError": RuntimeError,
}


@pytest.mark.parametrize("name,std", sorted(PUBLIC.items()))
def test_public_exceptions_share_one_base_and_keep_their_standard_one(name, std):
    cls = getattr(arc, name)
    assert issubclass(cls, arc.Error)
    assert issubclass(cls, std)
    assert cls.__module__ == "ascendrtc"
    assert name in arc.__all__


def test_every_exception_in_the_namespace_is_covered():
    exported = {n for n in arc.__all__ if isinstance(getattr(arc, n), type)
                and issubclass(getattr(arc, n), BaseException) and not issubclass(getattr(arc, n), Warning)}
    assert exported == set(PUBLIC) | {"Error"}
    assert arc.Error.__module__ == "ascendrtc" and arc.RecompileWarning.__module__ == "ascendrtc"


def test_the_extension_raises_the_same_classes():
    assert arc._C.AclError is arc.AclError and arc._C.LaunchError is arc.LaunchError
    with pytest.raises(arc.Error) as ei:
        arc.Binary(b"not an ELF").load()
    assert type(ei.value) is arc.AclError
    assert ei.value.code and ei.value.name.startswith("ACL_ERROR")


def test_compile_error_prints_as_ascendrtc_and_pickles():
    with pytest.raises(arc.Error) as ei:
        arc.Program('extern "C" __global__ __aicore__ void k() { undeclared(); }').compile()
    e = ei.value
    assert isinstance(e, arc.CompileError) and isinstance(e, RuntimeError)
    assert f"{type(e).__module__}.{type(e).__qualname__}" == "ascendrtc.CompileError"
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is arc.CompileError and back.line == e.line and str(back) == str(e)


def test_template_and_cache_errors_are_errors():
    with pytest.raises(arc.Error):
        arc.Template("x = ${}")
    with pytest.raises(ValueError):
        arc.Template("x = ${1 +}")
    with pytest.raises(arc.TemplateError):
        arc.Template("x = ${missing}").render()


# Exception classes that never leave the package: each is caught where it
# is raised and turned into a message, a miss or a public error.
INTERNAL = {
    "BadSeal": "a remote cache entry fails its MAC: _cache_remote reports a miss",
    "CorruptEntry": "a bad cache file: the cache reports and recompiles",
    "LinkRefused": "a symlinked cache path: _cache_store reports and skips it",
    "NoCompiler": "no compiler to fingerprint: cache.py turns it into its message",
    "KeyTooCostly": "an -I directory too big to hash: cache.compile compiles uncached with a warning",
    "CacheFull": "no inode for a lock file: cache.py compiles without the cache",
    "UsageError": "a bad `ascendrtc run` argument: the CLI prints it and exits 2",
}


def _package_exceptions():
    import importlib
    import pkgutil
    found = {}
    for m in pkgutil.iter_modules(arc.__path__):
        try:
            mod = importlib.import_module(f"ascendrtc.{m.name}")
        except ImportError:  # an optional dependency (torch) is missing
            continue
        for v in vars(mod).values():
            if (isinstance(v, type) and issubclass(v, BaseException) and not issubclass(v, Warning)
                    and v.__module__.startswith("ascendrtc")):
                found[v.__qualname__] = v
    return found


def test_every_exception_class_of_the_package_is_an_ascendrtc_error():
    found = _package_exceptions()
    assert {"AclError", "HostCompileError", "JitCompileError", "RemoteError"} <= set(found)
    stray = sorted(n for n, c in found.items() if not issubclass(c, arc.Error) and n not in INTERNAL)
    assert not stray, f"derive these from ascendrtc.Error (or list them in INTERNAL, saying where they are caught): {stray}"
    assert set(INTERNAL) <= set(found), "INTERNAL names a class that is gone"
    for mod in ("ascendrtc", "ascendrtc.cache", "ascendrtc.jit"):   # the internal ones are not exported
        public = getattr(__import__(mod, fromlist=["_"]), "__all__", ())
        assert not set(INTERNAL) & set(public), mod


def test_host_code_that_does_not_compile_raises_host_compile_error():
    from ascendrtc._op_host import OpHostCode
    with pytest.raises(arc.Error) as ei:
        OpHostCode({"op_host/bad.cpp": "int f() { return undeclared; }\n"}, ["op_host/bad.cpp"])
    e = ei.value
    assert type(e).__name__ == "HostCompileError" and isinstance(e, RuntimeError)
    assert "undeclared" in e.log


def test_old_op_host_code_name_is_a_deprecated_alias():
    from ascendrtc import _op_host
    with pytest.warns(DeprecationWarning, match=r"HostCode is renamed OpHostCode \(op host code; a single-source "
                                                r"program's is program host code\)"):
        old = _op_host.HostCode
    assert old is _op_host.OpHostCode
    with pytest.raises(AttributeError, match="no attribute 'HostCodes'"):
        _op_host.HostCodes
