"""``python -m ascendrtc home`` prints the simulated NPU's CANN-shaped home
(the directory with ``set_env.sh``), e.g. ``source $(python -m ascendrtc home)/set_env.sh``;
``python -m ascendrtc info`` describes the backend and device;
``python -m ascendrtc cache list|stats|verify|prune|clear`` the compile cache."""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["cache"]:  # the compile cache's own CLI (ascendrtc/cache.py)
        from .cache import main as cache_main
        return cache_main(argv[1:])
    p = argparse.ArgumentParser(prog="python -m ascendrtc", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("home", help="print the simulated NPU home (contains set_env.sh, include/, lib64/)")
    sub.add_parser("info", help="print the backend, its home and the device description")
    sub.add_parser("cache", help="inspect the compile cache: cache list|stats|verify|prune --max-size|clear")
    args = p.parse_args(argv)
    from . import _backend
    if args.cmd == "home":
        home = _backend.sim_home()
        print(home)
        if not os.path.exists(os.path.join(home, "set_env.sh")):
            print(f"note: {home} is not built yet; run `make home` in the ascendrtc source tree",
                  file=sys.stderr)
            return 1
        return 0
    import ascendrtc
    info = ascendrtc.get_backend()
    print(f"backend: {info['backend']}  home: {info['home']}")
    for k, v in ascendrtc.device_info().items():
        print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
