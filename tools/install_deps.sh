#!/bin/sh
# Install what the build and tests need and is missing: LLVM/clang 19 from
# Debian, NumPy and pytest from PyPI.  Quiet and quick when all is present.
set -e
PY=${PYTHON:-python3}
need=""
for p in llvm-19-dev libclang-cpp19-dev libclang-19-dev clang-19 make; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
    echo "installing Debian packages:$need"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
pymiss=""
$PY -c "import numpy" 2>/dev/null || pymiss="$pymiss numpy"
$PY -c "import pytest" 2>/dev/null || pymiss="$pymiss pytest"
$PY -c "import setuptools" 2>/dev/null || pymiss="$pymiss setuptools"
if [ -n "$pymiss" ]; then
    echo "installing Python packages:$pymiss"
    $PY -m pip install -q $pymiss
fi
