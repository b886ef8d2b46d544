"""The checks of scripts/e2e.sh, one subcommand each; every failure prints `e2e: ...` and exits 1.

usage: python3 scripts/e2e_checks.py COMMAND ARGS...

  target-dir                     cargo's target directory (reads `cargo metadata` on stdin)
  cell STATUS X Y                the window pixel of cell (X, Y)'s centre, from the status the
                                 game writes to STATUS (GRIDWALK_STATUS; see src/platform)
  map-crop STATUS W H            the map's rectangle on the W×H window, as ImageMagick's
                                 WxH+X+Y geometry (a few pixels in from its edges)
  clicks RECORD REPLAY           1: the recording of the clicks and drags, and its replay
  replay-ends REPLAY LINE        the replay ends on the cells of the game's `recorded:` line
  idle RECORD REPLAY LINE        2: the default start, untouched, stays alive
  explore RECORD REPLAY          3: the Explore preset discovers walls
  soak-actions SECS              4: the soak's random input, one action a line
  drawn MEAN                     5: the big world's map is drawn (its mean grey above 0.1)
  crowd RECORD REPLAY            6: the Crowd preset: crowd mode recorded, no two agents on
                                 one cell and no swap on any tick, arrivals in every 100 ticks,
                                 no agent stuck at the end
  dense-scenario MAP SCEN N OUT  8: writes OUT, a one-shot crowd scenario: the first N agents
                                 of a MAPF benchmark .scen on its .map, 4 moves, crowd mode
  dense-wait STATUS SECS         8: waits (at most SECS) until every agent of the game stands
                                 on its goal (the status's `arrived`); prints the tick
  dense-points STATUS            8: a window pixel inside each listed agent's cell, X,Y each
  dense-shot STATUS SATURATIONS  8: the screenshot shows an agent (colour) on each listed cell
  dense RECORD REPLAY            8: the dense crowd: one a cell, no swap, every agent on its
                                 goal and none stuck at the end, the real-time search engaged
  lorr-tasks STATUS              9: the tasks the LoRR robots finished, as the status says
  lorr-points STATUS             9: per listed robot, the window pixel on its disc's hand and
                                 the one opposite it, X,Y X,Y each line
  lorr-shot STATUS BRIGHTNESSES  9: the screenshot shows each listed robot's hand where it
                                 faces: dark on the hand, lighter opposite it
  lorr RECORD REPLAY TASKS WALLS 9: the LoRR robots: rotation recorded, one action each a tick
                                 (a cell ahead, a quarter turn, or a wait), one a cell, no
                                 swap, the walls drawn, and the replay's tasks finished the
                                 game's TASKS
"""

import json
import random
import re
import sys
import time


def fail(msg, record=None):
    print("e2e:", msg)
    if record is not None:
        print(record)
    sys.exit(1)


def jsonl(path):
    return [json.loads(line) for line in open(path)]


def printed_cells(line):
    """The agents' cells the game printed on exit: `recorded: tick N ... agents [[x, y], ...]`."""
    return json.loads(line.split(" agents ", 1)[1])


def status(path, timeout=30.0):
    """The game's latest status, once it has written one with the map on screen."""
    end = time.time() + timeout
    while True:
        try:
            s = json.load(open(path))
            if s["view"]["dx"] > 0 and s["view"]["dy"] > 0:
                return s
        except (OSError, ValueError, KeyError):
            pass
        if time.time() > end:
            fail(f"no status from the game in {path} after {timeout:.0f} s")
        time.sleep(0.1)


def cell(path, x, y):
    v = status(path)["view"]
    print(round(v["x0"] + int(x) * v["dx"]), round(v["y0"] + int(y) * v["dy"]))


def map_crop(path, win_w, win_h, inset=4):
    s = status(path)
    v = s["view"]
    left = max(v["x0"] - v["dx"] / 2, 0) + inset
    top = max(v["y0"] - v["dy"] / 2, 0) + inset
    right = min(v["x0"] + (s["width"] - 0.5) * v["dx"], int(win_w)) - inset
    bottom = min(v["y0"] + (s["height"] - 0.5) * v["dy"], int(win_h)) - inset
    if right - left < 100 or bottom - top < 100:
        fail(f"the map covers only ({left:.0f}, {top:.0f})-({right:.0f}, {bottom:.0f}) of the window: {v}")
    print(f"{int(right - left)}x{int(bottom - top)}+{int(left)}+{int(top)}")


