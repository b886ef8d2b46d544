//! The Moving AI `.map` and `.scen` formats: the real benchmark files, precise errors, fuzzing.

use std::path::{Path, PathBuf};

use gridwalk_core::format::movingai::{
    ScenProblem, check_scen, import, load_map, load_scen, parse_map, parse_scen, to_scenario,
};
use gridwalk_core::format::{FormatError, Scenario};
use gridwalk_core::search::dijkstra;
use gridwalk_core::{Connectivity, Grid, Pos, Terrain, cost};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common::check_error;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/movingai");

fn data(name: &str) -> PathBuf {
    Path::new(DATA).join(name)
}

/// `(name, width, height, problems)`, from the data's README and headers.
const MAPS: [(&str, u32, u32, usize); 4] = [
    ("arena", 49, 49, 160),
    ("lak304d", 193, 194, 773),
    ("64room_000", 512, 512, 2030),
    ("losttemple", 512, 512, 1238),
];

const SMALL: &str = "type octile\nheight 3\nwidth 4\nmap\n..@.\n.TGO\nSW..\n";

#[track_caller]
fn map_error(text: &str, line: usize, words: &[&str]) -> FormatError {
    let e = parse_map(text, "m.map").expect_err("this map must not parse");
    check_error(&e, "m.map", line, words);
    e
}

#[track_caller]
fn scen_error(text: &str, line: usize, words: &[&str]) -> FormatError {
    let e = parse_scen(text, "s.scen").expect_err("this scen must not parse");
    check_error(&e, "s.scen", line, words);
    e
}

#[test]
fn the_four_benchmark_maps_and_scens_load() {
    for (name, w, h, count) in MAPS {
        let grid = load_map(&data(&format!("{name}.map"))).unwrap();
        assert_eq!((grid.width(), grid.height()), (w, h), "{name}");
        assert_eq!(grid.len(), (w * h) as usize);
        let scen_path = data(&format!("{name}.map.scen"));
        let problems = load_scen(&scen_path).unwrap();
        assert_eq!(problems.len(), count, "{name}");
        assert!(
            problems
                .iter()
                .all(|p| (p.map_width, p.map_height) == (w, h))
        );
        assert_eq!(problems[0].line, 2);
        assert!(problems.windows(2).all(|p| p[0].line < p[1].line));
        let checked = check_scen(&problems, &grid, &scen_path.display().to_string());
        if name == "losttemple" {
            // Its scenarios are older than its map: some endpoints are swamp (a wall here),
            // and some are even on trees and out-of-bounds cells of this map. The first such
            // problem is on line 14.
            let e = checked.unwrap_err();
            assert_eq!(e.line, Some(14), "{e}");
            assert!(e.message.contains("start (111, 377)"), "{e}");
        } else {
            checked.unwrap();
        }
    }
}

#[test]
fn scen_fields_are_read_in_order() {
    // The first problem of each file, by hand from the files themselves.
    let p = &load_scen(&data("arena.map.scen")).unwrap()[0];
    assert_eq!(
        *p,
        ScenProblem {
            bucket: 0,
            map: "maps/dao/arena.map".into(),
            map_width: 49,
            map_height: 49,
            start: Pos::new(1, 11),
            goal: Pos::new(1, 12),
            optimal: 1.0,
            line: 2,
        }
    );
    // losttemple: space-separated, "version 1.0".
    let p = &load_scen(&data("losttemple.map.scen")).unwrap()[0];
    assert_eq!(
        (p.bucket, p.start, p.goal),
        (66, Pos::new(242, 400), Pos::new(121, 216))
    );
    assert!((p.optimal - 265.58).abs() < 1e-9);
}

#[test]
fn map_cells_are_where_the_header_says() {
    let g = parse_map(SMALL, "m.map").unwrap();
    assert_eq!((g.width(), g.height()), (4, 3));
    let t = |x, y| g.terrain(Pos::new(x, y)).unwrap();
    assert_eq!(t(0, 0), Terrain::FREE);
    assert_eq!(t(2, 0), Terrain::Wall); // @
    assert_eq!(t(1, 1), Terrain::Wall); // T
    assert_eq!(t(2, 1), Terrain::FREE); // G
    assert_eq!(t(3, 1), Terrain::Wall); // O
    assert_eq!(t(0, 2), Terrain::Wall); // S (swamp) becomes a wall
    assert_eq!(t(1, 2), Terrain::Wall); // W (water) becomes a wall
    // Header lines in another order, CRLF line ends and trailing blank lines are fine.
    let g2 = parse_map(
        "type octile\r\nwidth 4\r\nheight 3\r\nmap\r\n..@.\r\n.TGO\r\nSW..\r\n\r\n\n",
        "m.map",
    )
    .unwrap();
    assert_eq!(g2, g);
    // Nor is a byte-order mark.
    assert_eq!(parse_map(&format!("\u{feff}{SMALL}"), "m.map").unwrap(), g);
    assert!(parse_scen("\u{feff}version 1\n", "s.scen").is_ok());
    // No final newline either.
    assert_eq!(parse_map(SMALL.trim_end(), "m.map").unwrap(), g);
}

