"""@ascendrtc.jit over a function that returns ${...} template source:
rendered like jit(SRC, params=...) with the call's values, checked
against NumPy; a placeholder naming nothing the call has says so."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.acl import ADD_TEMPLATE

ADD_T = (ADD_TEMPLATE.replace("{N}", "${x.shape[0]}").replace("{T}", "${ctype(x.dtype)}")
         .replace("USE_CORE_NUM = 8;", "USE_CORE_NUM = ${block_dim};"))


@pytest.fixture(autouse=True)
def cdir(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "cache"))


def test_function_returning_a_template():
    @arc.jit(block_dim=8)
    def vadd(x, y, z):
        return ADD_T
    for n, dt in ((256, np.float32), (512, np.float16)):
        x = np.random.default_rng(n).standard_normal(n).astype(dt)
        y = np.random.default_rng(n + 1).standard_normal(n).astype(dt)
        z = arc.empty_like(x)
        vadd(x, y, z)
        np.testing.assert_array_equal(z.get(), x + y)
    src = vadd.render(arc.spec(256), arc.spec(256), arc.spec(256))
    assert "${" not in src and "TOTAL_LENGTH = 256;" in src and "USE_CORE_NUM = 8;" in src


def test_unknown_placeholder_names_line_and_expression():
    @arc.jit(block_dim=8)
    def vadd(x, y, z):
        return ADD_T.replace("${x.shape[0]}", "${width}")
    x = np.ones(256, np.float32)
    with pytest.raises(arc.TemplateError, match=r"line 4: \$\{width\}: NameError"):
        vadd(x, x, arc.empty_like(x))
