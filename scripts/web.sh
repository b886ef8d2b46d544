#!/usr/bin/env bash
# The game in a browser: `bash scripts/web.sh build` makes a static site in target/web/
# (index.html, the JS glue, the wasm), `bash scripts/web.sh serve [PORT]` serves it on
# 127.0.0.1 (port 8080 unless given; 0 picks a free one) and prints the address;
# `check-core` checks that gridwalk-core builds for wasm32 (CI runs it).
#
# build installs what it needs, once (later runs find it and are incremental):
# - the compiler for wasm32-unknown-unknown: rustup's target when rustup can add it, else
#   Debian's rustc-web (apt-get: rustc-web cargo-web rust-web-src lld-22), which builds the
#   standard library itself (-Zbuild-std);
# - wasm-bindgen-cli at the version of `wasm-bindgen` in Cargo.lock (cargo install, into
#   $GRIDWALK_WEB_TOOLS, default ~/.cache/gridwalk-web-tools);
# - with GRIDWALK_WASM_OPT=1, binaryen's wasm-opt (apt-get), used when it can read what
#   rustc emits; when it cannot, the site is left unoptimised and the script says so.
# The wasm build has its own target directory ($GRIDWALK_WEB_TARGET_DIR, default
# ~/.cache/gridwalk-web-target), so the native build is never rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."

site=target/web
target_dir="${GRIDWALK_WEB_TARGET_DIR:-$HOME/.cache/gridwalk-web-target}"
tools="${GRIDWALK_WEB_TOOLS:-$HOME/.cache/gridwalk-web-tools}"
wasm_target=wasm32-unknown-unknown

