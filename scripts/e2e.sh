#!/usr/bin/env bash
# End-to-end: the real game under Xvfb, driven by real clicks, then its recording replayed.
#
# Installs what it needs (xvfb, mesa-vulkan-drivers, xdotool, imagemagick) when missing,
# builds the release binaries, then:
# 1. opens a 20×20 map, and with xdotool: slows the ticks, places a start and a goal,
#    middle-drags a wall across the path, right-clicks a gap into it, zooms in with the wheel
#    around a cell and middle-clicks there and 100 pixels to its right, takes a
#    screenshot and quits with Esc. Where each cell is on the window comes from the status the
#    game writes (GRIDWALK_STATUS, see src/platform: the browser test reads the same). It checks
#    the recording holds the agent and the edits (the two zoomed clicks walled exactly the
#    cells the zoom puts under them), and that `gridwalk-cli simulate` replays it to the agent's
#    arrival.
# 2. opens the default start with no arguments but --record and touches nothing for about
#    45 seconds. It checks that agents got new goals, that walls nobody drew dropped (the
#    replay's trace has raised cells), that agents still walk at the end, and that the
#    replay reaches the cells the game printed on exit.
# 3. opens the Explore preset (unknown terrain, sensor range 3) for about 30 seconds and checks
#    the replay shows wall discoveries after tick 0 and agents still walking
#    ($E2E_FOG_SCREENSHOT, if set, keeps its screenshot of the fog).
# 4. the soak: 1,000 agents and a minute of random real input.
# 5. a big world: 5,000 agents on 64room_000 (512×512); a few seconds after the window opens
#    the map is drawn (a screenshot of the map's rectangle, from the status, is not black),
#    memory stays under 3 GB, and the replay (with the game's planning budget) ends where the
#    game did.
# 6. the Crowd preset for about 40 seconds: the replay shows no two agents on one cell and no
#    swap on any tick, and arrivals in every 100 ticks.
# 7. the plugin's minimal example (crates/bevy_gridwalk/examples/minimal.rs): a real click
#    on a ground cell; the screenshot shows the cell turned from ground into a wall.
# 8. a dense one-shot crowd: 400 agents of the MAPF benchmark's random-32-32-20 `random-1`
#    scenario (4 moves, staying on arrival) until every one stands on its goal; the screenshot
#    shows an agent on each goal cell the status lists, and the replay has every agent on its
#    goal and none stuck, with the real-time search having moved the crowd
#    ($E2E_DENSE_SCREENSHOT, if set, keeps the screenshot).
# 9. a League of Robot Runners problem: the start-kit's random-32-32-20 with 400 robots that
#    turn (--lorr maps/lorr/random_400.json); after a few seconds a wall is dragged across the
#    map, and later the game is paused: the screenshot shows each listed robot's hand where
#    it faces, the tasks finished grew, and the replay keeps one action a robot a tick and
#    reaches the game's count ($E2E_LORR_SCREENSHOT, if set, keeps the screenshot).
#
# The checks are in scripts/e2e_checks.py, beside this file.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
command -v import >/dev/null || need+=(imagemagick)
dpkg -s mesa-vulkan-drivers >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
if [ ${#need[@]} -gt 0 ]; then
    echo "e2e: installing ${need[*]}"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The binaries as the test command builds them (the same features, so Bevy is not rebuilt).
cargo test --release --workspace --no-run
checks() { python3 scripts/e2e_checks.py "$@"; }
target=$(cargo metadata --format-version 1 --no-deps | checks target-dir)
game="$target/release/gridwalk"
cli="$target/release/gridwalk-cli"

work=$(mktemp -d)
record="$work/session.ron"
shot="${E2E_SCREENSHOT:-$work/e2e.png}"
# Xvfb picks a free display itself and writes its number once it accepts connections.
# -noreset: by default the server resets when its last client leaves, and a client that
# connects during the reset is refused (a CI run lost the game's XOpenDisplay that way,
# right after the `xdotool getmouselocation` probe below disconnected).
Xvfb -displayfd 3 -noreset -screen 0 1600x1000x24 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb=$!
game_pid=""
cleanup() {
    [ -n "$game_pid" ] && kill "$game_pid" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 300); do
    [ -s "$work/display" ] && break
    kill -0 "$xvfb" 2>/dev/null || { cat "$work/xvfb.log"; echo "e2e: Xvfb did not start"; exit 1; }
    sleep 0.1
done
[ -s "$work/display" ] || { cat "$work/xvfb.log"; echo "e2e: Xvfb gave no display in 30 s"; exit 1; }
export DISPLAY=":$(head -n 1 "$work/display")"
xdotool getmouselocation >/dev/null || { echo "e2e: cannot reach the X server on $DISPLAY"; exit 1; }

# The game's window: waits for it (or for the game to die) and echoes its id.
find_window() {
    local log=$1 w found=""
    for _ in $(seq 300); do
        kill -0 "$game_pid" 2>/dev/null || { cat "$log" "$work/xvfb.log" >&2; echo "e2e: the game exited early" >&2; return 1; }
        for w in $(xdotool search --onlyvisible --name '^gridwalk' 2>/dev/null || true); do
            if xdotool getwindowgeometry "$w" 2>/dev/null | grep -q 'Geometry: 1400x900'; then
                found=$w
            fi
        done
        [ -n "$found" ] && { echo "$found"; return 0; }
        sleep 0.2
    done
    cat "$log" >&2; echo "e2e: no game window" >&2; return 1
}

# Starts the game with ARGS, its output in LOG, and waits for its window (sets game_pid and
# win): launch LOG ARGS...
launch() {
    local log=$1
    shift
    "$game" "$@" >"$log" 2>&1 &
    game_pid=$!
    win=$(find_window "$log") || exit 1
}

# Fails unless the game still runs: alive LOG WHILE-WHAT.
alive() {
    kill -0 "$game_pid" 2>/dev/null || { tail -50 "$1"; echo "e2e: the game died $2"; exit 1; }
}

status="$work/status.json"
GRIDWALK_STATUS="$status" launch "$work/game.log" --map scripts/e2e-map.ron --agents 0 --on-arrival stay --record "$record"
sleep 4 # first frames: shaders, egui fonts

# The centre of cell (x, y) on the window, as the game's status says (the fitted view: the
# status is read before the wheel zooms).
move() {
    local at
    at=$(checks cell "$status" "$1" "$2") || { echo "$at"; cat "$work/game.log"; exit 1; }
    read -r X Y <<<"$at"
    xdotool mousemove --window "$win" "$X" "$Y"
    sleep 0.15
}

xdotool windowfocus "$win" 2>/dev/null || true
move 10 19
for _ in 1 2 3 4 5; do xdotool key --window "$win" minus; sleep 0.1; done # 1 tick per second
move 1 10; xdotool click 1; sleep 0.3         # start
move 18 10; xdotool click 1; sleep 0.5        # goal: the agent appears
move 14 1; xdotool mousedown 2                # a wall across the path, dragged fast
for y in 4 8 12 16 18; do move 14 "$y"; done
xdotool mouseup 2; sleep 0.5
move 14 10; xdotool click 3; sleep 0.5        # a gap in it
# Zoom: wheel up around the centre of (5, 4). This winit reports an xdotool wheel click twice
# (its press and its release; a real wheel's notch once; fixed upstream in winit PR #4386),
# so two clicks are four notches of ×1.25 (map_frame::ZOOM_STEP), cells 43 → 105 pixels. The
# cell under the cursor stays (5, 4); 100 pixels right is then (6, 4) at any zoom from ×1.4 up
# (two notches or four), where the fitted view had (7, 4).
move 5 4
for _ in 1 2; do xdotool click 4; sleep 0.2; done
sleep 0.3
xdotool click 2; sleep 0.3                    # a wall at (5, 4)
xdotool mousemove_relative 100 0; sleep 0.2
xdotool click 2; sleep 1.2                    # a wall at (6, 4)
import -window root "$shot"
xdotool key --window "$win" Escape
for _ in $(seq 100); do kill -0 "$game_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$game_pid" 2>/dev/null; then cat "$work/game.log"; echo "e2e: Esc did not quit"; exit 1; fi
wait "$game_pid" || { cat "$work/game.log"; echo "e2e: the game failed"; exit 1; }
game_pid=""
echo "e2e: screenshot $shot"

[ -s "$record" ] || { cat "$work/game.log"; echo "e2e: no recording at $record"; exit 1; }
"$cli" simulate "$record" >"$work/replay.jsonl"
checks clicks "$record" "$work/replay.jsonl"

# Quits with Esc, checks the game ended cleanly, and replays its recording to the tick and
# cells it printed: check_replay LOG RECORD OUT [--trace].
quit_and_replay() {
    local log=$1 rec=$2 out=$3 trace=${4:-}
    xdotool windowfocus "$win" 2>/dev/null || true
    # The first Esc may only cancel a start placed by a click; the second quits.
    for press in 1 2; do
        xdotool key --window "$win" Escape 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$game_pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$game_pid" 2>/dev/null || break
    done
    if kill -0 "$game_pid" 2>/dev/null; then tail -40 "$log"; echo "e2e: Esc did not quit"; exit 1; fi
    wait "$game_pid" || { cat "$log"; echo "e2e: the game failed"; exit 1; }
    game_pid=""
    line=$(grep -a '^recorded: tick ' "$log" | tail -n 1)
    [ -n "$line" ] || { cat "$log"; echo "e2e: no 'recorded:' line"; exit 1; }
    ticks=$(echo "$line" | sed -E 's/^recorded: tick ([0-9]+) .*/\1/')
    "$cli" simulate "$rec" --ticks "$ticks" $trace >"$out"
    checks replay-ends "$out" "$line"
}

# 2. The default start, untouched: a world that stays alive.
idle_record="$work/idle.ron"
idle_secs="${E2E_IDLE_SECS:-45}"
launch "$work/idle.log" --record "$idle_record"
echo "e2e: default start, no input for ${idle_secs}s"
sleep "$idle_secs"
alive "$work/idle.log" "while idle"
import -window root "$work/idle.png"
quit_and_replay "$work/idle.log" "$idle_record" "$work/idle.jsonl" --trace || exit 1
checks idle "$idle_record" "$work/idle.jsonl" "$line"

# 3. The Explore preset: unknown terrain with sensor range 3, about 30 s, one agent selected
#    (Tab) so its sensor square shows. The replay must show discoveries after tick 0 and
#    agents still walking at the end.
explore_record="$work/explore.ron"
explore_secs="${E2E_EXPLORE_SECS:-30}"
launch "$work/explore.log" --preset explore --record "$explore_record"
echo "e2e: explore preset, ${explore_secs}s"
sleep 3
xdotool windowfocus "$win" 2>/dev/null || true
xdotool key --window "$win" Tab
sleep "$explore_secs"
alive "$work/explore.log" exploring
import -window root "${E2E_FOG_SCREENSHOT:-$work/explore.png}"
quit_and_replay "$work/explore.log" "$explore_record" "$work/explore.jsonl" || exit 1
checks explore "$explore_record" "$work/explore.jsonl"

# 4. The soak: 1,000 agents and about a minute of random real clicks, drags, wheel and keys.
soak_record="$work/soak.ron"
soak_secs="${E2E_SOAK_SECS:-60}"
launch "$work/soak.log" --seed 3 --agents 1000 --record "$soak_record"
sleep 3
xdotool windowfocus "$win" 2>/dev/null || true
echo "e2e: soak, ${soak_secs}s of random input with 1,000 agents"
checks soak-actions "$soak_secs" >"$work/soak.actions"
start=$(date +%s)
while read -r what a b c d e; do
    alive "$work/soak.log" "in the soak"
    case $what in
        click) xdotool mousemove --window "$win" "$b" "$c" click "$a" ;;
        wheel) xdotool mousemove --window "$win" "$b" "$c" click "$a" ;;
        drag)
            xdotool mousemove --window "$win" "$b" "$c" mousedown "$a"
            xdotool mousemove --window "$win" $(( (b + d) / 2 )) $(( (c + e) / 2 ))
            xdotool mousemove --window "$win" "$d" "$e" mouseup "$a"
            ;;
        key) xdotool key --window "$win" "$a" ;;
    esac
    sleep 0.1
    [ $(( $(date +%s) - start )) -ge "$soak_secs" ] && break
