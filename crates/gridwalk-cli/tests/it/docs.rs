//! The docs against the tree, so they cannot drift from it silently:
//!
//! - every repository path that `README.md`, `ARCHITECTURE.md` and `docs/*.md` name exists
//!   (`CHANGELOG.md` is history: it names files as they were);
//! - `docs/controls.md` lists exactly the controls of the game's table, `src/controls.rs`.
//!
//! A path is a code span or a word of a `sh` block that looks like one (it has a `/` or ends
//! in a known extension, and no spaces, globs, `::` or URL), or a markdown link's target. A
//! code span's path is taken from the repository root, or from a crate's root or `src/`
//! folder (so `search/cells.rs` may stand for the core's module); a bare file name may be
//! anywhere in the tree; a link is taken from the document's folder, as a browser would.
//! Build output (`target/...`), placeholders in capitals (`FILE.ron`) and bare extensions
//! (`.map`) are not paths.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Folders a code span's path may be relative to, besides the repository root.
const ROOTS: &[&str] = &[
    "crates/gridwalk-core",
    "crates/gridwalk-core/src",
    "crates/gridwalk-cli",
    "crates/gridwalk-cli/src",
    "src",
];

/// The extensions that make a word without a `/` a file name.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "toml", "lock", "ron", "sh", "py", "png", "map", "scen", "patch", "html", "json",
    "yml", "txt",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The documents checked: the README, the architecture and every page of `docs/`.
fn documents() -> Vec<PathBuf> {
    let root = repo();
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("a readable docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// Where a document names something: what it names, on which line, and how.
#[derive(Debug, PartialEq)]
struct Named {
    line: usize,
    text: String,
    /// A markdown link's target (relative to the document), not a code span.
    link: bool,
}

/// Every code span, `sh` block word and link target of `text` that looks like a path.
fn named_paths(text: &str) -> Vec<Named> {
    let mut found = Vec::new();
    let mut prose = String::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(info.trim().to_owned()),
            };
            prose.push('\n');
            continue;
        }
        match fence.as_deref() {
            Some("sh" | "bash") => {
                for word in line.split_whitespace() {
                    let word = word.trim_matches(|c| c == '"' || c == '\'');
                    if looks_like_path(word) {
                        found.push(Named {
                            line: i + 1,
                            text: word.to_owned(),
                            link: false,
                        });
                    }
                }
                prose.push('\n');
            }
            Some(_) => prose.push('\n'),
            None => {
                prose.push_str(line);
                prose.push('\n');
            }
        }
    }
    // Code spans may run over a line break; links are read outside them.
    let line_of = |at: usize| prose[..at].matches('\n').count() + 1;
    let mut outside = String::with_capacity(prose.len());
    let mut rest = prose.as_str();
    let mut at = 0;
    while let Some(open) = rest.find('`') {
        outside.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else {
            outside.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let span = &after[..close];
        if looks_like_path(span) {
            found.push(Named {
                line: line_of(at + open),
                text: span.to_owned(),
                link: false,
            });
        }
        // Keep the line count of what was cut out.
        outside.extend(std::iter::repeat_n('\n', span.matches('\n').count()));
        let used = open + 1 + close + 1;
        at += used;
        rest = &rest[used..];
    }
    outside.push_str(rest);
    let mut rest = outside.as_str();
    let mut line = 1;
    while let Some(open) = rest.find("](") {
        line += rest[..open].matches('\n').count();
        let after = &rest[open + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split('#').next().unwrap_or("").trim();
        let external = target.contains("://") || target.starts_with("mailto:");
        if !target.is_empty() && !external {
            found.push(Named {
                line,
                text: target.to_owned(),
                link: true,
            });
        }
        line += after[..end].matches('\n').count();
        rest = &after[end..];
    }
    found.sort_by_key(|n| n.line);
    found
}

/// Whether a code span or a word is meant as a path in the repository.
fn looks_like_path(s: &str) -> bool {
    let s = s.strip_prefix("./").unwrap_or(s);
    if s.is_empty()
        || s.chars().any(char::is_whitespace)
        || s.contains("://")
        || s.starts_with(['-', '/', '~', '$', '.'])
            && !s.starts_with(".ci/")
            && !s.starts_with(".github/")
        || s.starts_with("target/")
        || s.contains([
            '*', '?', '{', '}', '<', '>', '[', ']', '(', ')', '|', '=', ',', ';', ':',
        ])
        || s.contains(['@', '&', '"', '\'', '\\', '%', '#'])
        || s.chars().all(|c| c.is_ascii_digit() || "/.–-".contains(c))
    {
        return false;
    }
    let name = s.trim_end_matches('/').rsplit('/').next().unwrap_or(s);
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    if !stem.is_empty() && !stem.chars().any(|c| c.is_lowercase()) {
        return false; // FILE.ron, MAP: a placeholder
    }
    s.contains('/') || !stem.is_empty() && EXTENSIONS.contains(&ext)
}

/// Every file name in the tree, for bare names like `tick_paths.rs`.
fn file_names(dir: &Path, names: &mut BTreeSet<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            if name != "target" && name != ".git" {
                file_names(&path, names);
            }
        } else {
            names.insert(name);
        }
    }
}