/// The optimal lengths in the scen files match Dijkstra on the parsed maps: this checks that
/// x and y are not swapped and that walls are where the benchmark has them.
#[test]
fn optimal_lengths_match_dijkstra() {
    for (name, step) in [("arena", 1), ("lak304d", 7), ("64room_000", 97)] {
        let grid = load_map(&data(&format!("{name}.map"))).unwrap();
        let problems = load_scen(&data(&format!("{name}.map.scen"))).unwrap();
        for p in problems.iter().step_by(step) {
            let r = dijkstra(&grid, p.start, p.goal, Connectivity::Eight).unwrap();
            let found = cost::to_f64(r.path.expect("benchmark problems are solvable").cost);
            // Six significant digits in the file.
            let tolerance = 1e-5 * p.optimal.max(1.0);
            assert!(
                (found - p.optimal).abs() <= tolerance,
                "{name} line {}: dijkstra {found}, file {}",
                p.line,
                p.optimal
            );
        }
    }
}

#[test]
fn map_header_errors() {
    let e = parse_map("", "m.map").unwrap_err();
    assert!(e.message.contains("empty"), "{e}");
    map_error("type octile\nheight 3\n", 2, &["header", "truncated"]);
    map_error(
        "type grid\nheight 1\nwidth 1\nmap\n.\n",
        1,
        &["grid", "octile"],
    );
    map_error(
        "type octile\nheight 1\nwidth one\nmap\n.\n",
        3,
        &["width", "\"one\""],
    );
    map_error("type octile\nheight -1\nwidth 1\nmap\n.\n", 2, &["height"]);
    map_error(
        "type octile\nheight 1\nwidth 1\nwidth 1\nmap\n.\n",
        4,
        &["second 'width'", "line 3"],
    );
    map_error("type octile\nheight 1\nmap\n.\n", 3, &["no 'width'"]);
    map_error("height 1\nwidth 1\nmap\n.\n", 3, &["no 'type octile'"]);
    map_error(
        "type octile\nheight 1\nwidth 1\nsize 3\nmap\n.\n",
        4,
        &["header line", "size 3"],
    );
    map_error("type octile\nheight 0\nwidth 5\nmap\n", 3, &["5×0"]);
}

#[test]
fn absurd_headers_fail_fast_before_allocating() {
    let start = std::time::Instant::now();
    let e = map_error(
        "type octile\nheight 4\nwidth 1000000000\nmap\n....\n",
        3,
        &["1000000000×4", "at most"],
    );
    println!("{e}");
    map_error(
        "type octile\nheight 99999999999\nwidth 99999999999\nmap\n",
        3,
        &["99999999999×99999999999"],
    );
    map_error(
        "type octile\nheight 1\nwidth 18446744073709551616\nmap\n",
        3,
        &["width"],
    );
    assert!(
        start.elapsed().as_millis() < 500,
        "must not allocate or loop over the claim"
    );
}

#[test]
fn map_row_errors_name_line_and_column() {
    map_error(
        "type octile\nheight 2\nwidth 4\nmap\n....\n..x.\n",
        6,
        &["column 3", "'x'", "y = 1", "x = 2"],
    );
    map_error(
        "type octile\nheight 2\nwidth 4\nmap\n....\n...\n",
        6,
        &["row y = 1 has 3 cells", "width is 4"],
    );
    map_error(
        "type octile\nheight 2\nwidth 4\nmap\n.....\n....\n",
        5,
        &["row y = 0", "longer", "width 4"],
    );
    map_error(
        "type octile\nheight 3\nwidth 4\nmap\n....\n....\n",
        6,
        &["after 2 of 3 rows", "truncated"],
    );
    map_error(
        "type octile\nheight 1\nwidth 4\nmap\n....\n\n....\n",
        7,
        &["more rows", "height 1"],
    );
    // A tab, a space: named, not silently dropped.
    map_error(
        "type octile\nheight 1\nwidth 4\nmap\n.. .\n",
        5,
        &["column 3", "' '"],
    );
}