done <"$work/soak.actions"
alive "$work/soak.log" "in the soak"
import -window root "$work/soak.png"
quit_and_replay "$work/soak.log" "$soak_record" "$work/soak.jsonl" || exit 1

# 5. A big world: 5,000 agents on a 512×512 Moving AI map, each wanderer with goals of its
#    own (--destinations 0, the hardest case). Planning under the game's
#    per-tick budget must not hold back the first frames: a few seconds after the window
#    opens the map is drawn (not black), the process is far from the machine's memory, and
#    the replay of what ran so far (budget included) ends where the game did.
big_record="$work/big.ron"
big_status="$work/big-status.json"
GRIDWALK_STATUS="$big_status" launch "$work/big.log" --map crates/gridwalk-core/tests/data/movingai/64room_000.map \
    --agents 5000 --destinations 0 --record "$big_record"
sleep "${E2E_BIG_SECS:-5}"
alive "$work/big.log" "on the big map"
import -window "$win" "$work/big.png"
# The map's rectangle on the window, as the status says: black until a frame is drawn.
crop=$(checks map-crop "$big_status" 1400 900) || { echo "$crop"; cat "$work/big.log"; exit 1; }
mean=$(convert "$work/big.png" -crop "$crop" -colorspace gray -format '%[fx:mean]' info:)
rss_mb=$(( $(awk '/VmRSS/ {print $2}' "/proc/$game_pid/status") / 1024 ))
echo "e2e: big world: the map's ($crop) mean grey $mean, resident memory $rss_mb MB"
checks drawn "$mean" >/dev/null ||
    { echo "e2e: the 5,000-agent 512×512 window is still black (mean grey $mean; $work/big.png)"; exit 1; }
