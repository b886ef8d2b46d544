//! The RON scenario format: round trips, precise errors, crash-safe saving, and fuzzing.

use crate::common;

use std::path::PathBuf;

use gridwalk_core::Facing;
use gridwalk_core::format::scenario::DynamicSpec;
use gridwalk_core::format::{AgentSpec, CellSet, EditSpec, FormatError, Scenario, SensingSpec};
use gridwalk_core::sim::OnArrival;
use gridwalk_core::{Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common::check_error;

static EXAMPLE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| common::example(&[]));

fn parse(text: &str) -> Result<Scenario, FormatError> {
    Scenario::parse(text, "maps/x.ron")
}

/// Parses `text`, expecting an error on `line` whose message contains every one of `words`.
#[track_caller]
fn expect_error(text: &str, line: usize, words: &[&str]) -> FormatError {
    let e = parse(text).expect_err("this text must not parse");
    check_error(&e, "maps/x.ron", line, words);
    e
}

/// A fresh, empty directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("scenario-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_documented_example_parses_exactly() {
    let s = parse(&EXAMPLE).unwrap();
    assert_eq!((s.grid.width(), s.grid.height()), (10, 3));
    assert_eq!(s.grid.terrain(Pos::new(2, 1)), Ok(Terrain::Wall));
    assert_eq!(s.grid.terrain(Pos::new(4, 2)), Ok(Terrain::Weight(3)));
    assert_eq!(s.grid.terrain(Pos::new(0, 0)), Ok(Terrain::FREE));
    assert_eq!(s.grid.wall_count(), 5);
    assert_eq!(s.connectivity, Connectivity::Eight);
    assert_eq!(s.heuristic, None);
    assert_eq!(s.effective_heuristic(), Heuristic::Octile);
    assert_eq!(
        s.agents,
        vec![
            AgentSpec::new(Pos::new(0, 0), Pos::new(9, 2)),
            AgentSpec {
                tick: 4,
                ..AgentSpec::new(Pos::new(1, 2), Pos::new(9, 2))
            },
        ]
    );
    assert_eq!(
        s.edits[2],
        EditSpec {
            tick: 8,
            set: CellSet::Weight(4),
            cells: vec![Pos::new(6, 2)]
        }
    );
    assert_eq!(s.edits[0].set.terrain(), Terrain::Wall);
    assert_eq!(s.edits[1].set.terrain(), Terrain::FREE);
    assert_eq!(parse(&s.to_ron()).unwrap(), s);
}