#[test]
fn scen_errors_name_their_line() {
    let good = "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82843\n";
    assert_eq!(parse_scen(good, "s.scen").unwrap().len(), 1);
    assert!(parse_scen("version 1\n", "s.scen").unwrap().is_empty());
    assert!(
        parse_scen("version 1.0\n\n  \n", "s.scen")
            .unwrap()
            .is_empty()
    );
    let e = parse_scen("", "s.scen").unwrap_err();
    assert!(e.message.contains("empty") && e.line.is_none(), "{e}");
    scen_error("version 2\n", 1, &["version 1", "version 2"]);
    scen_error("0 m.map 4 3 0 0 3 2 3.8\n", 1, &["version 1"]);
    scen_error(
        &format!("{good}0 m.map 4 3 0 0 3 2\n"),
        3,
        &["9 fields", "found 8"],
    );
    scen_error(
        &format!("{good}\n0 m.map 4 3 0 0 3 2 3.8 extra\n"),
        4,
        &["found 10"],
    );
    scen_error(
        &format!("{good}0 m.map 4 3 a 0 3 2 3.8\n"),
        3,
        &["start_x", "\"a\""],
    );
    scen_error(
        &format!("{good}0 m.map 4 3 0 -1 3 2 3.8\n"),
        3,
        &["start_y", "\"-1\""],
    );
    scen_error(
        &format!("{good}0 m.map 4 3 0 0 3 2 NaN\n"),
        3,
        &["optimal_length"],
    );
    scen_error(
        &format!("{good}0 m.map 4 3 0 0 3 2 -1\n"),
        3,
        &["optimal_length"],
    );
    scen_error(
        &format!("{good}0 m.map 4 3 0 0 4 2 3.8\n"),
        3,
        &["goal (4, 2)", "outside the 4×3"],
    );
    // Truncated in the middle of a line.
    scen_error(
        "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82843\n0\tm.map\t4\t3\t0",
        3,
        &["9 fields"],
    );
}

#[test]
fn scen_problems_are_checked_against_the_map() {
    let grid = parse_map(SMALL, "m.map").unwrap();
    let ok = parse_scen("version 1\n0 m.map 4 3 0 0 3 2 4\n", "s.scen").unwrap();
    check_scen(&ok, &grid, "s.scen").unwrap();
    let on_wall = parse_scen(
        "version 1\n0 m.map 4 3 0 0 3 2 4\n\n0 m.map 4 3 0 0 2 0 4\n",
        "s.scen",
    )
    .unwrap();
    let e = check_scen(&on_wall, &grid, "s.scen").unwrap_err();
    check_error(&e, "s.scen", 4, &["goal (2, 0)", "passable"]);
    let other_map = parse_scen("version 1\n0 m.map 5 3 0 0 3 2 4\n", "s.scen").unwrap();
    let e = check_scen(&other_map, &grid, "s.scen").unwrap_err();
    check_error(&e, "s.scen", 2, &["5×3", "4×3"]);
    // to_scenario refuses the same problems, so it only ever builds valid scenarios.
    assert!(to_scenario(grid.clone(), &on_wall, "s.scen").is_err());
    let s = to_scenario(grid, &ok, "s.scen").unwrap();
    assert_eq!(s.agents.len(), 1);
    assert_eq!(s.connectivity, Connectivity::Eight);
}