[ "$rss_mb" -lt 3072 ] || { echo "e2e: the big world holds $rss_mb MB (more than 3 GB)"; exit 1; }
quit_and_replay "$work/big.log" "$big_record" "$work/big.jsonl" || exit 1

# 6. The Crowd preset, untouched for about 40 s: the replay shows no two agents on one cell
#    and no swap on any tick, arrivals in every 100 ticks (a crowd that flows), and no agent
#    stuck at its end.
crowd_record="$work/crowd.ron"
crowd_secs="${E2E_CROWD_SECS:-40}"
launch "$work/crowd.log" --preset crowd --record "$crowd_record"
echo "e2e: crowd preset, ${crowd_secs}s"
sleep "$crowd_secs"
alive "$work/crowd.log" "in the crowd"
import -window root "$work/crowd.png"
quit_and_replay "$work/crowd.log" "$crowd_record" "$work/crowd.jsonl" || exit 1
checks crowd "$crowd_record" "$work/crowd.jsonl"

# 7. The plugin's minimal example, built by the test command above with the game's Bevy. Its
#    window is 1280×720 and its camera centred on the 32×20 map of 30-pixel cells, so the
#    centre of cell (x, y) is at (640 + 30 (x - 16) + 15, 360 + 30 (y - 10) + 15). The click
#    walls (24, 0), a corner of the top row that no agent stands on (they walk from the left
#    columns to the right ones, below it), so the edit is never refused: at (895, 75).
"$target/release/examples/minimal" >"$work/example.log" 2>&1 &
game_pid=$!
example_win=""
for _ in $(seq 300); do
    alive "$work/example.log" "opening the example"
    # Bevy's default title, the program's name: the example sets none.
    example_win=$(xdotool search --onlyvisible --name '^minimal' 2>/dev/null | head -n 1 || true)
    [ -n "$example_win" ] && break
    sleep 0.2
