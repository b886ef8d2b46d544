"""The browser test's driver: headless Chromium through Selenium and chromedriver (Debian's
python3-selenium and chromium-driver, which scripts/web-e2e.sh installs), speaking the DevTools
protocol with `execute_cdp_cmd` and reading the console from chromedriver's browser log.

usage: web_e2e.py CHROMIUM CHROMEDRIVER URL SHOT_DIR [README_SHOT]

It reads the game's state from `window.gridwalkStatus` (published by src/platform every few
frames: the tick, the map's rows, where cells are on the page, the agents and their paths, the
notices), sends real input events (Input.dispatchMouseEvent / dispatchKeyEvent go through the
browser's input pipeline to the canvas, as a user's would), and checks:
1. the default start: the built-in default map, its agents, ticks advancing, a screenshot whose
   map (its rectangle on the page, from the status) is not blank (saved as README_SHOT when
   given);
2. on an empty random map: Space pauses and resumes the ticks; a left click then a second
   place an agent that walks; a middle-drag walls a column across its way and its path goes
   around it, as long as a Dijkstra of our own on the page's map says it should; a right click
   opens a gap without the browser's context menu; the wheel zooms without scrolling the page;
   wall and ground cells look different on a screenshot; the agent arrives;
3. throughout: no uncaught exception, no console error, no panic.
"""

import base64
import heapq
import json
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service


def fail(msg):
    print(f"web-e2e: FAIL: {msg}", flush=True)
    sys.exit(1)


def log(msg):
    print(f"web-e2e: {msg}", flush=True)


class DevTools:
    """The page's DevTools protocol through chromedriver: `call` sends a command and returns
    its answer; `console` returns what the page logged since the last call (console messages,
    uncaught exceptions, the browser's own errors), as chromedriver's browser log has it."""

    def __init__(self, driver):
        self.driver = driver

    def call(self, method, **params):
        return self.driver.execute_cdp_cmd(method, params)

    def evaluate(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def console(self):
        return self.driver.get_log("browser")


def optimal_cost(rows, start, goal):
    """Dijkstra on the page's map, our own: octile moves (1 and √2, times the entered cell's
    weight) with no corner cutting, as the core defines eight-connected moves."""
    h, w = len(rows), len(rows[0])

    def weight(x, y):
        c = rows[y][x]
        return None if c == "#" else (1 if c == "." else int(c))

    dist = {tuple(start): 0.0}
    heap = [(0.0, tuple(start))]
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) == tuple(goal):
            return d
        if d > dist[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx, dy) == (0, 0) or not (0 <= nx < w and 0 <= ny < h):
                    continue
                wt = weight(nx, ny)
                if wt is None:
                    continue
                if dx and dy and (weight(x + dx, y) is None or weight(x, y + dy) is None):
                    continue
                nd = d + wt * (2**0.5 if dx and dy else 1.0)
                if nd < dist.get((nx, ny), float("inf")) - 1e-9:
                    dist[(nx, ny)] = nd
                    heapq.heappush(heap, (nd, (nx, ny)))
    return None


def path_cost(rows, path):
    """The cost of `path` on the map, or why it is not a path."""
    cost = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        dx, dy = x1 - x0, y1 - y0
        if max(abs(dx), abs(dy)) != 1:
            return None, f"({x0}, {y0}) -> ({x1}, {y1}) is not a move"
        c = rows[y1][x1]
        if c == "#":
            return None, f"it enters the wall at ({x1}, {y1})"
        if dx and dy and (rows[y0][x1] == "#" or rows[y1][x0] == "#"):
            return None, f"it cuts a wall's corner from ({x0}, {y0}) to ({x1}, {y1})"
        cost += (1 if c == "." else int(c)) * (2**0.5 if dx and dy else 1.0)
    return cost, None