def cells_of(edits):
    return {tuple(map(int, c)) for e in edits for c in re.findall(r"\((\d+),\s*(\d+)\)", e)}


def clicks(record_path, replay_path):
    record, replay = open(record_path).read(), jsonl(replay_path)
    agents = re.findall(r"start:\s*\((\d+),\s*(\d+)\),\s*goal:\s*\((\d+),\s*(\d+)\)", record)
    if [tuple(map(int, a)) for a in agents] != [(1, 10, 18, 10)]:
        fail(f"expected one agent from (1, 10) to (18, 10), found {agents}", record)
    walled = cells_of(re.findall(r"set:\s*Wall,\s*cells:\s*\[([^\]]*)\]", record))
    column = {(14, y) for y in range(1, 19)}
    if not column <= walled:
        fail(f"the drag left gaps: missing {sorted(column - walled)}", record)
    # The zoomed clicks: exactly (5, 4) and (6, 4) besides the column (see the wheel step).
    if walled - column != {(5, 4), (6, 4)}:
        fail(f"the clicks after zooming walled {sorted(walled - column)}, expected [(5, 4), (6, 4)]", record)
    if (14, 10) not in cells_of(re.findall(r"set:\s*Free,\s*cells:\s*\[([^\]]*)\]", record)):
        fail("the right click did not remove the wall at (14, 10)", record)
    last = replay[-1]["agents"]
    if len(last) != 1 or last[0]["status"] != "arrived" or last[0]["pos"] != [18, 10]:
        fail(f"the replay did not bring the agent home: {last}", record)
    print(f"e2e: recording holds the agent and {len(walled)} walls; replay arrives after {replay[-1]['tick']} ticks")


def replay_ends(replay_path, line):
    last = jsonl(replay_path)[-1]
    printed = printed_cells(line)
    cells = [a["pos"] for a in last["agents"]]
    if cells != printed:
        fail(f"the replay ends at {cells[:10]}..., the game printed {printed[:10]}...")
    print(f"e2e: the replay of {len(cells)} agents ends at tick {last['tick']} where the game did")


def idle(record_path, replay_path, line):
    record, replay = open(record_path).read(), jsonl(replay_path)
    tail = record[-2000:]
    if re.search(r"^\s*edits:", record, re.M):
        fail("nobody clicked, yet the recording holds edits", tail)
    if "dynamic:" not in record or "Wander" not in record:
        fail("the default start should record wander agents and the dynamic world", tail)
    # About 450 ticks at 10 ticks/s; a loaded machine gives fewer. The checks below need a
    # living world, not a speed: 100 ticks is what they need, whatever the machine.
    if len(replay) < 100:
        fail(f"only {len(replay)} ticks in {line!r}: expected about 45 s at 10 ticks/s", tail)
    first = {a["id"]: a["goal"] for a in replay[0]["agents"]}
    changed = {a["id"] for l in replay for a in l["agents"] if a["goal"] != first.get(a["id"])}
    if len(changed) < 3:
        fail(f"only {len(changed)} agents got a new goal", tail)
    raised = sum(1 for l in replay for t in l.get("trace", []) for e in t["events"] if e[2] == "raise")
    if raised == 0:
        fail("no cell was ever raised: no wall dropped on a path", tail)
    last = replay[-1]["agents"]
    if not any(a["status"] == "walking" for a in last):
        fail("nobody walks at the end", tail)
    cells = [a["pos"] for a in last]
    printed = printed_cells(line)
    if cells != printed:
        fail(f"the replay ends at {cells}, the game printed {printed}", tail)
    print(f"e2e: {len(replay) - 1} idle ticks: {len(changed)} agents got new goals, {raised} cells raised by dropped walls, the replay ends where the game did")


