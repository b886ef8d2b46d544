#!/usr/bin/env bash
# The game in a real browser: builds the site (scripts/web.sh build; WEB_E2E_BUILD=0 skips
# it), serves it on a free port, and drives the page in headless Chromium with
# scripts/web_e2e.py through Selenium and chromedriver (see there for every check: the default
# start, clicks placing an agent that walks, a middle-drag wall its path goes around, a
# right-click gap, wheel zoom, Space pausing, screenshots not blank, no console error or panic).
#
# Installs what it needs (apt-get) when missing: chromium, chromium-driver and python3-selenium
# (Debian's, so the driver matches the browser). WEB_E2E_SCREENSHOT=FILE.png keeps the default
# start's screenshot (the README's is assets/web.png).
set -euo pipefail
cd "$(dirname "$0")/.."

# A Python that can import selenium: the one on PATH, else Debian's, where python3-selenium goes.
selenium_python() {
    local py
    for py in python3 /usr/bin/python3; do
        command -v "$py" >/dev/null && "$py" -c 'import selenium' 2>/dev/null && { command -v "$py"; return 0; }
    done
    return 1
}

chromium=$(command -v chromium || command -v chromium-browser || true)
chromedriver=$(command -v chromedriver || true)
python=$(selenium_python || true)
if [ -z "$chromium" ] || [ -z "$chromedriver" ] || [ -z "$python" ]; then
    echo "web-e2e: installing chromium, chromium-driver and python3-selenium"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        chromium chromium-driver python3-selenium fonts-dejavu-core >/dev/null
    chromium=$(command -v chromium)
    chromedriver=$(command -v chromedriver)
    python=$(selenium_python) || { echo "web-e2e: no Python imports selenium after installing it"; exit 1; }
fi
echo "web-e2e: $("$chromium" --version 2>/dev/null), $("$chromedriver" --version | cut -d' ' -f1-2), selenium $("$python" -c 'import selenium; print(selenium.__version__)') on $python"

[ "${WEB_E2E_BUILD:-1}" = 0 ] || bash scripts/web.sh build

work=$(mktemp -d)
bash scripts/web.sh serve 0 >"$work/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/serve.log"; echo "web-e2e: the server did not start"; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$work/serve.log"; echo "web-e2e: no address from the server"; exit 1; }
echo "web-e2e: page at $url, screenshots in $work"
"$python" scripts/web_e2e.py "$chromium" "$chromedriver" "$url" "$work" ${WEB_E2E_SCREENSHOT:+"$WEB_E2E_SCREENSHOT"}