class Page:
    def __init__(self, dt):
        self.dt = dt
        self.problems = []

    def status(self):
        try:
            s = self.dt.evaluate("window.gridwalkStatus || null")
        except WebDriverException:
            # A page being replaced by a navigation has no context to evaluate in.
            return None
        return json.loads(s) if s else None

    def wait_status(self, what, ok, timeout=60):
        end = time.time() + timeout
        s = None
        while time.time() < end:
            self.check_console()
            s = self.status()
            if s is not None and ok(s):
                return s
            time.sleep(0.2)
        fail(f"timed out waiting for {what}; last status: {json.dumps(s)[:1500] if s else None}")

    def check_console(self):
        """Fails on an uncaught exception, a console error or a panic seen so far. chromedriver
        logs an uncaught exception (source `javascript`), console.error and console.assert
        (`console-api`) and the browser's own errors (`network`, ...) as SEVERE, console.warn
        as WARNING."""
        for e in self.dt.console():
            level, source, text = e["level"], e.get("source", "?"), e["message"]
            if level == "SEVERE" or "panicked" in text:
                self.problems.append(f"{source} {level.lower()}: {text}")
            elif level == "WARNING":
                log(f"console warning: {text[:300]}")
        if self.problems:
            fail("the page reported errors:\n  " + "\n  ".join(t[:2000] for t in self.problems))

    def cell(self, s, x, y):
        v = s["view"]
        return v["x0"] + x * v["dx"], v["y0"] + y * v["dy"]

    def map_rect(self, s):
        """The map's rectangle on the page, (left, top, right, bottom), from the status."""
        v = s["view"]
        return (
            v["x0"] - v["dx"] / 2,
            v["y0"] - v["dy"] / 2,
            v["x0"] + (s["width"] - 0.5) * v["dx"],
            v["y0"] + (s["height"] - 0.5) * v["dy"],
        )

    def mouse(self, kind, x, y, button="none", buttons=0):
        self.dt.call(
            "Input.dispatchMouseEvent",
            type=kind,
            x=x,
            y=y,
            button=button,
            buttons=buttons,
            clickCount=1 if kind != "mouseMoved" else 0,
        )

    def frames(self, n=2):
        """Waits for the game to publish its status `n` more times (5 frames each): under
        SwiftShader a frame can take longer than a hand's click, and a game reads the cursor
        once a frame, so each input step waits for frames as a user's hand would."""
        seen = self.status()["frame"]
        for _ in range(n):
            seen = self.wait_status("frames", lambda s, f=seen: s["frame"] > f, timeout=30)["frame"]

    def click(self, x, y, button="left"):
        mask = {"left": 1, "right": 2, "middle": 4}[button]
        self.mouse("mouseMoved", x, y)
        self.frames()
        self.mouse("mousePressed", x, y, button, mask)
        self.frames()
        self.mouse("mouseReleased", x, y, button, 0)
        self.frames()

    def key(self, key, code, vk):
        event = dict(key=key, code=code, windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk)
        for kind in ("keyDown", "keyUp"):
            self.dt.call("Input.dispatchKeyEvent", type=kind, **event)
            self.frames()

    def screenshot(self, path, rect=None, points=()):
        """Saves a screenshot of the page and reads it back: its size, the distinct colours
        inside `rect` (left, top, right, bottom; the whole page if None; sampled every 4
        pixels) and the commonest one's share, and the colour at each of `points`. The PNG is
        decoded by the browser, in a canvas of its own."""
        b64 = self.dt.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(b64))
        js = """(async (b64, rect, pts) => {
            const img = new Image();
            img.src = "data:image/png;base64," + b64;
            await img.decode();
            const c = new OffscreenCanvas(img.width, img.height);
            const g = c.getContext("2d");
            g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, img.width, img.height).data;
            const at = (x, y) => { const i = 4 * (y * img.width + x); return [d[i], d[i + 1], d[i + 2]]; };
            const counts = new Map();
            let total = 0;
            const [x0, y0, x1, y1] = rect || [0, 0, img.width, img.height];
            for (let y = Math.max(0, Math.ceil(y0)); y < Math.min(img.height, y1); y += 4)
                for (let x = Math.max(0, Math.ceil(x0)); x < Math.min(img.width, x1); x += 4) {
                    const k = at(x, y).join(",");
                    counts.set(k, (counts.get(k) || 0) + 1);
                    total++;
                }
            return JSON.stringify({w: img.width, h: img.height, colours: counts.size,
                common: Math.max(...counts.values()) / total,
                points: pts.map(([x, y]) => at(Math.round(x), Math.round(y)))});
        })"""
        r = self.dt.call(
            "Runtime.evaluate",
            expression=f"{js}({json.dumps(b64)}, {json.dumps(rect)}, {json.dumps(list(points))})",
            awaitPromise=True,
            returnByValue=True,
        )
        if "exceptionDetails" in r:
            fail(f"could not read the screenshot back: {r['exceptionDetails']}")
        return json.loads(r["result"]["value"])