def explore(record_path, replay_path):
    record, replay = open(record_path).read(), jsonl(replay_path)
    tail = record[-2000:]
    if not re.search(r"range:\s*3\b|sensor_range:\s*3\b", record):
        fail("the explore preset should record sensor range 3", tail)
    if len(replay) < 50:
        fail(f"only {len(replay)} ticks: expected about 30 s at 10 ticks/s", tail)
    later = [l for l in replay[1:] if l.get("discovered")]
    walls = sum(1 for l in later for c in l["discovered"] if c[2] == "wall")
    if not later or walls == 0:
        fail("no wall discovered after tick 0", tail)
    if not any(a["status"] == "walking" for a in replay[-1]["agents"]):
        fail("nobody walks at the end", tail)
    print(f"e2e: explore: {len(replay) - 1} ticks, {len(later)} ticks discovered {walls} wall cells, agents still walking")


def soak_actions(secs):
    """Keys a player uses, but not Esc (quit) nor R (a new map, which starts a new recording
    segment: the replay check wants a long one), and X (remove every agent) rarely. Clicks,
    drags and the wheel land anywhere right of the panel."""
    rnd = random.Random(20261122)
    keys = ["space", "n", "plus", "minus", "0", "w", "2", "5", "9", "c", "a", "Tab", "e", "h",
            "g", "p", "i", "d", "Left", "Right"]
    t = 0.0
    while t < float(secs):
        r = rnd.random()
        x, y = rnd.randint(345, 1390), rnd.randint(10, 890)
        if r < 0.35:
            print(f"click {rnd.choice([1, 1, 2, 3])} {x} {y}")
        elif r < 0.6:
            x2, y2 = rnd.randint(345, 1390), rnd.randint(10, 890)
            print(f"drag {rnd.choice([2, 3])} {x} {y} {x2} {y2}")
        elif r < 0.7:
            print(f"wheel {rnd.choice([4, 5])} {x} {y}")
        elif r < 0.995:
            print(f"key {rnd.choice(keys)}")
        else:
            print("key x")
        t += 0.12


def drawn(mean):
    if float(mean) <= 0.1:
        fail(f"the map is still black (mean grey {mean})")


def one_a_cell(ticks):
    """Fails on a tick where two agents share a cell or two agents swap cells."""
    before = {}
    for t in ticks:
        now = {a["id"]: tuple(a["pos"]) for a in t["agents"]}
        held = {}
        for i, p in now.items():
            if p in held:
                fail(f"tick {t['tick']}: agents {held[p]} and {i} share cell {list(p)}")
            held[p] = i
        was = {p: i for i, p in before.items()}
        for i, p in now.items():
            j = was.get(p)
            if j is not None and j != i and i in before and now.get(j) == before[i]:
                fail(f"tick {t['tick']}: agents {i} and {j} swapped cells")
        before = now


def crowd(record_path, replay_path, window=100):
    if not re.search(r"^\s*crowd: true,", open(record_path).read(), re.M):
        fail("the Crowd preset's recording does not say crowd: true")
    ticks = jsonl(replay_path)
    if len(ticks) <= window:
        fail(f"the Crowd preset played only {len(ticks)} ticks (want more than {window})")
    one_a_cell(ticks)
    arrivals = [t["crowd"]["arrivals"] for t in ticks[1:]]
    for w in range(0, len(arrivals) - window + 1, window):
        if sum(arrivals[w : w + window]) == 0:
            fail(f"no arrival in ticks {w + 1}-{w + window}: the crowd is gridlocked")
    stuck = ticks[-1]["crowd"]["stuck"]
    if stuck != 0:
        fail(f"{stuck} agents of the Crowd preset are stuck at tick {ticks[-1]['tick']}")
    total = ticks[-1]["crowd"]["arrivals_total"]
    print(f"e2e: crowd: {len(ticks)} ticks, {len(ticks[-1]['agents'])} agents, "
          f"no shared cell or swap, {total} arrivals, 0 stuck at the end")


