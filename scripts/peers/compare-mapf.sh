#!/usr/bin/env bash
# Side by side: gridwalk-cli mapf and lacam3 (built by its own README: docs/benchmarks.md
# names its commit and build flags) on the anytime
# instances of docs/benchmarks.md, one after the other in one run, each with seed 0 and
# lacam3's defaults (LaCAM*, refiners, its threads). Prints a Markdown table: time to the first
# solution (ms), soc at 1 s and at 10 s (separate runs with those time limits), and the load.
#
#   scripts/peers/compare-mapf.sh LACAM3_BIN GRIDWALK_CLI [SECONDS...]
#
# SECONDS are the time limits (default: 1 10). Instances come from the repository's test data.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 LACAM3_BIN GRIDWALK_CLI [SECONDS...]" >&2; exit 2; }
LACAM3=$1
CLI=$2
shift 2
LIMITS=("$@")
[ ${#LIMITS[@]} -gt 0 ] || LIMITS=(1 10)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA=$ROOT/crates/gridwalk-core/tests/data/mapf
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

INSTANCES=(
    "random-32-32-20 random-32-32-20-random-1 409"
    "room-32-32-4 room-32-32-4-gen-1 450"
    "warehouse-10-20-10-2-1 warehouse-10-20-10-2-1-gen-1 1000"
)

key() { grep -m1 "^$1=" "$2" 2>/dev/null | cut -d= -f2 || true; }

header="| instance | agents | solver | first (ms) |"
rule="|---|---:|---|---:|"
for s in "${LIMITS[@]}"; do
    header+=" soc at $s s |"
    rule+="---:|"
done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "$header"
echo "$rule"
for inst in "${INSTANCES[@]}"; do
    read -r map scen n <<<"$inst"
    for solver in gridwalk lacam3; do
        row="| $map | $n | $solver |"
        first=""
        socs=""
        for s in "${LIMITS[@]}"; do
            out=$TMP/$solver-$s.txt
            if [ "$solver" = gridwalk ]; then
                "$CLI" mapf "$DATA/$map.map" "$DATA/$scen.scen" --agents "$n" \
                    --time-limit "$s" --out "$out" >/dev/null 2>&1 || true
            else
                "$LACAM3" -m "$DATA/$map.map" -i "$DATA/$scen.scen" -N "$n" -s 0 \
                    -t "$s" -o "$out" >/dev/null 2>&1 || true
            fi
            t=$(key comp_time_initial_solution "$out")
            [ -n "$first" ] || [ "${t:--1}" = -1 ] || first=$t
            soc=$(key soc "$out")
            [ "${soc:-0}" != 0 ] || soc="not solved"
            socs+=" $soc |"
        done
        echo "$row ${first:-–} |$socs"
    done
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
