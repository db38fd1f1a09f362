#!/bin/sh
# Fetch Scan (Fabien Letouzey's 10x10 draughts engine, GPL v3) and build it in benchmarks/scan/build/,
# the reference engine of bench_analysis_precision.py. Nothing of Scan enters this repository:
# build/ is ignored by git.
#
#   sh benchmarks/scan/build.sh                      # Scan 3.1 (Hub protocol 2), from GitHub
#   SCAN_REV=57082ee sh benchmarks/scan/build.sh     # Scan 2.0 (Hub protocol 1)
#   SCAN_REPO=/path/to/a/clone sh benchmarks/scan/build.sh
#
# SCAN_REPO is any git URL or local clone of Scan's public source; SCAN_REV a commit of it
# (7aae17e is Scan 3.1, 5fb7fa6 Scan 3.0, 57082ee Scan 2.0). The engine runs from build/,
# which holds scan.ini and data/ (evaluation weights and opening book): run it as
# `cd benchmarks/scan/build && ./scan hub`, or give the benchmark `--reference-dir`.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=${SCAN_REPO:-https://github.com/rhalbersma/scan}
rev=${SCAN_REV:-7aae17e7b7bfc47744601afb1ee7655e18983ce5}
build="$here/build"
src="$build/src-clone"

mkdir -p "$build"
if [ ! -d "$src/.git" ]; then
    rm -rf "$src"
    git clone --no-checkout --quiet "$repo" "$src"
fi
git -C "$src" checkout --quiet --force "$rev"

# Scan's own Makefile, with its -flto and -mpopcnt; `make -C` keeps objects in the clone.
make -C "$src/src" --quiet -j2 scan
cp "$src/src/scan" "$build/scan"
rm -rf "$build/data"
cp -R "$src/data" "$build/data"
cp "$src/scan.ini" "$build/scan.ini"
# One thread (the machine is shared; figures per position stay comparable) and the book off,
# so that every position is searched. Bitbases stay as shipped: Scan 2.0's source holds those
# up to 4 pieces (its scan.ini asks for them), Scan 3.1's none (its scan.ini says 0).
sed -i.orig -e 's/^threads *=.*/threads = 1/' -e 's/^book *=.*/book = false/' "$build/scan.ini"
rm -f "$build/scan.ini.orig"

for file in "$build/data/eval"; do
    if [ ! -s "$file" ]; then
        echo "build.sh: $file is missing or empty (Scan cannot evaluate without it)" >&2
        exit 1
    fi
done
echo "built $(git -C "$src" log -1 --format='%h %s' "$rev") in $build"