#[test]
fn only_rows_are_required_and_options_are_read() {
    let s = parse(r#"(rows: ["1.#9"])"#).unwrap();
    assert_eq!(s.grid.terrain(Pos::new(0, 0)), Ok(Terrain::FREE));
    assert_eq!(s.grid.terrain(Pos::new(3, 0)), Ok(Terrain::Weight(9)));
    assert_eq!(s.connectivity, Connectivity::Eight);
    assert!(s.agents.is_empty() && s.edits.is_empty());

    let s = parse("(rows: [\".\"], connectivity: Four, heuristic: Euclidean)").unwrap();
    assert_eq!(s.connectivity, Connectivity::Four);
    assert_eq!(s.heuristic, Some(Heuristic::Euclidean));
    assert_eq!(
        parse("(rows: [\".\"], connectivity: Four)")
            .unwrap()
            .effective_heuristic(),
        Heuristic::Manhattan
    );
    // `Some(..)`, a struct name, comments and an edit without a tick are all fine.
    let s = parse(
        "// a map\nScenario(rows: [\".\" /* one cell */], heuristic: Some(Zero),\n\
         edits: [(set: Wall, cells: [(0, 0)])])",
    )
    .unwrap();
    assert_eq!(s.heuristic, Some(Heuristic::Zero));
    assert_eq!(s.edits[0].tick, 0);
}

#[test]
fn ron_syntax_errors_name_their_line() {
    let text = "(\n    rows: [\n        \"...\",\n        \"...\"\n        \"...\",\n    ],\n)\n";
    expect_error(text, 5, &["column", "comma"]);
    expect_error(
        "(\n    rows: [\"...\"],\n    connectivity: Six,\n)",
        3,
        &["Six"],
    );
    expect_error(
        "(\n    rows: [\"...\"],\n    agnets: [],\n)",
        3,
        &["agnets"],
    );
    expect_error("(\n    agents: [],\n)", 3, &["rows"]);
    expect_error(
        "(\n    rows: [\"...\"],\n    agents: [\n        (start: (0, -1), goal: (0, 0)),\n    ],\n)",
        4,
        &["column"],
    );
    expect_error(
        "(\n    rows: [\"...\"],\n    agents: [\n        (start: (0, 0)),\n    ],\n)",
        4,
        &["goal"],
    );
    expect_error("(rows: [\"...\"])\nextra", 2, &["trailing"]);
    expect_error("", 1, &["empty"]);
    expect_error("  \n\n", 1, &["empty"]);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("(\n    rows: {}", "[".repeat(200_000));
    expect_error(&deep, 2, &["column"]);
    let deep = format!("(\n    rows: [\".\"],\n    edits: {}", "(".repeat(200_000));
    assert!(parse(&deep).is_err());
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let s = parse(&format!("\u{feff}{}", *EXAMPLE)).unwrap();
    assert_eq!(s, parse(&EXAMPLE).unwrap());
    expect_error("\u{feff}(\n    rows: [\"..\", \".\"],\n)", 2, &["rows[1]"]);
}

#[test]
fn truncated_files_are_errors_that_say_so() {
    let cases = [
        (EXAMPLE.find("\"....3").unwrap(), 4),
        (EXAMPLE.find("(tick: 8").unwrap() + 5, 15),
        (EXAMPLE.len() - 3, 16),
        (EXAMPLE.find("onnectivity").unwrap(), 7),
    ];
    for (cut, line) in cases {
        let e = expect_error(&EXAMPLE[..cut], line, &["truncated"]);
        println!("{e}");
    }
    // Cutting inside a string or a comment.
    expect_error(&EXAMPLE[..EXAMPLE.find("3....").unwrap()], 5, &["string"]);
    expect_error("(rows: [\"..\"] /* a comment", 1, &["comment"]);
}

#[test]
fn rows_of_unequal_length_name_the_row() {
    let text = "(\n    rows: [\n        \"..........\",\n        \"..........\",\n        \".........\",\n    ],\n)";
    expect_error(text, 5, &["rows[2] has 9 cells, expected 10"]);
    // Two rows on one line, the second short.
    expect_error(
        "(\n    rows: [\"...\", \"..\"],\n)",
        2,
        &["rows[1] has 2 cells"],
    );
    expect_error(
        "(\n    rows: [\n        \"\",\n    ],\n)",
        3,
        &["rows[0] is empty"],
    );
}

#[test]
fn no_rows_is_an_error() {
    expect_error(
        "(\n    connectivity: Four,\n    rows: [],\n)",
        3,
        &["no rows"],
    );
}

#[test]
fn unknown_characters_are_named_with_their_column() {
    let text = "(\n    rows: [\n        \"....\",\n        \".x..\",\n    ],\n)";
    expect_error(text, 4, &["rows[1]", "'x'", "x = 1"]);
    let text = "(\n    rows: [\n        \"....\",\n        \"...é\",\n    ],\n)";
    expect_error(text, 4, &["'é'", "x = 3"]);
    // A digit 0 is a weight outside 1–9.
    let text = "(\n    rows: [\n        \"..0.\",\n    ],\n)";
    expect_error(text, 3, &["weight 0", "x = 2", "1-9"]);
}

#[test]
fn agents_off_the_map_or_on_walls_name_the_agent_line() {
    let text = "(\n    rows: [\"..#\", \"...\"],\n    agents: [\n        (start: (0, 0), goal: (1, 1)),\n        (start: (3, 0), goal: (1, 1)),\n    ],\n)";
    expect_error(
        text,
        5,
        &["agents[1]", "start (3, 0)", "outside the 3×2 map"],
    );
    let text = "(\n    rows: [\"..#\", \"...\"],\n    agents: [\n        (start: (0, 0), goal: (1, 1)),\n        (\n            start: (0, 1),\n            goal: (2, 0),\n        ),\n    ],\n)";
    expect_error(text, 7, &["agents[1]", "goal (2, 0)", "wall"]);
    let text = "(\n    rows: [\"...\"],\n    agents: [(start: (0, 0), goal: (0, 7))],\n)";
    expect_error(text, 3, &["agents[0]", "goal (0, 7)", "outside"]);
}

#[test]
fn bad_edits_name_their_line() {
    let text = "(\n    rows: [\"...\", \"...\"],\n    edits: [\n        (tick: 1, set: Wall, cells: [(0, 0)]),\n        (tick: 2, set: Wall, cells: [\n            (1, 1),\n            (2, 2),\n        ]),\n    ],\n)";
    expect_error(text, 7, &["edits[1].cells[1]", "(2, 2)", "outside"]);
    let text = "(\n    rows: [\"...\"],\n    edits: [\n        (tick: 1,\n         set: Weight(12),\n         cells: []),\n    ],\n)";
    expect_error(text, 5, &["edits[0]", "weight 12", "1-9"]);
    let text = "(\n    rows: [\"...\"],\n    edits: [(tick: 1, set: Weight(0), cells: [])],\n)";
    expect_error(text, 3, &["weight 0"]);
    // Out of u8's range: ron itself refuses it, on the right line.
    let text = "(\n    rows: [\"...\"],\n    edits: [\n        (set: Weight(300), cells: [])],\n)";
    expect_error(text, 4, &["out of bounds"]);
}

#[test]
fn huge_maps_are_refused_before_building_the_grid() {
    let row = ".".repeat(gridwalk_core::grid::MAX_CELLS + 1);
    let text = format!("(\n    rows: [\n        \"{row}\",\n    ],\n)");
    let e = expect_error(&text, 2, &["too large", "67108865×1"]);
    assert!(e.message.len() < 300, "the message must not quote the row");
}

#[test]
fn validate_catches_what_parse_would() {
    let mut s = parse(&EXAMPLE).unwrap();
    assert!(s.validate("x").is_ok());
    s.agents[0].goal = Pos::new(2, 1);
    let e = s.validate("x").unwrap_err();
    assert!(e.message.contains("wall"), "{e}");
    assert_eq!(e.line, None);
    let mut s = parse(&EXAMPLE).unwrap();
    s.edits[0].set = CellSet::Weight(10);
    assert!(s.validate("x").is_err());
}

#[test]
fn cell_set_and_terrain_convert_both_ways() {
    for t in [Terrain::Wall, Terrain::FREE, Terrain::Weight(5)] {
        assert_eq!(CellSet::from_terrain(t).terrain(), t);
    }
    assert_eq!(CellSet::from_terrain(Terrain::FREE), CellSet::Free);
}

#[test]
fn save_writes_atomically_and_load_reads_it_back() {
    let dir = scratch_dir("save");
    let path = dir.join("map.ron");
    let s = parse(&EXAMPLE).unwrap();
    s.save(&path).unwrap();
    assert_eq!(Scenario::load(&path).unwrap(), s);
    // Overwriting leaves only the target: no temporary file behind.
    let mut s2 = s.clone();
    s2.agents.pop();
    s2.save(&path).unwrap();
    assert_eq!(Scenario::load(&path).unwrap(), s2);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec!["map.ron"]);

    // An invalid scenario is refused and the file on disk is untouched.
    let mut bad = s.clone();
    bad.agents[0].start = Pos::new(99, 0);
    let e = bad.save(&path).unwrap_err();
    assert!(
        e.file.ends_with("map.ron") && e.message.contains("outside"),
        "{e}"
    );
    assert_eq!(Scenario::load(&path).unwrap(), s2);

    // A directory that does not exist: an error naming the file, nothing written.
    let missing = dir.join("no/such/dir/map.ron");
    let e = s.save(&missing).unwrap_err();
    assert!(
        e.file.ends_with("no/such/dir/map.ron") && e.message.contains("cannot write"),
        "{e}"
    );
}

