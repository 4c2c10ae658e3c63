"""Ops of CANN's own libraries (ops-nn, ops-math on opbase) run end to end
against NumPy references written here from each op's documented
semantics (issue 28, item 6).  Skipped without the mirrors."""
import os

import numpy as np
import pytest

import ascendrtc as arc
from helpers.mirrors import mirror_root


def load(var, rel):
    return arc.op_project(os.path.join(mirror_root(var), rel), opbase=mirror_root("OPBASE_SRC"))


def test_bnll_runs_with_opbase_host_sources():
    """BNLL's tiling calls opbase's op_common sources (compiled in process)."""
    op = load("OPS_NN_SRC", "activation/bnll")
    x = np.linspace(-6, 6, 4096, dtype=np.float32)
    np.testing.assert_allclose(op(x), np.log1p(np.exp(x)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("var, rel, op_type", [("OPS_NN_SRC", "activation/gelu", "Gelu"),
                                               ("OPS_MATH_SRC", "math/abs", "Abs")])
def test_ops_using_atvoss_tiling_load(var, rel, op_type):
    op = load(var, rel)
    assert op.op_type == op_type and op.input_names == ["x"] and op.output_names == ["y"]