say() { echo "web: $*"; }
die() { echo "web: error: $*" >&2; exit 1; }

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
apt_updated=""
apt_install() {
    if [ -z "$apt_updated" ]; then
        $SUDO apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

size_of() { stat -c %s "$1"; }
mib() { python3 -c "print(f'{$1 / 1048576:.1f} MiB')"; }

# Runs `cargo SUBCOMMAND ARGS --target wasm32-unknown-unknown` with the toolchain at hand:
# rustup's target when rustup can add it, else Debian's rustc-web with -Zbuild-std. Its
# output goes to stderr.
wasm_cargo() {
    if command -v rustup >/dev/null &&
        { rustup target list --installed 2>/dev/null | grep -qx "$wasm_target" ||
            rustup target add "$wasm_target" >&2 2>/dev/null; }; then
        say "compiler: rustup's $wasm_target target ($(rustc --version))" >&2
        CARGO_TARGET_DIR="$target_dir" cargo "$@" --target "$wasm_target" >&2
    else
        # Debian's rustc-web: its own rustc and cargo, and the standard library from source.
        local lld=/usr/bin/wasm-ld-22
        if [ ! -x /usr/bin/rustc ] || [ ! -d /usr/lib/rustlib/src/rust/library ] || [ ! -x "$lld" ]; then
            say "rustup cannot add $wasm_target: installing Debian's rustc-web" >&2
            apt_install rustc-web cargo-web rust-web-src lld-22 >&2
        fi
        [ -x "$lld" ] || lld=$(command -v wasm-ld) || die "no wasm-ld linker (package lld-22)"
        say "compiler: Debian's $(/usr/bin/rustc --version) with -Zbuild-std" >&2
        # RUSTC: ~/.cargo/bin may come first in PATH with a rustc that lacks the target.
        RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$lld" \
            CARGO_TARGET_DIR="$target_dir" \
            /usr/bin/cargo "$@" --target "$wasm_target" -Zbuild-std=std,panic_abort >&2
    fi
}

# Installs wasm-bindgen-cli at the version Cargo.lock pins, unless it is there; echoes its path.
wasm_bindgen_cli() {
    local version
    version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
    [ -n "$version" ] || die "no wasm-bindgen in Cargo.lock"
    local bin="$tools/bin/wasm-bindgen"
    if [ ! -x "$bin" ] || [ "$("$bin" --version)" != "wasm-bindgen $version" ]; then
        say "installing wasm-bindgen-cli $version into $tools" >&2
        # Not --locked: its lockfile pins crates a registry mirror may lack.
        local cargo=cargo
        command -v cargo >/dev/null || cargo=/usr/bin/cargo
        "$cargo" install wasm-bindgen-cli --version "=$version" --root "$tools" >&2
    fi
    echo "$bin"
}

# binaryen's wasm-opt -O1 (apt-get binaryen), asked for with GRIDWALK_WASM_OPT=1. Measured on
# this project: 38.0 MiB -> 34.3 MiB in about 4 minutes on 2 cores; -O did not finish in 10.
# When this wasm-opt cannot read what rustc emits, the site is left as it is and it says so.
optimise() {
    local raw=$1 opt
    command -v wasm-opt >/dev/null || apt_install binaryen || true
    if ! command -v wasm-opt >/dev/null; then
        say "no wasm-opt (binaryen): left unoptimised ($(mib "$raw"))"
        return
    fi
    # The features rustc enables for wasm32 by default.
    if wasm-opt -O1 --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-mutable-globals --enable-reference-types \
        --enable-multivalue -o "$site/gridwalk_opt.wasm" "$site/gridwalk_bg.wasm" 2>"$site/wasm-opt.log"; then
        mv "$site/gridwalk_opt.wasm" "$site/gridwalk_bg.wasm"
        rm -f "$site/wasm-opt.log"
        opt=$(size_of "$site/gridwalk_bg.wasm")
        say "wasm-opt ($(wasm-opt --version)): $(mib "$raw") -> $(mib "$opt")"
    else
        rm -f "$site/gridwalk_opt.wasm"
        say "wasm-opt ($(wasm-opt --version)) cannot read this wasm; left unoptimised ($(mib "$raw")):"
        head -n 3 "$site/wasm-opt.log" | sed 's/^/web:   /'
        rm -f "$site/wasm-opt.log"
    fi
}

build() {
    local start wasm bindgen raw
    start=$(date +%s)
    command -v python3 >/dev/null || apt_install python3
    wasm_cargo build --release -p gridwalk --bin gridwalk
    wasm="$target_dir/$wasm_target/release/gridwalk.wasm"
    [ -f "$wasm" ] || die "the build made no $wasm"
    bindgen=$(wasm_bindgen_cli)
    rm -rf "$site"
    mkdir -p "$site"
    # Without the function names (a third of the file); a panic's message still reaches the
    # console and the page.
    "$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
        --out-dir "$site" --out-name gridwalk "$wasm"
    raw=$(size_of "$site/gridwalk_bg.wasm")
    if [ "${GRIDWALK_WASM_OPT:-0}" = 1 ]; then
        optimise "$raw"
    else
        say "wasm-opt skipped ($(mib "$raw")); GRIDWALK_WASM_OPT=1 runs it (about 10 % smaller, minutes)"
    fi
    # The page's loading line names the download's size.
    sed "s/@WASM_SIZE@/$(mib "$(size_of "$site/gridwalk_bg.wasm")")/" web/index.html >"$site/index.html"
    say "built $site in $(($(date +%s) - start)) s: $(ls "$site" | tr '\n' ' ')"
}

# Serves the site on 127.0.0.1:PORT with the wasm MIME type, cross-origin isolated so the
# page's clock steps by 5 µs rather than 0.1 ms; prints the address once it listens.
serve() {
    local port=${1:-8080}
    [ -f "$site/index.html" ] || die "no site in $site: run 'bash scripts/web.sh build' first"
    exec python3 - "$site" "$port" <<'PY'
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass

site, port = sys.argv[1], int(sys.argv[2])
server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                         functools.partial(Handler, directory=site))
print(f"web: serving {site} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)", flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
PY
}

case "${1:-}" in
    build) build ;;
    serve) serve "${2:-}" ;;
    # The engine-free core, for people who use the planner on the web: it must keep building.
    check-core) wasm_cargo check --release -p gridwalk-core --lib ;;
    *)
        echo "usage: bash scripts/web.sh build | serve [PORT] | check-core" >&2
        exit 2
        ;;
esac
