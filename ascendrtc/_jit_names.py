"""Which kernel a jit launches, and where its template was defined: the
kernel a template declares, the pick among a binary's kernels, and a
template's origin (module.name, numbered when one module defines it twice)."""
from __future__ import annotations

import re
import threading
from typing import Dict, List, Optional, Tuple

# The kernel function a template defines: `[extern "C"] __global__ __aicore__ void name(`, either order.
_KERNEL_DECL = re.compile(r"\b__global__\b[^;{}()]*?\bvoid\s+([A-Za-z_]\w*)\s*\(")


def _kernel_name_in(text: str) -> Optional[str]:
    m = _KERNEL_DECL.search(text)
    return m.group(1) if m else None


# Each definition site of a template jit, per module.name: two templates with one
# kernel name in one module keep apart in the disk cache's explanations.
_template_sites: Dict[str, List[Tuple[str, int]]] = {}


def _template_origin(base: str, site: Tuple[str, int]) -> str:
    with _sites_lock:
        sites = _template_sites.setdefault(base, [])
        if site not in sites:
            sites.append(site)
        i = sites.index(site)
    return base if i == 0 else f"{base}#{i + 1}"


_sites_lock = threading.Lock()


def _pick_kernel(names: List[str], fname: str) -> str:
    if len(names) == 1:
        return names[0]
    if fname in names:
        return fname
    raise ValueError(f"{fname}: the source defines kernels {', '.join(names) or '(none)'}; say which to launch with "
                     f"jit(kernel='...')")
