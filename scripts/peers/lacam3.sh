#!/usr/bin/env bash
# Builds the peer solver lacam3 (Okumura, github.com/Kei18/lacam3, MIT) at a pinned commit, the
# one docs/benchmarks.md's side-by-side mapf figures were measured against.
#
#   scripts/peers/lacam3.sh [DIR]
#
# Clones into DIR (default: target/peers/lacam3 under the repository), checks out the pinned
# commit and its argparse submodule, and builds with CMake in Release. The binary is
# DIR/build/main; the script prints its path last. Running it again reuses the clone.
#
# Needs git, a C++17 compiler and CMake >= 3.16. Without cmake on the PATH it installs the
# `cmake` package from PyPI with `python3 -m pip install --user cmake` (set
# LACAM3_NO_PIP=1 to refuse and stop with a message instead). LACAM3_URL overrides where
# to clone from (a local mirror, say).
set -euo pipefail

COMMIT=1a269b7addc1edc4f1f56b194d307190f5491943
URL=${LACAM3_URL:-https://github.com/Kei18/lacam3.git}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/target/peers/lacam3}

die() {
    echo "lacam3.sh: $*" >&2
    exit 1
}

command -v git >/dev/null || die "git is missing"
command -v c++ >/dev/null || command -v g++ >/dev/null || die "no C++ compiler (c++ or g++)"

if ! command -v cmake >/dev/null; then
    user_bin=$(python3 -m site --user-base 2>/dev/null)/bin
    if [ -x "$user_bin/cmake" ]; then
        PATH=$user_bin:$PATH
    elif [ "${LACAM3_NO_PIP:-0}" = 1 ]; then
        die "cmake is missing: install CMake >= 3.16 (or: python3 -m pip install --user cmake)"
    else
        echo "lacam3.sh: cmake is missing; installing it with pip (python3 -m pip install --user cmake)" >&2
        python3 -m pip install --user --quiet cmake ||
            die "could not install cmake with pip: install CMake >= 3.16 yourself"
        PATH=$user_bin:$PATH
        command -v cmake >/dev/null || die "pip installed cmake, but it is not in $user_bin"
    fi
fi

if [ ! -d "$DIR/.git" ]; then
    mkdir -p "$(dirname "$DIR")"
    git clone --quiet "$URL" "$DIR" || die "could not clone $URL into $DIR"
fi
cd "$DIR"
git fetch --quiet origin "$COMMIT" 2>/dev/null || true
git -c advice.detachedHead=false checkout --quiet "$COMMIT" ||
    die "commit $COMMIT is not in $URL"
if [ ! -f third_party/argparse/CMakeLists.txt ]; then
    git submodule update --init --quiet third_party/argparse ||
        die "could not fetch the argparse submodule (github.com/p-ranav/argparse)"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >.cmake-configure.log 2>&1 ||
    die "cmake configure failed: see $DIR/.cmake-configure.log"
cmake --build build --target main -j "$(nproc 2>/dev/null || echo 2)" >.cmake-build.log 2>&1 ||
    die "build failed: see $DIR/.cmake-build.log"
echo "$DIR/build/main"