def dense_scenario(map_path, scen_path, n, out):
    """The Moving AI map's rows (`#` for anything not passable) and the .scen's first N
    rows' starts and goals (column 4, 5 and 6, 7), as a crowd-mode scenario with 4 moves."""
    lines = open(map_path).read().splitlines()
    height = int(lines[1].split()[1])
    rows = ["".join("." if c in ".GS" else "#" for c in r) for r in lines[4 : 4 + height]]
    agents = [l.split("\t") for l in open(scen_path).read().splitlines()[1:] if l.strip()]
    if len(agents) < int(n):
        fail(f"{scen_path} has {len(agents)} agents, not {n}")
    with open(out, "w") as f:
        f.write("(\n    rows: [\n")
        f.writelines(f'        "{r}",\n' for r in rows)
        f.write("    ],\n    connectivity: Four,\n    crowd: true,\n    agents: [\n")
        for a in agents[: int(n)]:
            f.write(f"        (start: ({a[4]}, {a[5]}), goal: ({a[6]}, {a[7]})),\n")
        f.write("    ],\n)\n")


def arrived_all(tick):
    return all(a["pos"] == a["goal"] for a in tick["agents"])


def dense_wait(path, secs):
    """Waits until every agent of the game stands arrived on its goal; prints the tick."""
    end = time.time() + float(secs)
    while True:
        s = status(path)
        if s["agents"] > 0 and s["arrived"] == s["agents"]:
            print(s["tick"])
            return
        if time.time() > end:
            fail(f"after {secs} s (tick {s['tick']}), {s['arrived']} of the dense crowd's "
                 f"{s['agents']} agents stand on their goal")
        time.sleep(0.5)


def dense_points(path):
    """A point of each listed agent's cell, a third of a cell right of and below its centre:
    on the ring an agent is drawn with, but inside the square and off the cross of a goal's
    marker, where the ground shows when no agent stands on the goal."""
    s = status(path)
    v = s["view"]
    for a in s["list"]:
        x, y = a["pos"]
        print(f"{round(v['x0'] + (x + 0.33) * v['dx'])},{round(v['y0'] + (y + 0.33) * v['dy'])}")


def dense_shot(path, saturations):
    """Each listed agent's cell, sampled on the screenshot, has colour (HSB saturation 0.6
    to 0.95 on an agent's ring); ground (about 0.07) and walls (about 0.3) have little."""
    sats = [float(x) for x in saturations.split()]
    listed = status(path)["list"]
    if len(sats) != len(listed) or not sats:
        fail(f"{len(sats)} samples for {len(listed)} listed agents")
    grey = [a["pos"] for a, s in zip(listed, sats) if s < 0.45]
    if grey:
        fail(f"no agent drawn on the cells {grey} of the dense crowd's screenshot: {sats}")
    print(f"e2e: dense: the screenshot shows an agent on each of the {len(sats)} listed goal "
          f"cells (saturation {min(sats):.2f} at least)")


def dense(record_path, replay_path):
    if not re.search(r"^\s*crowd: true,", open(record_path).read(), re.M):
        fail("the dense crowd's recording does not say crowd: true")
    ticks = jsonl(replay_path)
    one_a_cell(ticks)
    last = ticks[-1]
    if not arrived_all(last):
        off = [a["id"] for a in last["agents"] if a["pos"] != a["goal"]]
        fail(f"at tick {last['tick']}, {len(off)} agents of the dense crowd are off their goal: {off[:20]}")
    if last["crowd"]["stuck"] != 0:
        fail(f"{last['crowd']['stuck']} agents of the dense crowd are stuck at the end")
    searched = sum(1 for t in ticks if t["crowd"].get("searched"))
    if searched == 0:
        fail("the real-time search never moved the dense crowd: choose a denser instance")
    arrived = next(t["tick"] for t in ticks if arrived_all(t))
    print(f"e2e: dense: {len(last['agents'])} agents all on their goal from tick {arrived} "
          f"({searched} ticks moved by the real-time search), no shared cell or swap")


STEPS = {"east": (1, 0), "south": (0, 1), "west": (-1, 0), "north": (0, -1)}
TURNS = ["east", "south", "west", "north"]


def lorr_tasks(path):
    s = status(path)
    if "tasks" not in s:
        fail("the status has no `tasks`: the robots do not turn")
    print(s["tasks"])


