#!/usr/bin/env bash
# The contract check: two builds of gridwalk-cli print the same bytes, timings aside.
#
#   bash scripts/same-output.sh OLD_CLI NEW_CLI [EXTRA_FLAGS_FOR_BOTH...]
#
# Runs `simulate` (every algorithm, with and without --crowd, --trace and the budgets, on the
# scenarios in scripts/same-output/, maps/default.ron and scripts/e2e-map.ron), `navigate`,
# `movingai`, `gppc` and `mapf --out` on five benchmark instances, with each binary, blanks the
# timings (`micros`, `millis`, `comp_time`) and lists every run whose output differs. Exits 1
# if any does. Run it before a change that must leave outputs alone lands (see CHANGELOG.md).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 OLD_CLI NEW_CLI" >&2; exit 2; }
old=$(realpath "$1")
new=$(realpath "$2")
for b in "$old" "$new"; do [ -x "$b" ] || { echo "same-output: $b is not an executable" >&2; exit 2; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

data=crates/gridwalk-core/tests/data
runs=()
for file in scripts/same-output/*.ron maps/default.ron scripts/e2e-map.ron; do
    for algo in dstar-lite dstar astar dijkstra mpgaa; do
        for opts in "" "--crowd" "--planner-memory 1M --plan-budget 2000"; do
            runs+=("simulate $file --algo $algo --ticks 150 $opts")
        done
        # Traces list every expansion: a few ticks say as much as many.
        runs+=("simulate $file --algo $algo --ticks 20 --trace")
    done
done
for algo in dstar-lite dstar astar dijkstra mpgaa; do
    runs+=("navigate $data/movingai/arena.map $data/movingai/arena.map.scen --sensor 3 --algo $algo --limit 30")
done
runs+=("movingai $data/movingai/arena.map $data/movingai/arena.map.scen --algo astar")
runs+=("movingai $data/movingai/arena.map $data/movingai/arena.map.scen --algo dstar-lite")
runs+=("gppc $data/gppc/aurora_part.scen --algo astar")
runs+=("gppc $data/gppc/aurora_part.scen --algo dstar-lite")
m=$data/mapf
for inst in "random-32-32-20 random-1 100" "random-32-32-20 random-1 400" "random-32-32-20 gen-1 300" \
    "room-32-32-4 gen-1 100" "warehouse-10-20-10-2-1 random-1 200"; do
    set -- $inst
    runs+=("mapf $m/$1.map $m/$1-$2.scen --agents $3 --time-limit 30 @FIRST@ --out @OUT@")
done

blank() { sed -E 's/("?(micros|millis|comp_time)"?[:= ]+)[0-9.]+/\1_/g'; }
run() { # BIN INDEX COMMAND → $work/INDEX.BIN-NAME
    local bin=$1 i=$2 tag=$3; shift 3
    local cmd=${*//@OUT@/$work/$i.$tag.out}
    # `mapf` improves its plan until the time limit unless told --first (builds before it
    # stop at the first solution and know no --first).
    local first=""
    "$bin" mapf --help 2>/dev/null | grep -q -- --first && first=--first
    cmd=${cmd//@FIRST@/$first}
    # shellcheck disable=SC2086
    { "$bin" $cmd 2>&1 || echo "exit $?"; } | blank >"$work/$i.$tag"
    [ -f "$work/$i.$tag.out" ] && blank <"$work/$i.$tag.out" >>"$work/$i.$tag" || true
}
differ=0
for i in "${!runs[@]}"; do
    printf '\r%d of %d' "$((i + 1))" "${#runs[@]}" >&2
    run "$old" "$i" old "${runs[$i]}"
    run "$new" "$i" new "${runs[$i]}"
    if ! cmp -s "$work/$i.old" "$work/$i.new"; then
        differ=$((differ + 1))
        echo "differs: ${runs[$i]}"
    fi
    rm -f "$work/$i".*
done
printf '\n' >&2
echo "same-output: ${#runs[@]} runs, $differ differing"
[ "$differ" -eq 0 ]