done
[ -n "$example_win" ] || { cat "$work/example.log"; echo "e2e: no example window"; exit 1; }
sleep 4
grey() { convert "$1" -crop 14x14+888+68 -colorspace gray -format '%[fx:mean]' info:; }
import -window "$example_win" "$work/example-before.png"
xdotool windowfocus "$example_win" 2>/dev/null || true
xdotool mousemove --window "$example_win" 895 75; sleep 0.3
xdotool click 1; sleep 2
alive "$work/example.log" "after the click"
import -window "$example_win" "${E2E_EXAMPLE_SCREENSHOT:-$work/example.png}"
checks example-wall "$(grey "$work/example-before.png")" "$(grey "${E2E_EXAMPLE_SCREENSHOT:-$work/example.png}")"
kill "$game_pid"; wait "$game_pid" 2>/dev/null || true
game_pid=""

# 8. A dense one-shot crowd, where the step rule alone leaves agents stuck for ever and the
#    real-time search takes over: the game plays until its status says every agent stands on
#    its goal (at most $E2E_DENSE_SECS), then the screenshot is sampled inside the listed
#    agents' cells (an agent's disc has colour; ground and walls have little) and the replay
#    checked.
dense_map=crates/gridwalk-core/tests/data/mapf/random-32-32-20.map
dense_scen="$work/dense.ron"
checks dense-scenario "$dense_map" "${dense_map%.map}-random-1.scen" 400 "$dense_scen"
dense_record="$work/dense-session.ron"
dense_status="$work/dense-status.json"
dense_shot="${E2E_DENSE_SCREENSHOT:-$work/dense.png}"
GRIDWALK_STATUS="$dense_status" launch "$work/dense.log" --map "$dense_scen" --record "$dense_record"
echo "e2e: dense one-shot crowd of 400 agents, until every one arrives"
arrived_at=$(checks dense-wait "$dense_status" "${E2E_DENSE_SECS:-120}") ||
    { echo "$arrived_at"; tail -20 "$work/dense.log"; exit 1; }
