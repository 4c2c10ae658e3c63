"""@ascendrtc.jit: specialised kernels, checked against NumPy; one compile
per distinct key across calls and processes; policies, the recompile
budget, explanations, template errors, warm-up."""
import importlib
import multiprocessing as mp
import pickle
import warnings

import numpy as np
import pytest

import ascendrtc as arc
from helpers.acl import ADD_TEMPLATE
from helpers.threads import run_in_threads

jitmod = importlib.import_module("ascendrtc.jit")

# The seed's add kernel as a ${...} template: length, element type and core count.
ADD_T = (ADD_TEMPLATE.replace("{N}", "${x.size}").replace("{T}", "${ctype(x.dtype)}")
         .replace("USE_CORE_NUM = 8;", "USE_CORE_NUM = ${block_dim};"))

# y = x * alpha over the first n elements; the capacity (x's bucketed
# length) is baked in, alpha and n arrive at run time.
SCALE_T = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, ${ctype(x.dtype)} alpha, int32_t n)
{
    constexpr int32_t CAP = ${x.shape[0]};
    constexpr int32_t PER = (CAP + ${block_dim} - 1) / ${block_dim};
    int32_t b = AscendC::GetBlockIdx();
    __gm__ ${ctype(x.dtype)} *px = (__gm__ ${ctype(x.dtype)} *)x;
    __gm__ ${ctype(x.dtype)} *py = (__gm__ ${ctype(x.dtype)} *)y;
    for (int32_t i = b * PER; i < (b + 1) * PER && i < n; i++)
        py[i] = px[i] * ${FACTOR} * alpha;
}
'''


@pytest.fixture(autouse=True)
def cdir(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "cache"))
    for v in ("ASCENDRTC_CACHE", "ASCENDRTC_RECOMPILE_BUDGET", "ASCENDRTC_RECOMPILE_ACTION"):
        monkeypatch.delenv(v, raising=False)
    return tmp_path / "cache"


def add_fn_kernel(**kw):
    calls = []

    @arc.jit(block_dim=8, **kw)
    def vadd(x, y, z):
        calls.append(x.shape)
        return ADD_TEMPLATE.replace("{N}", str(x.size)).replace("{T}", arc.ctype(x.dtype))
    return vadd, calls


def data(n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, n).astype(dtype), rng.integers(-1000, 1000, n).astype(dtype)
    return rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)


def test_torch_tensors_go_through_the_jit_key():
    torch = pytest.importorskip("torch")
    vadd, calls = add_fn_kernel()
    x, y = (torch.from_numpy(a) for a in data(256, np.float32, seed=3))
    z = torch.zeros(256)
    vadd(x, y, z)
    vadd(x, y, z)
    assert calls == [(256,)]  # torch.float32 keyed as float32, compiled once
    np.testing.assert_array_equal(z.numpy(), (x + y).numpy())


@pytest.mark.parametrize("dtype, sizes", [(np.float32, [256, 1024, 2048]), (np.float16, [256, 2048]),
                                          (np.int32, [512])])
def test_function_form_matches_numpy(dtype, sizes):
    vadd, _ = add_fn_kernel()
    for n in sizes:
        x, y = data(n, dtype, seed=n)
        z = arc.empty_like(x)
        vadd(x, y, z)
        np.testing.assert_array_equal(z.get(), x + y)
    assert vadd.stats()["variants"] == len(sizes)


def test_template_form_and_device_arrays():
    vadd = arc.jit(ADD_T, params="x, y, z", block_dim=4)
    for n in (256, 512):
        x, y = data(n, np.float32, seed=n)
        dx, dy, dz = arc.to_device(x), arc.to_device(y), arc.empty_like(x)
        vadd(dx, dy, dz)
        np.testing.assert_array_equal(dz.get(), x + y)
    assert "USE_CORE_NUM = 4;" in vadd.render(arc.spec(256), arc.spec(256), arc.spec(256))


def test_template_with_values_function():
    t = ADD_TEMPLATE.replace("{N}", "${N}").replace("{T}", "${T}")

    @arc.jit(template=t, block_dim=8)
    def vadd(x, y, z):
        return {"N": x.size, "T": x.dtype}       # a dtype renders as its C type

    x, y = data(512, np.float16)
    z = np.zeros_like(x)
    vadd(x, y, z)
    np.testing.assert_array_equal(z, x + y)
    assert "using T = half;" in vadd.render(x, y, z)


def test_one_compile_per_distinct_key_and_memory_hits(cdir):
    vadd, renders = add_fn_kernel()
    x256, y256 = data(256, np.float32)
    x512, y512 = data(512, np.float32)
    for x, y in [(x256, y256), (x512, y512), (x256, y256), (x512, y512), (x256, y256)]:
        z = arc.empty_like(x)
        vadd(x, y, z)
        np.testing.assert_array_equal(z.get(), x + y)
    s = vadd.stats()
    assert (s["compiles"], s["disk_hits"], s["hits"], s["variants"]) == (2, 0, 3, 2)
    assert renders == [(256,), (512,)]       # a memory hit neither renders nor hashes the source
    # A fresh kernel object (as in a new process) finds both on disk.
    again, _ = add_fn_kernel()
    again(x256, y256, arc.empty_like(x256))
    again(x512, y512, arc.empty_like(x512))
    s = again.stats()
    assert (s["compiles"], s["disk_hits"]) == (0, 2)


def _jit_worker(barrier, queue, order):
    vadd, _ = add_fn_kernel()
    barrier.wait()
    ok = True
    for n in order:
        x, y = data(n, np.float32, seed=n)
        z = arc.empty_like(x)
        vadd(x, y, z)
        ok &= bool(np.array_equal(z.get(), x + y))
    queue.put((vadd.stats()["compiles"], ok))


def test_one_compile_per_key_across_processes():
    ctx = mp.get_context("spawn")
    barrier, queue = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_jit_worker, args=(barrier, queue, [256, 512] if i % 2 else [512, 256]))
             for i in range(4)]
    for p in procs:
        p.start()
    res = [queue.get(timeout=240) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert all(ok for _, ok in res)
    assert sum(c for c, _ in res) == 2


def scale_kernel(**kw):
    spec = {"x": arc.bucket(pow2=True, minimum=64), "y": arc.bucket(pow2=True, minimum=64),
            "alpha": arc.runtime, "n": arc.runtime}
    spec.update(kw.pop("specialize", {}))
    return arc.jit(SCALE_T.replace("${FACTOR}", "${factor}"), params="x, y, alpha, n, factor", block_dim=4,
                   specialize=spec, **kw)


def test_bucket_and_runtime_policies():
    k = scale_kernel()
    for n, alpha in [(100, 2.0), (120, -1.5), (128, 0.25), (200, 3.0)]:
        x = np.arange(n, dtype=np.float32)
        y = np.full(n, 99.0, np.float32)
        k(x, y, alpha, n, 2)
        np.testing.assert_array_equal(y, x * np.float32(2) * np.float32(alpha))
    # 100, 120, 128 share the 128 bucket; 200 -> 256.  alpha and n never recompile.
    assert k.stats()["variants"] == 2
    src = k.render(arc.spec(100), arc.spec(100), 1.0, 100, 2)
    assert "CAP = 128;" in src and "void scale(GM_ADDR x, GM_ADDR y, float alpha, int32_t n)" in src


def test_exact_scalar_is_baked_in_and_not_passed():
    k = scale_kernel()                      # 'factor' is exact (the default for scalars), not a kernel param
    x = np.arange(64, dtype=np.float32)
    for f in (2, 3):
        y = np.zeros_like(x)
        k(x, y, 1.0, 64, f)
        np.testing.assert_array_equal(y, x * f)
    assert k.stats()["variants"] == 2
    assert "x.shape" not in k.stats()["explanation"] and "factor 2 -> 3" in k.stats()["explanation"]


def test_runtime_template_use_is_a_clear_error():
    k = scale_kernel(specialize={"factor": arc.runtime})
    with pytest.raises(arc.TemplateError, match="'factor' is passed at run time"):
        k(np.zeros(64, np.float32), np.zeros(64, np.float32), 1.0, 64, 2)


def test_recompile_budget_warns_naming_the_parameter():
    k = scale_kernel(specialize={"x": arc.exact}, max_variants=2)
    y = np.zeros(256, np.float32)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for n in (64, 128, 256):
            k(np.ones(n, np.float32), y[:n], 1.0, n, 1)
    msgs = [str(x.message) for x in w if issubclass(x.category, arc.RecompileWarning)]
    assert len(msgs) == 1
    assert "variant 3, over its budget of 2" in msgs[0] and "parameter 'x' (shape) took 3 distinct values" in msgs[0]
    assert "bucket" in msgs[0]


def test_recompile_budget_can_raise(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RECOMPILE_ACTION", "raise")
    k = scale_kernel(max_variants=1)
    k(np.ones(64, np.float32), np.zeros(64, np.float32), 1.0, 64, 1)
    with pytest.raises(arc.RecompileBudgetError, match="parameter 'factor' \\(value\\) took 2 distinct values"):
        k(np.ones(64, np.float32), np.zeros(64, np.float32), 1.0, 64, 5)
    assert k.stats()["compiles"] == 1       # raised before compiling


BAD_T = '''#include "kernel_operator.h"
constexpr int32_t N = ${x.size};
extern "C" __global__ __aicore__ void bad(GM_ADDR x)
{
    ${ctype(x.dtype)} v = undeclared_name + N;
}
'''


def test_template_compile_error_points_at_the_template_line():
    k = arc.jit(BAD_T, params="x", block_dim=1, name="bad")
    with pytest.raises(arc.JitCompileError) as ei:
        k(np.zeros(32, np.float32))
    e = ei.value
    assert isinstance(e, arc.CompileError)
    assert e.template_line == 5 and e.line == 5
    assert e.template_text.strip() == "${ctype(x.dtype)} v = undeclared_name + N;"
    assert e.values == {"ctype(x.dtype)": "float"}
    assert "constexpr int32_t N = 32;" in e.source          # the rendered source is kept
    msg = str(e)
    assert "undeclared_name" in msg and "from line 5 of template 'bad'" in msg and "${ctype(x.dtype)} = float" in msg
    assert "bad[x=float32[32]; block_dim=1]" in msg
    e2 = pickle.loads(pickle.dumps(e))
    assert str(e2) == msg and e2.template_line == 5 and e2.source == e.source


def test_template_line_survives_multiline_values():
    @arc.jit(template="${PRELUDE}\n" + BAD_T, block_dim=1)
    def bad(x):
        return {"PRELUDE": "// one\n// two\n// three"}
    with pytest.raises(arc.JitCompileError) as ei:
        bad(np.zeros(32, np.float32))
    assert (ei.value.line, ei.value.template_line) == (8, 6)


def test_function_form_compile_error_shows_rendered_line():
    @arc.jit(block_dim=1)
    def bad(x):
        return BAD_T.replace("${x.size}", str(x.size)).replace("${ctype(x.dtype)}", "float")
    with pytest.raises(arc.JitCompileError) as ei:
        bad(np.zeros(32, np.float32))
    assert ei.value.line == 5 and ei.value.template_line is None
    assert "float v = undeclared_name + N;" in str(ei.value)


def test_template_expression_error_names_line():
    k = arc.jit("int a;\nconstexpr int N = ${x.sise};\n", params="x", block_dim=1)
    with pytest.raises(arc.TemplateError, match=r"line 2: \$\{x.sise\}: AttributeError"):
        k(np.zeros(4, np.float32))
    with pytest.raises(arc.TemplateError, match="line 1: placeholder"):
        arc.Template("${x +}")


def test_warmup_then_calls_are_memory_hits(capsys):
    vadd, renders = add_fn_kernel(max_variants=1, on_budget="raise")   # warm-up is exempt from the budget
    labels = vadd.warmup([(arc.spec(n), arc.spec(n), arc.spec(n)) for n in (256, 512, 1024)], workers=2)
    assert len(labels) == 3 and "x=float32[1024]" in labels[2]
    assert "3/3" in capsys.readouterr().err            # progress (tqdm or plain text) on stderr
    before = vadd.stats()["compiles"]
    for n in (256, 512, 1024):
        x, y = data(n, np.float32)
        z = arc.empty_like(x)
        vadd(x, y, z)
        np.testing.assert_array_equal(z.get(), x + y)
    s = vadd.stats()
    assert s["compiles"] == before == 3 and s["hits"] == 3 and len(renders) == 3


def test_launch_config_override():
    vadd = arc.jit(ADD_T, params="x, y, z", block_dim=8)
    x, y = data(512, np.float32)
    z = arc.empty_like(x)
    vadd[4](x, y, z)
    np.testing.assert_array_equal(z.get(), x + y)
    z2 = arc.empty_like(x)
    vadd[2, arc.Stream()](x, y, z2)
    arc.synchronize()
    np.testing.assert_array_equal(z2.get(), x + y)
    assert vadd.stats()["variants"] == 2


def test_intents_go_through():
    vadd, _ = add_fn_kernel()
    x, y = data(256, np.float32)
    z = np.full_like(x, 7)
    vadd(arc.In(x), arc.In(y), arc.Out(z))
    np.testing.assert_array_equal(z, x + y)
    vadd(arc.In(x), arc.In(y), arc.Out(z))
    assert vadd.stats()["hits"] == 1


def test_require_mode_raises_on_a_miss(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE", "require")
    vadd, _ = add_fn_kernel()
    x, y = data(256, np.float32)
    with pytest.raises(arc.CacheMissError, match="require"):
        vadd(x, y, arc.empty_like(x))


def test_recompile_after_header_change_is_explained():
    def make(text):
        @arc.jit(block_dim=8, headers={"extra.h": text}, origin="tests.vadd_with_header")
        def vadd(x, y, z):
            return '#include "extra.h"\n' + ADD_TEMPLATE.replace("{N}", str(x.size)).replace("{T}", "float")
        return vadd
    x, y = data(256, np.float32)
    a = make("#define EXTRA 1\n")
    a(x, y, arc.empty_like(x))
    b = make("#define EXTRA 2\n")
    b(x, y, arc.empty_like(x))
    assert b.stats()["compiles"] == 1 and "header 'extra.h' changed" in b.stats()["explanation"]


def test_bad_uses_are_clear():
    with pytest.raises(TypeError, match="block_dim"):
        arc.jit(lambda x: "")
    with pytest.raises(TypeError, match=r"\*args"):
        arc.jit(block_dim=1)(lambda *args: "")
    with pytest.raises(TypeError, match="'w' is not a parameter"):
        arc.jit(block_dim=1, specialize={"w": arc.exact})(lambda x: "")
    with pytest.raises(ValueError, match="pow2=True and/or multiple"):
        arc.bucket()
    vadd, _ = add_fn_kernel()
    with pytest.raises(TypeError, match=r"vadd\(x, y, z\)"):
        vadd[8](np.zeros(256, np.float32))
    k = arc.jit(ADD_T.replace("${x.size}", "${a.size}").replace("x.dtype", "a.dtype"), params="a, b, c, d",
                block_dim=8, specialize={"d": arc.runtime})
    with pytest.raises(TypeError, match="cannot tell which arguments go to kernel"):
        k(*[np.zeros(256, np.float32)] * 3, np.zeros(1, np.int32))


def test_bucket_rounding():
    assert [arc.bucket(pow2=True).round(v, "n") for v in (0, 1, 3, 64, 65)] == [1, 1, 4, 64, 128]
    assert [arc.bucket(16).round(v, "n") for v in (0, 1, 16, 17)] == [0, 16, 16, 32]
    assert arc.bucket(64, pow2=True).round(5, "n") == 64
    with pytest.raises(ValueError, match="non-negative"):
        arc.bucket(8).round(-1, "n")


def test_error_in_an_in_memory_header_names_the_header():
    @arc.jit(block_dim=1, headers={"extra.h": "int broken = not_declared;\n"})
    def k(x):
        return '#include "extra.h"\n' + BAD_T.replace("${x.size}", "1").replace("${ctype(x.dtype)}", "float")
    with pytest.raises(arc.JitCompileError) as ei:
        k(np.zeros(8, np.float32))
    assert ei.value.file == "extra.h" and ei.value.line == 1
    assert "extra.h:1:" in str(ei.value) and "not_declared" in str(ei.value) and "while compiling k[" in str(ei.value)


def test_notebook_style_definition_with_defaults_and_keyword_only():
    # A cell's code: no source file behind it, so nothing may need inspect.getsource.
    cell = (
        "import ascendrtc as arc\n"
        "@arc.jit(template=T, block_dim=lambda x, y, z, factor: 4 if x.size < 1024 else 8)\n"
        "def vadd(x, y, z, *, factor=1):\n"
        "    return {}\n"
    )
    ns = {"__name__": "__main__", "T": ADD_T}
    exec(compile(cell, "<ipython-input-1>", "exec"), ns)
    vadd = ns["vadd"]
    for n in (512, 2048):
        x, y = data(n, np.float32, seed=n)
        z = arc.empty_like(x)
        vadd(x, y, z)
        np.testing.assert_array_equal(z.get(), x + y)
    assert vadd.origin == "__main__.vadd"
    assert [v.block_dim for v in vadd._variants.values()] == [4, 8]     # block_dim: a function of the arguments
    assert "USE_CORE_NUM = 4;" in vadd.render(arc.spec(512), arc.spec(512), arc.spec(512), factor=3)
    with pytest.raises(TypeError, match="positional"):
        vadd(x, y, z, 3)                      # factor is keyword-only, as written


def test_threads_share_variants_and_compile_each_once():
    import threading
    vadd, renders = add_fn_kernel()
    barrier = threading.Barrier(4)

    def work(i):
        barrier.wait()
        for n in ((256, 512) if i % 2 else (512, 256)) * 3:
            x, y = data(n, np.float32, seed=i * 10 + n)
            z = arc.empty_like(x)
            vadd(x, y, z)
            np.testing.assert_array_equal(z.get(), x + y)

    run_in_threads(work, 4)
    s = vadd.stats()
    assert s["compiles"] == 2 and s["variants"] == 2 and sorted(renders) == [(256,), (512,)]
    assert s["hits"] == 24 - 2


module_level_vadd = arc.jit(ADD_T, params="x, y, z", block_dim=8, name="module_level_vadd")


@arc.jit(block_dim=8)
def module_level_fn(x, y, z):
    return ADD_TEMPLATE.replace("{N}", str(x.size)).replace("{T}", arc.ctype(x.dtype))


def test_module_level_kernels_pickle_by_reference():
    assert pickle.loads(pickle.dumps(module_level_vadd)) is module_level_vadd
    assert pickle.loads(pickle.dumps(module_level_fn)) is module_level_fn
    assert module_level_vadd.origin == f"{__name__}.module_level_vadd"


# ---- issue 18: honest template errors, names and origins; no silent misbinding ----

CHUNK_T = '''#include "kernel_operator.h"
constexpr int32_t N = ${x.size};
extern "C" __global__ __aicore__ void chunky(GM_ADDR x)
{
    int32_t a = N;
    float v = undeclared_name + a;
}
'''


def test_template_lines_inside_a_literal_chunk_keep_their_own_numbers():
    r = arc.Template(CHUNK_T).render(x=arc.spec(32))
    assert r.line_map == [1, 2, 3, 4, 5, 6, 7, 8]
    k = arc.jit(CHUNK_T, params="x", block_dim=1)
    with pytest.raises(arc.JitCompileError) as ei:
        k(np.zeros(32, np.float32))
    e = ei.value
    assert (e.line, e.template_line) == (6, 6)
    assert e.template_text.strip() == "float v = undeclared_name + a;"
    assert e.values == {}                       # no placeholder on that line: none blamed
    assert "from line 6 of template 'chunky'" in str(e) and "${x.size}" not in str(e)


def test_template_jit_is_named_for_its_kernel_function():
    k = arc.jit(SCALE_T.replace("${FACTOR}", "2"), params="x, y, alpha, n", block_dim=2,
                specialize={"alpha": arc.runtime, "n": arc.runtime})
    assert k.__name__ == "scale" and "scale" in repr(k)
    assert k.origin.split("#")[0] == f"{__name__}.scale"   # "#2" when another `scale` template came first
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    k(x, y, 0.5, 64)
    np.testing.assert_array_equal(y, x * np.float32(2) * np.float32(0.5))
    assert k.variants[0].startswith("scale[") and k.stats()["explanation"].startswith("scale[")


def test_two_templates_in_one_module_have_their_own_cache_origins():
    a = arc.jit(ADD_T, params="x, y, z", block_dim=8)
    b = arc.jit("// the second template\n" + ADD_T, params="x, y, z", block_dim=8)
    assert a.__name__ == b.__name__ == "add_custom"
    assert a.origin != b.origin
    x, y = data(256, np.float32)
    for k in (a, b):
        z = arc.empty_like(x)
        k(x, y, z)
        np.testing.assert_array_equal(z.get(), x + y)
    assert "source changed" not in b.stats()["explanation"]
    assert "first compile" in b.stats()["explanation"]
    again = [arc.jit(ADD_T, params="x, y, z", block_dim=8) for _ in range(2)]   # one site: one origin
    assert again[0].origin == again[1].origin


def test_partly_matching_names_never_bind_by_position():
    # The kernel takes n; the Python side calls its scalar eps.  Same count, some names match:
    # binding by position would pass eps as n, silently.
    k = arc.jit(SCALE_T.replace("${FACTOR}", "1"), params="x, y, alpha, eps", block_dim=1,
                specialize={"alpha": arc.runtime, "eps": arc.runtime})
    x = np.ones(64, np.float32)
    with pytest.raises(TypeError, match="'eps' would be passed as the kernel's 'n'"):
        k(x, np.zeros_like(x), 1.0, 1e-5)
    ok = arc.jit(SCALE_T.replace("${FACTOR}", "1"), params="x, y, alpha, eps", block_dim=1,
                 specialize={"alpha": arc.runtime, "eps": arc.runtime}, kernel_args=["x", "y", "alpha", "eps"])
    y = np.zeros_like(x)
    ok(x, y, 3.0, 64)
    np.testing.assert_array_equal(y, x * 3)


def test_jit_errors_show_the_callers_line_and_one_jit_frame_with_source():
    import traceback
    k = arc.jit(CHUNK_T, params="x", block_dim=1)
    for call in (lambda: k(np.zeros(32, np.float32)), lambda: k[1](np.zeros(32, np.float32))):
        with pytest.raises(arc.JitCompileError) as ei:
            call()
        frames = traceback.extract_tb(ei.value.__traceback__)
        inner = [f for f in frames if f.filename != __file__]
        assert len(inner) == 1, traceback.format_list(frames)      # was 8 internal frames
        assert inner[0].line and "raise" in inner[0].line           # source known: no "Could not get source"
    # an error in the user's own source function keeps its frames
    @arc.jit(block_dim=1)
    def broken(x):
        return undefined_in_user_code  # noqa: F821
    with pytest.raises(NameError) as ei:
        broken(np.zeros(4, np.float32))
    assert any(f.name == "broken" and f.filename == __file__ for f in traceback.extract_tb(ei.value.__traceback__))
