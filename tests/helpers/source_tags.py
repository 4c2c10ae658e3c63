"""Kernel sources in tests mark lines with a trailing ``// TAG`` comment so
an expected error can name its line without counting by hand."""


def tagged_line(src: str, tag: str) -> int:
    """The 1-based line of ``src`` that ends with ``// tag``."""
    return next(i + 1 for i, ln in enumerate(src.splitlines()) if ln.rstrip().endswith("// " + tag))
