"""examples/quickstart.ipynb runs top to bottom in a Jupyter kernel (nbclient):
a kernel written in a cell, compiled, launched and checked against NumPy, a
compile error shown as a short excerpt with a caret, and a throughput plot.
examples/tuning.ipynb runs too: the cost model's estimates of buffering,
tile sizes, block counts and a vector-bound kernel, with their plots."""
import os

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = os.path.join(ROOT, "examples", "quickstart.ipynb")
TUNING = os.path.join(ROOT, "examples", "tuning.ipynb")


def _text(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")


def _execute(path):
    nb = nbformat.read(path, as_version=4)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = ROOT + (os.pathsep + old if old else "")  # this checkout's ascendrtc
    try:
        # Raises CellExecutionError (with the cell and its traceback) if any cell fails.
        nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": os.path.dirname(path)}}).execute()
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
    return [c for c in nb.cells if c.cell_type == "code"]


@pytest.fixture(scope="module")
def executed():
    return _execute(NOTEBOOK)


@pytest.fixture(scope="module")
def tuning():
    return _execute(TUNING)


def test_every_cell_runs_and_the_kernel_matches_numpy(executed):
    assert all(not any(o.get("output_type") == "error" for o in c.outputs) for c in executed)
    assert any("z == x + y" in _text(c) for c in executed)


def test_compile_error_is_a_short_excerpt_with_a_caret(executed):
    cell = next(c for c in executed if "CompileError" in c.source)
    text = _text(cell)
    lines = text.splitlines()
    assert "add_custom.asc:24:50: error: use of undeclared identifier 'TILE_LEN'" in lines[0]
    assert lines[1].strip().startswith("24 |") and "TILE_LEN" in lines[1]
    caret = lines[2]
    assert caret.rstrip().endswith("^") and caret.index("^") == lines[1].index("TILE_LEN")
    assert len(lines) <= 6, text          # readable, not a wall of compiler output


def test_throughput_is_timed_and_plotted(executed):
    timing = next(c for c in executed if "time_vadd" in c.source)
    assert _text(timing).count("GB/s") == 5
    plot = next(c for c in executed if "plt.show" in c.source)
    assert any("image/png" in o.get("data", {}) for o in plot.outputs)


def test_tuning_notebook_shows_what_tuning_changes(tuning):
    assert all(not any(o.get("output_type") == "error" for o in c.outputs) for c in tuning)
    text = "\n".join(_text(c) for c in tuning)
    for claim in ("double buffering is faster", "larger tiles are faster", "GM bandwidth is shared",
                  "-> bound by mte2", "-> bound by vec", "Ascend910B4"):
        assert claim in text, claim
    plots = [c for c in tuning if "plt.show" in c.source]
    assert len(plots) >= 4
    assert all(any("image/png" in o.get("data", {}) for o in c.outputs) for c in plots)
