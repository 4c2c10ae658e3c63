"""PyOpenCL on PoCL (a CPU OpenCL runtime that also compiles kernel strings
at run time): the nearest peer that runs on this machine.  `make bench`
(`sh tools/install_deps.sh --bench`) installs Debian's pocl-opencl-icd and
PyOpenCL from PyPI; without them the rows say "PoCL unavailable" instead."""
_state = None


def context():
    """(pyopencl module, context, in-order queue) on a PoCL CPU device, or
    (None, reason, None) when PyOpenCL or PoCL is missing."""
    global _state
    if _state is None:
        try:
            import pyopencl as cl
            plats = [p for p in cl.get_platforms() if "portable computing language" in p.name.lower()]
            if not plats:
                raise RuntimeError("no PoCL platform among %s" % [p.name for p in cl.get_platforms()])
            ctx = cl.Context(plats[0].get_devices())
            _state = (cl, ctx, cl.CommandQueue(ctx))
        except Exception as e:  # ImportError, no ICD, no platform: all mean "not here"
            _state = (None, "%s: %s" % (type(e).__name__, e), None)
    return _state


def unavailable_row(what, reason):
    """A row that bench/run.py prints as unavailable (no values)."""
    return ("%s: PoCL unavailable (%s)" % (what, reason.splitlines()[0][:80]), [], "-", [], None)