def start_chromium(chromium, chromedriver):
    """Chromium as chromedriver starts it: headless, WebGL2 through SwiftShader, a 1400×900
    window, every console message kept in the browser log. Navigations do not wait for the
    page's load event: the test waits for the game's status instead."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--window-size=1400,900",
    ):
        options.add_argument(arg)
    options.page_load_strategy = "none"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(chromedriver), options=options)
    except WebDriverException as e:
        fail(f"chromedriver could not start chromium: {e.msg}")


def main():
    chromium, chromedriver, url, shots = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/"), sys.argv[4]
    readme_shot = sys.argv[5] if len(sys.argv) > 5 else None
    driver = start_chromium(chromium, chromedriver)
    try:
        run(Page(DevTools(driver)), url, shots, readme_shot)
    finally:
        driver.quit()


def run(page, url, shots, readme_shot):
    dt = page.dt
    dt.call("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)

    # 1. The default start, as on the desktop.
    t0 = time.time()
    dt.driver.get(f"{url}/")
    s = page.wait_status("the game to start", lambda s: s["tick"] > 0, timeout=240)
    log(f"the default start runs after {time.time() - t0:.1f} s: map {s['map']}, {s['agents']} agents, {s['width']}x{s['height']}, clock step {s['clock_step_us']} us")
    if s["map"] != "default.ron" or s["agents"] < 1:
        fail(f"expected the built-in default.ron with its agents, got {s['map']!r}, {s['agents']} agents")
    first = s
    time.sleep(8)
    s = page.wait_status("ticks", lambda s: s["tick"] >= first["tick"] + 10)
    walked = sum(1 for a, b in zip(first["list"], s["list"]) if a["pos"] != b["pos"])
    if walked == 0:
        fail("no agent of the default start moved in 8 s")
    rect = page.map_rect(s)
    shot = page.screenshot(os.path.join(shots, "web-default.png"), rect)
    w, h, colours, common = shot["w"], shot["h"], shot["colours"], shot["common"]
    area = "({:.0f}, {:.0f})-({:.0f}, {:.0f})".format(*rect)
    log(f"default start: tick {first['tick']} -> {s['tick']}, {walked} agents moved; screenshot {w}x{h}, {colours} colours in the map's rectangle {area}, the commonest covers {common:.0%}")
    if (w, h) != (1400, 900):
        fail(f"the screenshot is {w}x{h}, not the 1400x900 page")
    if colours < 6 or common > 0.97:
        fail("the map area looks blank")
    if readme_shot:
        os.replace(os.path.join(shots, "web-default.png"), readme_shot)
        log(f"README screenshot: {readme_shot}")
    page.check_console()

    # 2. An empty 110x100 map, no agents: the player's own.
    dt.driver.get(f"{url}/?seed=1&density=0&agents=0&on-arrival=stay")
    s = page.wait_status("the empty map", lambda s: s["map"].startswith("random") and s["tick"] > 2, timeout=240)
    if s["walls"] != 0 or s["agents"] != 0:
        fail(f"expected an empty map with no agents: {s['walls']} walls, {s['agents']} agents")
    page.mouse("mouseMoved", 700, 450)
    dt.evaluate("document.getElementById('gridwalk').focus()")
    # Space pauses: the tick stands still; Space again resumes.
    page.key(" ", "Space", 32)
    time.sleep(0.5)
    a = page.status()["tick"]
    time.sleep(1.5)
    b = page.status()["tick"]
    if b != a:
        fail(f"Space did not pause: tick {a} -> {b}")
    page.key(" ", "Space", 32)
    page.wait_status("ticks after resuming", lambda s: s["tick"] >= b + 5)
    log(f"Space paused at tick {a} and resumed")

    # One tick a second (five presses of -: 10, 7, 5, 3, 2, 1), so the agent is still on its
    # way to the wall when the test looks; the rate goes back up once it has looked.
    for _ in range(5):
        page.key("-", "Minus", 189)
    start, goal = (10, 50), (100, 50)
    page.click(*page.cell(s, *start))
    page.click(*page.cell(s, *goal))
    s = page.wait_status("the clicked agent", lambda s: s["agents"] == 1 and s["list"][0]["path"])
    agent = s["list"][0]
    if agent["goal"] != list(goal):
        fail(f"the clicks placed an agent going to {agent['goal']}, not {goal}")
    log(f"two left clicks placed agent {agent['id']} at {agent['pos']} going to {agent['goal']}")

    # A middle-drag walls a column across its way, from row 20 to row 80, while paused: the
    # agent walks faster than a drag under SwiftShader, so it would arrive first.
    page.key(" ", "Space", 32)
    page.frames()
    wall_x, top, bottom = 80, 20, 80
    page.mouse("mouseMoved", *page.cell(s, wall_x, top))
    page.mouse("mousePressed", *page.cell(s, wall_x, top), "middle", 4)
    page.frames()
    for y in range(top, bottom + 1, 6):
        page.mouse("mouseMoved", *page.cell(s, wall_x, y), "middle", 4)
        page.frames(1)
    page.mouse("mouseMoved", *page.cell(s, wall_x, bottom), "middle", 4)
    page.frames()
    page.mouse("mouseReleased", *page.cell(s, wall_x, bottom), "middle", 0)
    column = [(wall_x, y) for y in range(top, bottom + 1)]
    # Edits join the timeline at the next tick (replays stay exact), so the column lands once
    # the game resumes, before the agent's next move.
    page.key(" ", "Space", 32)
    s = page.wait_status("the walled column", lambda s: all(s["rows"][y][x] == "#" for x, y in column))
    s = page.wait_status("a path around the wall", lambda s: s["tick"] >= s["tick"] and s["list"][0]["path"] and not any(tuple(c) in column for c in s["list"][0]["path"]))
    agent = s["list"][0]
    if agent["status"] != "walking" or agent["pos"][0] >= wall_x:
        fail(f"the agent should walk towards the wall from its left: {agent}")
    cost, why = path_cost(s["rows"], agent["path"])
    if why:
        fail(f"the agent's path is not a path: {why}")
    if agent["path"][0] != agent["pos"] or agent["path"][-1] != list(goal):
        fail(f"the path runs from {agent['path'][0]} to {agent['path'][-1]}, not from the agent at {agent['pos']} to {goal}")
    best = optimal_cost(s["rows"], agent["pos"], goal)
    if best is None or abs(cost - best) > 1e-6:
        fail(f"the path costs {cost:.3f}, Dijkstra's shortest {best}")
    log(f"the middle-drag walled {len(column)} cells; the path goes around them: {len(agent['path'])} cells, cost {cost:.3f} = Dijkstra's")

    for _ in range(6):
        page.key("=", "Equal", 187)

    # Wall and ground look different on the page.
    shot = page.screenshot(
        os.path.join(shots, "web-walls.png"), points=[page.cell(s, wall_x, 35), page.cell(s, 40, 15)]
    )
    wall_px, ground_px = shot["points"]
    if wall_px == ground_px:
        fail(f"a wall cell and a ground cell look the same on the screenshot: {wall_px}")
    log(f"screenshot: wall pixel {wall_px}, ground pixel {ground_px}")

    # A right click on the wall opens a gap, and the browser keeps its context menu to itself.
    dt.evaluate("window.__ctx = []; window.addEventListener('contextmenu', e => window.__ctx.push(e.defaultPrevented));")
    gap = (wall_x, 22)
    page.click(*page.cell(s, *gap), button="right")
    s = page.wait_status("the gap", lambda s: s["rows"][gap[1]][gap[0]] == ".")
    ctx = dt.evaluate("window.__ctx")
    if not ctx or not all(ctx):
        fail(f"the right click's context menu was not prevented: {ctx}")
    log(f"a right click opened a gap at {gap}; context menu prevented: {ctx}")

    # The wheel zooms the map and does not scroll the page.
    dt.evaluate("window.__wheel = []; window.addEventListener('wheel', e => window.__wheel.push(e.defaultPrevented), {passive: true});")
    before = s["view"]["dx"]
    x, y = page.cell(s, 60, 50)
    dt.call("Input.dispatchMouseEvent", type="mouseWheel", x=x, y=y, deltaX=0, deltaY=-120)
    s = page.wait_status("the zoom", lambda s: s["view"]["dx"] > before * 1.1)
    wheel, scroll = dt.evaluate("window.__wheel"), dt.evaluate("[window.scrollX, window.scrollY]")
    if not wheel or not all(wheel) or scroll != [0, 0]:
        fail(f"the wheel scrolled the page or was not prevented: {wheel}, scroll {scroll}")
    log(f"the wheel zoomed the map ({before:.2f} -> {s['view']['dx']:.2f} px a cell), the page did not scroll")

    s = page.wait_status("the agent's arrival", lambda s: s["list"][0]["status"] == "arrived", timeout=60)
    if s["list"][0]["pos"] != list(goal):
        fail(f"the agent arrived at {s['list'][0]['pos']}, not {goal}")
    log(f"the agent arrived at {goal} at tick {s['tick']}")

    # Explain: Tab selects the agent, E replays its last repair, → steps it.
    page.key("Tab", "Tab", 9)
    page.key("e", "KeyE", 69)
    s = page.wait_status("explain's replay", lambda s: s["explain"] and s["explain"]["steps"] > 0)
    before = s["explain"]["step"]
    page.key("ArrowRight", "ArrowRight", 39)
    s = page.wait_status("an explain step", lambda s: s["explain"] and s["explain"]["step"] > before)
    log(f"explain replays the agent's last repair: step {before} -> {s['explain']['step']} of {s['explain']['steps']}")
    time.sleep(1)
    page.check_console()
    errors = [n for n in s["notices"] if n[0] == "error"]
    if errors:
        fail(f"the panel shows errors: {errors}")
    log("passed")


if __name__ == "__main__":
    main()