#[test]
fn load_errors_name_the_file() {
    let dir = scratch_dir("load");
    let e = Scenario::load(&dir.join("absent.ron")).unwrap_err();
    assert!(
        e.file.ends_with("absent.ron") && e.message.contains("cannot read"),
        "{e}"
    );
    assert_eq!(e.line, None);

    let path = dir.join("latin1.ron");
    std::fs::write(&path, b"(\n    rows: [\"..\xe9\"],\n)").unwrap();
    let e = Scenario::load(&path).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("UTF-8"), "{e}");

    let path = dir.join("short.ron");
    std::fs::write(&path, "(\n    rows: [\"..\", \".\"],\n)").unwrap();
    let e = Scenario::load(&path).unwrap_err();
    assert!(
        e.to_string()
            .starts_with(&format!("{}:2: rows[1]", path.display())),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Property tests.

fn arb_cell_set() -> impl Strategy<Value = CellSet> {
    prop_oneof![
        Just(CellSet::Wall),
        Just(CellSet::Free),
        (1u8..=9).prop_map(CellSet::Weight),
    ]
}

/// Any valid scenario of up to 14×14 cells.
fn arb_scenario() -> impl Strategy<Value = Scenario> {
    (1u32..=14, 1u32..=14).prop_flat_map(|(w, h)| {
        let cell = prop_oneof![2 => Just(0u8), 5 => Just(1u8), 2 => 2u8..=9];
        let pos = (0..w, 0..h).prop_map(Pos::from);
        (
            prop::collection::vec(cell, (w * h) as usize),
            prop_oneof![Just(Connectivity::Four), Just(Connectivity::Eight)],
            prop::option::of(prop::sample::select(Heuristic::ALL.to_vec())),
            prop::collection::vec(
                (
                    any::<Index>(),
                    any::<Index>(),
                    prop_oneof![Just(0u64), any::<u64>()],
                    prop::sample::select(OnArrival::ALL.to_vec()),
                ),
                0..6,
            ),
            prop::collection::vec(
                (
                    any::<u64>(),
                    arb_cell_set(),
                    prop::collection::vec(pos, 0..30),
                ),
                0..5,
            ),
            prop_oneof![Just(0u64), any::<u64>()],
            prop::collection::vec((any::<u64>(), 0u32..6, 1u32..9), 0..3),
        )
            .prop_map(
                move |(mut cells, connectivity, heuristic, agents, edits, seed, dynamic)| {
                    if cells.iter().all(|&c| c == 0) {
                        cells[0] = 1;
                    }
                    let mut grid = Grid::new(w, h).unwrap();
                    let mut open = Vec::new();
                    for (i, &c) in cells.iter().enumerate() {
                        let p = grid.pos(i);
                        let t = if c == 0 {
                            Terrain::Wall
                        } else {
                            Terrain::Weight(c)
                        };
                        grid.set(p, t).unwrap();
                        if c != 0 {
                            open.push(p);
                        }
                    }
                    Scenario {
                        grid,
                        connectivity,
                        heuristic,
                        agents: agents
                            .into_iter()
                            .map(|(s, g, tick, on_arrival)| AgentSpec {
                                start: *s.get(&open),
                                goal: *g.get(&open),
                                tick,
                                on_arrival,
                                facing: Facing::from_index(tick as u8),
                                route: Vec::new(),
                            })
                            .collect(),
                        edits: edits
                            .into_iter()
                            .map(|(tick, set, cells)| EditSpec { tick, set, cells })
                            .collect(),
                        seed,
                        dynamic: dynamic
                            .into_iter()
                            .map(|(tick, every, walls)| DynamicSpec { tick, every, walls })
                            .collect(),
                        destinations: (seed % 5) as usize,
                        sensor_range: seed.is_multiple_of(3).then_some(1 + (seed % 64) as u32),
                        sensing: match seed % 4 {
                            0 => Vec::new(),
                            n => vec![
                                SensingSpec {
                                    tick: seed % 9,
                                    range: (seed % 65) as u32
                                };
                                n as usize
                            ],
                        },
                        planner_memory: None,
                        plan_budget: None,
                        crowd: false,
                        crowd_budget: (seed % 3 == 1).then_some(1 + (seed % 40) as usize),
                        rotation: false,
                    }
                },
            )
    })
}

/// What every successfully parsed scenario must satisfy.
fn assert_consistent(s: &Scenario) {
    assert_eq!(
        s.grid.len(),
        s.grid.width() as usize * s.grid.height() as usize
    );
    assert!(s.grid.width() > 0 && s.grid.height() > 0);
    s.validate("parsed").expect("a parsed scenario is valid");
    assert_eq!(&parse(&s.to_ron()).expect("its RON parses"), s);
}

/// A mutation of a valid text.
#[derive(Clone, Debug)]
enum Mutation {
    Truncate(Index),
    Replace(Index, u8),
    Insert(Index, u8),
    Delete(Index),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    // Bytes that matter to RON are likelier than arbitrary ones.
    let byte = prop_oneof![
        3 => prop::sample::select(b"()[],:\"'#./*r0123456789 \nWFS".to_vec()),
        1 => any::<u8>(),
    ];
    prop_oneof![
        any::<Index>().prop_map(Mutation::Truncate),
        (any::<Index>(), byte.clone()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<Index>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<Index>().prop_map(Mutation::Delete),
    ]
}

fn mutate(text: &str, m: &Mutation) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    match *m {
        Mutation::Truncate(i) => b.truncate(i.index(b.len() + 1)),
        Mutation::Replace(i, x) if !b.is_empty() => {
            let i = i.index(b.len());
            b[i] = x;
        }
        Mutation::Insert(i, x) => b.insert(i.index(b.len() + 1), x),
        Mutation::Delete(i) if !b.is_empty() => {
            b.remove(i.index(b.len()));
        }
        Mutation::Replace(..) | Mutation::Delete(_) => {}
    }
    b
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(512))]

    #[test]
    fn random_scenarios_round_trip_exactly(s in arb_scenario()) {
        let text = s.to_ron();
        let back = parse(&text);
        prop_assert_eq!(back.as_ref(), Ok(&s), "{}", text);
        // One row per line, as written.
        let row_lines = text.lines().filter(|l| l.trim_start().starts_with('"')).count();
        prop_assert_eq!(row_lines, s.grid.height() as usize);
    }

    #[test]
    fn truncated_files_never_parse(s in arb_scenario(), cut in any::<Index>()) {
        let text = s.to_ron();
        let end = text.trim_end().len();
        let cut = cut.index(end);
        let e = parse(&text[..cut]).expect_err("a truncated file must not parse");
        prop_assert!(e.line.is_some(), "{}", e);
    }

    #[test]
    fn mutated_files_never_panic_nor_half_parse(
        s in arb_scenario(),
        muts in prop::collection::vec(arb_mutation(), 1..4),
    ) {
        let mut text = s.to_ron();
        for m in &muts {
            text = String::from_utf8_lossy(&mutate(&text, m)).into_owned();
        }
        match parse(&text) {
            Ok(parsed) => assert_consistent(&parsed),
            Err(e) => {
                prop_assert_eq!(&e.file, "maps/x.ron");
                prop_assert!(!e.message.is_empty());
                let lines = text.lines().count().max(1);
                prop_assert!(e.line.is_none_or(|l| (1..=lines).contains(&l)), "{} of {}", e, lines);
            }
        }
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(s) = parse(&String::from_utf8_lossy(&bytes)) {
            assert_consistent(&s);
        }
    }

    #[test]
    fn ron_like_strings_never_panic(text in r#"[()\[\]{},:"'#./*!rbS0-9a-z_ \n]{0,300}"#) {
        if let Ok(s) = parse(&text) {
            assert_consistent(&s);
        }
    }

    #[test]
    fn mutations_of_the_example_never_panic(
        muts in prop::collection::vec(arb_mutation(), 1..6),
    ) {
        let mut text = EXAMPLE.clone();
        for m in &muts {
            text = String::from_utf8_lossy(&mutate(&text, m)).into_owned();
        }
        if let Ok(s) = parse(&text) {
            assert_consistent(&s);
        }
    }
}