sleep 1
alive "$work/dense.log" "in the dense crowd"
import -window "$win" "$dense_shot"
sats=""
for p in $(checks dense-points "$dense_status"); do
    x=${p%,*} y=${p#*,}
    sats="$sats $(convert "$dense_shot" -crop "3x3+$((x - 1))+$((y - 1))" -colorspace HSB \
        -channel G -separate -format '%[fx:mean]' info:)"
done
checks dense-shot "$dense_status" "$sats"
echo "e2e: dense: every agent stood on its goal at the game's tick $arrived_at"
quit_and_replay "$work/dense.log" "$dense_record" "$work/dense.jsonl" || exit 1
checks dense "$dense_record" "$work/dense.jsonl"

# 9. A LoRR problem played live: robots that turn, a wall dragged through them, the hands
#    drawn where they face, tasks that keep being finished, and a replay to the same count.
lorr_record="$work/lorr.ron"
lorr_status="$work/lorr-status.json"
lorr_shot="${E2E_LORR_SCREENSHOT:-$work/lorr.png}"
status="$lorr_status"
GRIDWALK_STATUS="$lorr_status" launch "$work/lorr.log" --lorr maps/lorr/random_400.json --record "$lorr_record"
echo "e2e: LoRR random-32-32-20, 400 robots"
sleep "${E2E_LORR_SECS:-10}"
alive "$work/lorr.log" "playing the LoRR problem"
tasks_before=$(checks lorr-tasks "$lorr_status") || { echo "$tasks_before"; exit 1; }
xdotool windowfocus "$win" 2>/dev/null || true
move 2 16; xdotool mousedown 2               # a wall across the map's middle row, dragged
for x in 8 14 20 26 30; do move "$x" 16; done
xdotool mouseup 2
sleep "${E2E_LORR_SECS:-10}"
alive "$work/lorr.log" "after the wall"
xdotool key --window "$win" space             # paused: every disc stands on its cell
xdotool key --window "$win" p; sleep 1.5      # the paths hidden, so the hands show
tasks_after=$(checks lorr-tasks "$lorr_status") || { echo "$tasks_after"; exit 1; }
[ "$tasks_after" -gt "$tasks_before" ] ||
    { echo "e2e: lorr: tasks finished did not grow after the wall ($tasks_before, then $tasks_after)"; exit 1; }
import -window "$win" "$lorr_shot"
lights=""
for p in $(checks lorr-points "$lorr_status"); do
    x=${p%,*} y=${p#*,}
    lights="$lights $(convert "$lorr_shot" -crop "1x1+$x+$y" -colorspace gray \
        -format '%[fx:mean]' info:)"
done
checks lorr-shot "$lorr_status" "$lights"
echo "e2e: lorr: $tasks_before tasks before the wall, $tasks_after when paused"
quit_and_replay "$work/lorr.log" "$lorr_record" "$work/lorr.jsonl" || exit 1
checks lorr "$lorr_record" "$work/lorr.jsonl" "$tasks_after" 0

echo "e2e: passed"