def lorr_points(path):
    """A point on each listed robot's hand (0.3 of a cell from its disc's centre, where it
    faces, and 0.11 of a cell aside, off the cross of a goal's marker) and the point as
    far the other way, in window pixels."""
    s = status(path)
    v = s["view"]
    for a in s["list"]:
        x, y = a["pos"]
        dx, dy = STEPS[a["facing"]]
        side = lambda k: (x + k * dx + 0.11 * dy, y + k * dy + 0.11 * dx)
        at = lambda k: (round(v["x0"] + side(k)[0] * v["dx"]), round(v["y0"] + side(k)[1] * v["dy"]))
        (hx, hy), (ox, oy) = at(0.3), at(-0.3)
        print(f"{hx},{hy} {ox},{oy}")


def lorr_shot(path, brightnesses):
    """Hand and opposite brightness pairs, in the order of `lorr-points`: most robots show a
    dark hand (below 0.3) with a lighter side opposite it (at least 0.15 brighter)."""
    values = [float(b) for b in brightnesses.split()]
    listed = status(path)["list"]
    if len(values) != 2 * len(listed) or not listed:
        fail(f"{len(values)} samples for {len(listed)} listed robots")
    pairs = list(zip(values[0::2], values[1::2]))
    shown = sum(1 for h, o in pairs if h < 0.3 and o > h + 0.15)
    if shown * 4 < len(pairs) * 3:
        fail(f"only {shown} of {len(pairs)} listed robots show a hand where they face: {pairs}")
    print(f"e2e: lorr: {shown} of {len(pairs)} listed robots show their hand where they face")


def lorr(record_path, replay_path, tasks, walls_before):
    text = open(record_path).read()
    if not re.search(r"^\s*rotation: true,", text, re.M):
        fail("the LoRR recording does not say rotation: true")
    ticks = jsonl(replay_path)
    one_a_cell(ticks)
    for before, after in zip(ticks, ticks[1:]):
        was = {a["id"]: a for a in before["agents"]}
        for a in after["agents"]:
            b = was.get(a["id"])
            if b is None:
                continue
            turn = (TURNS.index(a["facing"]) - TURNS.index(b["facing"])) % 4
            dx, dy = STEPS[b["facing"]]
            ahead = [b["pos"][0] + dx, b["pos"][1] + dy]
            still = a["pos"] == b["pos"] and turn != 2
            if not (still or (a["pos"] == ahead and turn == 0)):
                fail(f"tick {after['tick']}: robot {a['id']} went from {b['pos']} {b['facing']} "
                     f"to {a['pos']} {a['facing']}: no single action")
    done = ticks[-1]["crowd"]["arrivals_total"]
    if done != int(tasks):
        fail(f"the replay finished {done} tasks, the game {tasks}")
    walls = len(re.findall(r"set: Wall", text))
    if walls == 0:
        fail(f"the recording holds no wall drawn through the warehouse ({walls_before} before)")
    print(f"e2e: lorr: {len(ticks[-1]['agents'])} robots, {done} tasks in {ticks[-1]['tick']} "
          f"ticks, replayed to the same count; one action a tick each, one a cell, no swap")


def example_wall(before, after):
    """The minimal example's clicked cell: ground (light) before the click, a wall (dark)
    after, and agents (colour) drawn on the map: mean greys and saturation from ImageMagick."""
    b, a = float(before), float(after)
    if b < 0.6:
        fail(f"the example's clicked cell was not light ground before the click (grey {b})")
    if a > 0.35:
        fail(f"the example's click added no wall: the cell is still light (grey {a})")
    print(f"e2e: example: the clicked cell went from grey {b:.2f} to {a:.2f}")


def target_dir():
    print(json.load(sys.stdin)["target_directory"])


COMMANDS = {
    "target-dir": target_dir,
    "cell": cell,
    "map-crop": map_crop,
    "clicks": clicks,
    "replay-ends": replay_ends,
    "idle": idle,
    "explore": explore,
    "soak-actions": soak_actions,
    "drawn": drawn,
    "crowd": crowd,
    "dense-scenario": dense_scenario,
    "dense-wait": dense_wait,
    "dense-points": dense_points,
    "dense-shot": dense_shot,
    "dense": dense,
    "example-wall": example_wall,
    "lorr-tasks": lorr_tasks,
    "lorr-points": lorr_points,
    "lorr-shot": lorr_shot,
    "lorr": lorr,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
