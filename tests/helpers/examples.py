"""The pytest side of tools/example_runner.py: a tool module loaded from
tools/, and a catalog of a mirror's examples turned into one parameter each,
where only a quick sample runs unless the suite's environment variable says
``all`` and an example in the tool's KNOWN is a strict expected failure (one
that starts passing fails the run until it leaves KNOWN)."""
import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_tool(name):
    """tools/<name>.py as a module (registered in sys.modules: dataclasses look their module up)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def example_params(examples, key, known, quick, all_var, sample, missing):
    """One pytest.param per example (its id: key(example)): skipped unless its
    id is in `quick` or $<all_var> is "all" (`sample` says what runs by
    default), a strict xfail with KNOWN's reason when listed (not strict
    where the reason says "timing-dependent"); a single
    skipped parameter saying `missing` when there is no catalog."""
    if not examples:
        return [pytest.param(None, marks=pytest.mark.skip(reason=missing))]
    run_all = os.environ.get(all_var) == "all"
    out = []
    for e in examples:
        name, marks = key(e), []
        if not run_all and name not in quick:
            marks.append(pytest.mark.skip(reason=f"{sample} by default; {all_var}=all runs every one"))
        elif name in known:
            # a failure whose reason says it depends on timing (an example that frees memory a kernel
            # in flight reads) may pass on a run: not strict, so it cannot flap the suite
            marks.append(pytest.mark.xfail(reason=known[name], strict="timing-dependent" not in known[name]))
        out.append(pytest.param(e, id=name, marks=marks))
    return out
