"""One Bevy build: playing and testing must share one compiled Bevy.

usage: python3 scripts/one-bevy-build.py

Cargo compiles a crate once per set of features. `cargo run --release` builds the game's
normal dependencies; `cargo test --release --workspace` builds every member with its
dev-dependencies too, and cargo unifies features across everything it builds. When a
dev-dependency (proptest, say) turns on a feature of a crate that Bevy builds on (rand,
getrandom, bit-set...), that crate and everything above it, Bevy included, is compiled twice.

This compares, for every crate that is not a workspace member, the features in the game's
normal graph (`cargo tree -p gridwalk -e normal`) with those of the test build's graph
(`cargo tree --workspace -e normal,dev`), and fails naming each crate whose features differ.
Crates only the tests use are not compared: nothing the game builds depends on them.

It then checks the plugin's example the same way. `cargo run --release -p bevy_gridwalk
--example minimal` resolves features for that package alone (`cargo tree -p bevy_gridwalk -e
normal,dev`), so every crate that build needs, members included, must be in the game's graph
with the game's features; then the example compiles only bevy_gridwalk and itself. It takes a
few seconds (cargo tree reads Cargo.lock; nothing is compiled).
"""

import json
import subprocess
import sys


# The package whose example must build on the game's compiled Bevy.
EXAMPLE_PACKAGE = "bevy_gridwalk"


def tree(*args):
    """{(name, version): feature sets} over `cargo tree ARGS`. A crate can be built twice in
    one graph, for the target and for the host (under a proc-macro), so it maps to a set."""
    out = subprocess.run(
        ["cargo", "tree", *args, "--prefix", "none", "--format", "{p}|{f}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    crates = {}
    for line in out.splitlines():
        if "|" not in line:
            continue
        package, features = line.split("|", 1)
        features = features.removesuffix("(*)").strip()
        name, version = package.split()[:2]
        crates.setdefault((name, version), set()).add(frozenset(f for f in features.split(",") if f))
    return crates


def shown(sets):
    """Feature sets as `[a,b] / [c]`."""
    return " / ".join("[" + ",".join(sorted(f)) + "]" for f in sorted(sets, key=sorted))


def example_differs(play):
    """The crates the example's build needs with other features than the game's build has
    (or that the game does not build), as lines to print. The plugin itself is left out: the
    game turns on its `debug` feature, so the example compiles it anyway."""
    example = tree("-p", EXAMPLE_PACKAGE, "-e", "normal,dev")
    differ = []
    for (name, version), features in sorted(example.items()):
        if name == EXAMPLE_PACKAGE:
            continue
        other = play.get((name, version))
        if other is None:
            differ.append(f"{name} {version}: in the example's graph but not the game's")
        elif other != features:
            differ.append(f"{name} {version}: example {shown(features)}, playing {shown(other)}")
    return differ, len(example) - 1


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    members = {p["name"] for p in meta["packages"]}
    play = tree("-p", "gridwalk", "-e", "normal")
    test = tree("--workspace", "-e", "normal,dev")
    differ = []
    compared = 0
    for (name, version), features in sorted(play.items()):
        if name in members:
            continue
        compared += 1
        other = test.get((name, version))
        if other is None:
            differ.append(f"{name} {version}: in the game's graph but not the test build's")
        elif other != features:
            differ.append(f"{name} {version}: playing {shown(features)}, testing {shown(other)}")
    if differ:
        print("one-bevy-build: FAIL: testing would compile these crates (and Bevy above them)")
        print("a second time, with other features than playing does:")
        for d in differ:
            print(f"  {d}")
        print("Give the game the same features (root Cargo.toml) or the dev-dependency fewer.")
        sys.exit(1)
    print(f"one-bevy-build: the {compared} crates the game builds on have the same features "
          "with and without dev-dependencies")
    differ, needed = example_differs(play)
    if differ:
        print(f"one-bevy-build: FAIL: `cargo run -p {EXAMPLE_PACKAGE} --example ...` would compile")
        print("these crates (and Bevy above them) a second time, with other features than playing:")
        for d in differ:
            print(f"  {d}")
        print(f"Give {EXAMPLE_PACKAGE}'s dev-dependencies the game's features.")
        sys.exit(1)
    print(f"one-bevy-build: the {needed} crates the plugin's example needs are built as the "
          "game builds them")


if __name__ == "__main__":
    main()