/// Whether `named`, found in the document `doc`, names something that exists.
fn exists(doc: &Path, named: &Named, names: &BTreeSet<String>) -> bool {
    let root = repo();
    let path = named.text.strip_prefix("./").unwrap_or(&named.text);
    if named.link {
        return doc
            .parent()
            .expect("a document's folder")
            .join(path)
            .exists();
    }
    std::iter::once("")
        .chain(ROOTS.iter().copied())
        .any(|r| root.join(r).join(path).exists())
        || !path.contains('/') && names.contains(path)
}

/// The paths `text` (as the document `doc`) names that do not exist, as `doc:line: path`.
fn missing(doc: &Path, text: &str, names: &BTreeSet<String>) -> Vec<String> {
    let shown = doc
        .strip_prefix(repo())
        .unwrap_or(doc)
        .display()
        .to_string();
    named_paths(text)
        .into_iter()
        .filter(|n| !exists(doc, n, names))
        .map(|n| format!("{shown}:{}: `{}` does not exist", n.line, n.text))
        .collect()
}

#[test]
fn every_path_the_docs_name_exists() {
    let mut names = BTreeSet::new();
    file_names(&repo(), &mut names);
    let mut bad = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).unwrap_or_else(|e| panic!("{}: {e}", doc.display()));
        checked += named_paths(&text).len();
        bad.extend(missing(&doc, &text, &names));
    }
    assert!(
        checked > 50,
        "only {checked} paths found: is the extraction broken?"
    );
    assert!(
        bad.is_empty(),
        "paths named in the docs that do not exist:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_path_check_catches_a_stale_path() {
    let mut names = BTreeSet::new();
    file_names(&repo(), &mut names);
    let doc = repo().join("README.md");
    let text = "Read `crates/gridwalk-core/src/search/dstar_lite.rs` and `search/mpgaa.rs`,\n\
                not `search/cells.rs`, `FILE.ron`, `Simulation::tick` or `+ / -`;\n\
                ![x](assets/nothing.png) [ok](ARCHITECTURE.md) <https://example.org/a/b>\n\
                ```sh\ncargo run -- simulate maps/none.ron\n```\n";
    let found: Vec<String> = named_paths(text).into_iter().map(|n| n.text).collect();
    assert_eq!(
        found,
        [
            "crates/gridwalk-core/src/search/dstar_lite.rs",
            "search/mpgaa.rs",
            "search/cells.rs",
            "assets/nothing.png",
            "ARCHITECTURE.md",
            "maps/none.ron",
        ]
    );
    let bad = missing(&doc, text, &names);
    let expected = [
        "README.md:1: `crates/gridwalk-core/src/search/dstar_lite.rs` does not exist",
        "README.md:1: `search/mpgaa.rs` does not exist",
        "README.md:3: `assets/nothing.png` does not exist",
        "README.md:5: `maps/none.ron` does not exist",
    ];
    assert_eq!(bad, expected);
}

/// The string literals of the `CONTROLS` table in `src/controls.rs`, in pairs: (input, what).
fn controls_in_code() -> Vec<(String, String)> {
    let source = fs::read_to_string(repo().join("src/controls.rs")).expect("src/controls.rs");
    let start = source.find("CONTROLS").expect("the CONTROLS table");
    let body = &source[start..];
    let body = &body[..body.find("];").expect("the table's end")];
    let mut strings = Vec::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => s.push(chars.next().expect("an escaped character")),
                c => s.push(c),
            }
        }
        strings.push(s);
    }
    assert!(
        strings.len() % 2 == 0,
        "the table holds (input, what) pairs"
    );
    strings
        .chunks(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect()
}

/// The first column of the table under `## Keys and mouse` in `docs/controls.md`.
fn controls_in_doc() -> Vec<String> {
    let doc = fs::read_to_string(repo().join("docs/controls.md")).expect("docs/controls.md");
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Keys and mouse"))
        .expect("a `## Keys and mouse` section");
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // the header and its rule
        .map(|l| l.split('|').nth(1).expect("a first cell").trim().to_owned())
        .collect()
}

#[test]
fn the_controls_doc_lists_exactly_the_games_controls() {
    let code: Vec<String> = controls_in_code().into_iter().map(|(k, _)| k).collect();
    let doc = controls_in_doc();
    assert!(
        code.len() > 10,
        "read {} controls from src/controls.rs",
        code.len()
    );
    let (code_set, doc_set): (BTreeSet<_>, BTreeSet<_>) =
        (code.iter().collect(), doc.iter().collect());
    assert_eq!(
        doc_set.len(),
        doc.len(),
        "docs/controls.md lists an input twice: {doc:?}"
    );
    let undocumented: Vec<_> = code_set.difference(&doc_set).collect();
    let unknown: Vec<_> = doc_set.difference(&code_set).collect();
    assert!(
        undocumented.is_empty() && unknown.is_empty(),
        "docs/controls.md and src/controls.rs differ:\n  in the game, not the doc: {undocumented:?}\n  in the doc, not the game: {unknown:?}"
    );
}
