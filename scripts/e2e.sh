#!/usr/bin/env bash
# End-to-end check of the real game: the release binary under Xvfb, driven by xdotool.
#
# 1. Installs what is missing (xvfb, mesa-vulkan-drivers, xdotool, imagemagick, python3).
# 2. Starts `gridwalk --record` on an open random map with no agents.
# 3. Clicks a start and a goal, middle-drags a wall across the agent's way, right-clicks a
#    hole into it, takes a screenshot, and quits with Esc.
# 4. Checks that the recording holds the agent and the edits, and that
#    `gridwalk-cli simulate` replays it: no edit refused, and at the game's last tick every
#    agent stands where the game had it.
#
# Environment: CARGO_TARGET_DIR (default target), E2E_OUT (default a temporary folder; the
# screenshot, recording and logs stay there).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "e2e: $*" >&2; }
fail() {
    log "FAILED: $*"
    exit 1
}

# --- tools -------------------------------------------------------------------------------
missing=()
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xdotool >/dev/null || missing+=(xdotool)
command -v import >/dev/null || missing+=(imagemagick)
command -v python3 >/dev/null || missing+=(python3)
ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || missing+=(mesa-vulkan-drivers)
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- binaries ----------------------------------------------------------------------------
TARGET="${CARGO_TARGET_DIR:-target}"
cargo build --release -p gridwalk --bin gridwalk
cargo build --release -p gridwalk-core --bin gridwalk-cli
GAME="$TARGET/release/gridwalk"
CLI="$TARGET/release/gridwalk-cli"

OUT="${E2E_OUT:-$(mktemp -d -t gridwalk-e2e.XXXXXX)}"
mkdir -p "$OUT"
REC="$OUT/session.ron"
rm -f "$REC"
log "output in $OUT"

# --- X server and game -------------------------------------------------------------------
disp=""
for n in $(seq 90 130); do
    if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then
        disp=":$n"
        break
    fi
done
[ -n "$disp" ] || fail "no free X display"
Xvfb "$disp" -screen 0 1600x1000x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
GAME_PID=""
cleanup() {
    [ -n "$GAME_PID" ] && kill "$GAME_PID" 2>/dev/null || true
    kill "$XVFB_PID" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY="$disp"
for _ in $(seq 50); do
    xdpyinfo >/dev/null 2>&1 && break
    sleep 0.2
done 2>/dev/null || true

# An open 110×100 map and no agents, so every click lands on plain ground.
"$GAME" --seed 1 --density 0 --agents 0 --record "$REC" >"$OUT/game.log" 2>&1 &
GAME_PID=$!

WID=""
for _ in $(seq 240); do
    kill -0 "$GAME_PID" 2>/dev/null || fail "the game exited early: $(tail -5 "$OUT/game.log")"
    WID=$(xdotool search --onlyvisible --name '^gridwalk' 2>/dev/null | head -1 || true)
    [ -n "$WID" ] && break
    sleep 0.5
done
[ -n "$WID" ] || fail "no game window after 2 minutes"
# Software rendering compiles its pipelines during the first frames; let them pass.
sleep 8
eval "$(xdotool getwindowgeometry --shell "$WID")"
log "window $WID is ${WIDTH}x${HEIGHT}"

# Tile (x, y) → window pixel, mirroring gridwalk::view::fit: the 110×100 map fitted beside
# the 330 px panel with a 4 % margin, one world unit per tile, row 0 at the top.
px() {
    python3 - "$WIDTH" "$HEIGHT" "$1" "$2" <<'EOF'
import sys
W, H, x, y = (float(a) for a in sys.argv[1:])
mw, mh, panel = 110.0, 100.0, 330.0
scale = max(mw / max(W - panel, 1.0), mh / max(H, 1.0)) * 1.04
cam_x = -panel / 2.0 * scale
wx, wy = x + 0.5 - mw / 2.0, mh / 2.0 - y - 0.5
print(round(W / 2.0 + (wx - cam_x) / scale), round(H / 2.0 - wy / scale))
EOF
}
move_to() {
    read -r sx sy < <(px "$1" "$2")
    xdotool mousemove --window "$WID" "$sx" "$sy"
    sleep 0.25
}

# Keys go to the focused window; with no window manager, focus it by hand.
key() {
    xdotool windowfocus --sync "$WID" 2>/dev/null || true
    xdotool key "$1"
    sleep 0.4
}

log "left click: start (10, 50), goal (100, 50)"
move_to 10 50
xdotool click 1
sleep 0.6
move_to 100 50
xdotool click 1
# Let the agent walk a few cells, then pause so the edits land ahead of it whatever the
# frame rate: they apply together at the first tick after Space resumes.
sleep 1.5
key space

log "middle drag: a wall from (60, 25) to (60, 75)"
move_to 60 25
xdotool mousedown 2
sleep 0.3
for y in 30 38 45 52 60 68 75; do
    move_to 60 "$y"
    sleep 0.15
done
sleep 0.3
xdotool mouseup 2
sleep 0.5

log "right click: a hole at (60, 50)"
move_to 60 50
xdotool click 3
sleep 0.5
key space
sleep 2.5

import -window root "$OUT/e2e.png"
log "screenshot $OUT/e2e.png"

log "Esc quits"
move_to 30 90
key Escape
for i in $(seq 60); do
    kill -0 "$GAME_PID" 2>/dev/null || break
    # A refused click may have left a start pending: the first Esc cancels it.
    [ "$i" = 20 ] && key Escape
    sleep 0.5
done
if kill -0 "$GAME_PID" 2>/dev/null; then
    fail "the game did not quit on Esc"
fi
status=0
wait "$GAME_PID" || status=$?
GAME_PID=""
[ "$status" = 0 ] || fail "the game exited with status $status: $(tail -5 "$OUT/game.log")"

# --- the recording -----------------------------------------------------------------------
[ -s "$REC" ] || fail "no recording at $REC"
grep -q 'start: (10, 50), goal: (100, 50)' "$REC" || fail "the agent is not in the recording"
grep -q 'set: Wall' "$REC" || fail "the wall stroke is not in the recording"
grep -q 'set: Free' "$REC" || fail "the right click is not in the recording"

final=$(sed 's/\x1b\[[0-9;]*m//g' "$OUT/game.log" | grep -o 'recorded: tick [0-9]* agents .*' | tail -1)
[ -n "$final" ] || fail "the game did not report its last tick"
tick=$(echo "$final" | sed 's/recorded: tick \([0-9]*\) .*/\1/')
log "game ended at tick $tick: ${final#*agents }"

"$CLI" simulate "$REC" --ticks "$tick" >"$OUT/replay.jsonl" 2>"$OUT/replay.err" ||
    fail "gridwalk-cli simulate failed: $(cat "$OUT/replay.err")"
python3 - "$OUT/replay.jsonl" "$final" <<'EOF' || fail "the replay differs from the game"
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
want = json.loads(re.sub(r"^recorded: tick \d+ agents ", "", sys.argv[2]))
refused = [(l["tick"], l["refused"]) for l in lines if l["refused"]]
assert not refused, f"edits refused in the replay: {refused}"
last = lines[-1]
got = [a["pos"] for a in last["agents"]]
assert got == want, f"tick {last['tick']}: replay {got}, game {want}"
assert len(got) >= 1, "no agent in the replay"
print(f"e2e: replay matches the game at tick {last['tick']}: {got}", file=sys.stderr)
EOF
if [ -s "$OUT/replay.err" ]; then log "simulate said: $(cat "$OUT/replay.err")"; fi
log "OK"
