#!/usr/bin/env bash
# wasm_vs_native_tick: the core's tick in WebAssembly against native, on the same workload.
#
# Builds crates/gridwalk-core/examples/wasm_tick.rs (the compare bench's shared-goals workload:
# 1,000 agents over 10 goals on the 110×100 map, 5 cells toggled a tick) for this machine and
# for wasm32-wasip1, runs each ROUNDS times in turn (the wasm under node's WASI, the same V8 as
# a browser's), checks both did the same work (expansions and final cells), and prints the
# ratio of the medians of their median ticks. Goal: at most 2.
#
# usage: bash scripts/web-bench.sh [TICKS] [AGENTS] [ROUNDS]   (default 300 1000 3)
set -euo pipefail
cd "$(dirname "$0")/.."
ticks=${1:-300}
agents=${2:-1000}
rounds=${3:-3}
native_dir="${CARGO_TARGET_DIR:-$HOME/.cache/gridwalk-target}"
# Its own target dir: a small build (the core only), never waiting on the game's web build.
wasm_dir="${GRIDWALK_WEB_BENCH_TARGET_DIR:-$HOME/.cache/gridwalk-web-bench-target}"

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
if ! command -v node >/dev/null; then
    echo "web-bench: installing nodejs"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs >/dev/null
fi
rustup target list --installed | grep -qx wasm32-wasip1 || rustup target add wasm32-wasip1

CARGO_TARGET_DIR="$native_dir" cargo build --release -q -p gridwalk-core --example wasm_tick
CARGO_TARGET_DIR="$wasm_dir" cargo build --release -q -p gridwalk-core --example wasm_tick --target wasm32-wasip1
native="$native_dir/release/examples/wasm_tick"
wasm="$wasm_dir/wasm32-wasip1/release/examples/wasm_tick.wasm"

run_wasm() {
    node --no-warnings - "$wasm" "$ticks" "$agents" <<'JS'
const fs = require("node:fs");
const { WASI } = require("node:wasi");
const [file, ...args] = process.argv.slice(2);
const wasi = new WASI({ version: "preview1", args: ["wasm_tick", ...args], env: {} });
WebAssembly.instantiate(fs.readFileSync(file), wasi.getImportObject()).then(({ instance }) => {
    wasi.start(instance);
});
JS
}

out=$(mktemp)
for r in $(seq "$rounds"); do
    "$native" "$ticks" "$agents" | sed 's/^/native /' >>"$out"
    run_wasm | sed 's/^/wasm /' >>"$out"
done
python3 - "$out" <<'PY'
import json, statistics, sys
runs = {"native": [], "wasm": []}
for line in open(sys.argv[1]):
    side, doc = line.split(" ", 1)
    runs[side].append(json.loads(doc))
work = {(r["expanded"], r["cells"]) for side in runs.values() for r in side}
if len(work) != 1:
    print(f"web-bench: native and wasm did different work: {sorted(work)}")
    sys.exit(1)
med = {side: statistics.median(r["median_us"] for r in rs) for side, rs in runs.items()}
for side, rs in runs.items():
    print(f"web-bench: {side:6} median tick per run (µs): {[r['median_us'] for r in rs]}, mean {[r['mean_us'] for r in rs]}")
r = runs["native"][0]
print(f"web-bench: {r['ticks']} ticks of {r['agents']} agents, identical work ({r['expanded']} cells expanded)")
print(f"wasm_vs_native_tick = {med['wasm'] / med['native']:.2f} (wasm {med['wasm']:.0f} µs / native {med['native']:.0f} µs, goal <= 2)")
PY
rm -f "$out"