#[test]
fn crowd_budget_is_optional_round_trips_and_refuses_zero() {
    let plain = Scenario::parse(r#"(rows: ["...."])"#, "c.ron").unwrap();
    assert_eq!(plain.crowd_budget, None);
    assert!(!plain.to_ron().contains("crowd_budget"));
    let start = plain.start(plain.config(gridwalk_core::Algorithm::DStarLite));
    let default = gridwalk_core::mapf::DEFAULT_BUDGET;
    assert_eq!(start.sim.crowd_budget(), default);
    let set = Scenario::parse(r#"(rows: ["...."], crowd_budget: 3)"#, "c.ron").unwrap();
    assert_eq!(set.crowd_budget, Some(3));
    let again = Scenario::parse(&set.to_ron(), "c.ron").unwrap();
    assert_eq!(again, set);
    let start = set.start(set.config(gridwalk_core::Algorithm::DStarLite));
    assert_eq!(start.sim.crowd_budget(), 3);
    assert_eq!(start.sim.to_scenario().crowd_budget, Some(3));
    let zero = Scenario::parse("(\n rows: [\"..\"],\n crowd_budget: 0,\n)", "c.ron");
    check_error(
        &zero.unwrap_err(),
        "c.ron",
        3,
        &["crowd_budget", "at least 1"],
    );
}
