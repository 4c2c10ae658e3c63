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