#[test]
fn import_makes_a_valid_scenario_that_round_trips() {
    let s = import(&data("arena.map"), Some(&data("arena.map.scen")), 10).unwrap();
    assert_eq!((s.grid.width(), s.grid.height()), (49, 49));
    assert_eq!(s.agents.len(), 10);
    assert_eq!(s.agents[0].start, Pos::new(1, 11));
    s.validate("arena").unwrap();
    assert_eq!(Scenario::parse(&s.to_ron(), "arena.ron").unwrap(), s);

    let s = import(&data("lak304d.map"), None, 10).unwrap();
    assert!(s.agents.is_empty());
    let e = import(&data("missing.map"), None, 1).unwrap_err();
    assert!(e.file.ends_with("missing.map") && e.line.is_none(), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Fuzzing.

/// What every parsed map must satisfy.
fn assert_map_consistent(g: &Grid, text: &str) {
    assert_eq!(g.len(), g.width() as usize * g.height() as usize);
    assert!(g.width() > 0 && g.height() > 0);
    // Every row is in the text: the text has at least header + height lines.
    assert!(text.lines().count() >= 4 + g.height() as usize);
}

fn assert_scen_consistent(problems: &[ScenProblem], text: &str) {
    let lines = text.lines().count();
    for p in problems {
        assert!((2..=lines).contains(&p.line));
        assert!(p.start.x < p.map_width && p.start.y < p.map_height);
        assert!(p.goal.x < p.map_width && p.goal.y < p.map_height);
        assert!(p.optimal.is_finite() && p.optimal >= 0.0);
    }
    assert!(problems.windows(2).all(|w| w[0].line < w[1].line));
}

fn mutate(text: &[u8], cut: Option<Index>, edits: &[(Index, u8)]) -> Vec<u8> {
    let mut b = text.to_vec();
    for &(i, x) in edits {
        if !b.is_empty() {
            let i = i.index(b.len());
            b[i] = x;
        }
    }
    if let Some(c) = cut {
        b.truncate(c.index(b.len() + 1));
    }
    b
}

fn map_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => prop::sample::select(b".@TGOSW\n\r 0123456789xmaphtwidy".to_vec()),
        1 => any::<u8>(),
    ]
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(1000))]

    #[test]
    fn arbitrary_text_never_panics(bytes in prop::collection::vec(map_byte(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(g) = parse_map(&text, "m.map") {
            assert_map_consistent(&g, &text);
        }
        if let Ok(p) = parse_scen(&text, "s.scen") {
            assert_scen_consistent(&p, &text);
        }
    }

    #[test]
    fn headers_with_any_numbers_never_panic(h in any::<u64>(), w in any::<u64>(), rows in "[.@\n]{0,60}") {
        let text = format!("type octile\nheight {h}\nwidth {w}\nmap\n{rows}");
        if let Ok(g) = parse_map(&text, "m.map") {
            prop_assert_eq!((g.width() as u64, g.height() as u64), (w, h));
            assert_map_consistent(&g, &text);
        }
    }

    #[test]
    fn mutated_small_maps_never_panic_nor_half_parse(
        cut in prop::option::of(any::<Index>()),
        edits in prop::collection::vec((any::<Index>(), map_byte()), 0..4),
    ) {
        let bytes = mutate(SMALL.as_bytes(), cut, &edits);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(g) = parse_map(&text, "m.map") {
            assert_map_consistent(&g, &text);
        }
    }

    #[test]
    fn mutated_scens_never_panic(
        cut in prop::option::of(any::<Index>()),
        edits in prop::collection::vec((any::<Index>(), map_byte()), 0..4),
    ) {
        let text = "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82843\n1 m.map 4 3 1 0 0 2 2.5\n";
        let bytes = mutate(text.as_bytes(), cut, &edits);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(p) = parse_scen(&text, "s.scen") {
            assert_scen_consistent(&p, &text);
        }
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(64))]

    /// The real arena map, truncated anywhere before the end of its last row, never parses:
    /// a short file is never taken for a whole one.
    #[test]
    fn truncated_arena_never_parses(cut in any::<Index>(), edit in prop::option::of((any::<Index>(), map_byte()))) {
        let text = std::fs::read_to_string(data("arena.map")).unwrap();
        let end = text.trim_end().len();
        let cut = cut.index(end);
        prop_assert!(parse_map(&text[..cut], "arena.map").is_err());
        // And a one-byte change anywhere parses to a consistent grid or fails cleanly.
        let bytes = mutate(text.as_bytes(), None, edit.as_slice());
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(g) = parse_map(&text, "arena.map") {
            assert_map_consistent(&g, &text);
        }
    }

    #[test]
    fn truncated_scens_lose_problems_or_fail(cut in any::<Index>()) {
        let text = std::fs::read_to_string(data("arena.map.scen")).unwrap();
        let cut = cut.index(text.len() + 1);
        match parse_scen(&text[..cut], "arena.map.scen") {
            Ok(p) => {
                // A cut between lines (or inside the optimal length) still parses; never more
                // problems than lines.
                prop_assert!(p.len() <= text[..cut].lines().count().saturating_sub(1));
            }
            Err(e) => prop_assert!(e.line.is_some() || cut == 0),
        }
    }
}
