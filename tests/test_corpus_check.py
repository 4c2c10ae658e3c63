"""tools/corpus_check.py: the compatibility table's tool.  With the public
samples mirror ($ASCEND_SAMPLES_SRC, see tests/helpers/samples.py) every
framework kernel that does not need the cube unit compiles through the
op-project path (ascendrtc.op_kernel); without it only the table and doc
plumbing run."""
import os

import pytest

from helpers.examples import ROOT
from helpers.examples import load_tool as _load


def load_tool():
    return _load("corpus_check")


def test_table_and_doc_update(tmp_path):
    cc = load_tool()
    recs = [{"path": "a/op_kernel/x.cpp", "framework": True, "cube": [], "ok": True},
            {"path": "a/op_kernel/y.cpp", "framework": True, "cube": [], "ok": False, "error": "y.cpp:3: bad | pipe"},
            {"path": "b/mm.cpp", "framework": False, "cube": ["Mmad"], "ok": True}]
    table = cc.markdown(recs, {"src_name": "repo", "commit": "0123456789abcdef", "version": "0", "arch": "dav-2201"})
    assert "| framework | no | 1 | 2 | 50% |" in table
    assert "| stand-alone | yes | 1 | 1 | 100% |" in table
    assert "| **all** | | **2** | **3** | **67%** |" in table
    assert "**fails**: y.cpp:3: bad \\| pipe" in table
    doc = tmp_path / "compat.md"
    doc.write_text("# t\nbefore\n%s\nold\n%s\nafter\n" % (cc.BEGIN_MARK, cc.END_MARK))
    cc.update_doc(str(doc), table)
    text = doc.read_text()
    assert "old" not in text and table in text and text.startswith("# t\nbefore\n") and text.endswith("after\n")
    (tmp_path / "plain.md").write_text("no markers")
    with pytest.raises(SystemExit, match="no corpus-check markers"):
        cc.update_doc(str(tmp_path / "plain.md"), table)


def test_the_doc_has_the_markers():
    cc = load_tool()
    with open(os.path.join(ROOT, "docs", "compatibility.md")) as f:
        text = f.read()
    assert cc.BEGIN_MARK in text and cc.END_MARK in text


def test_every_vector_framework_kernel_of_the_samples_compiles(tmp_path):
    src = os.environ.get("ASCEND_SAMPLES_SRC")
    if not src or not os.path.isdir(src):
        pytest.skip("no samples mirror: set ASCEND_SAMPLES_SRC to a work tree or git dir of the Ascend samples")
    recs = load_tool().main(["--src", src, "--framework-only", "--json", str(tmp_path / "recs.json")])
    vector = [r for r in recs if not r["cube"]]
    assert len(vector) >= 50
    bad = ["%s: %s" % (r["path"], r.get("error")) for r in vector if not r["ok"]]
    assert not bad, "\n".join(bad)
