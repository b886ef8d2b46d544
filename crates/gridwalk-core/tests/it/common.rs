//! Helpers shared by the integration tests: an independent reference for costs, random
//! worlds, a scenario example and error checks.
#![allow(dead_code)] // the CLI's tests include this file too, and use only part of it

use std::ops::RangeInclusive;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use gridwalk_core::cost::{Cost, INFINITY};
use gridwalk_core::format::{FormatError, Scenario};
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::sim::{AgentStatus, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Pos, Terrain};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// A property test's settings: `cases` cases, and its failures' seeds kept with every other
/// regression of the crate, under `proptest-regressions/` at its root: those of
/// `tests/it/x.rs` in `proptest-regressions/tests/it/x.txt` (proptest's default would put them
/// in `tests/proptest-regressions/`), those of a unit test in `src/a/b.rs` in
/// `proptest-regressions/a/b.txt` (the default). proptest replays the seeds before new cases.
/// `PROPTEST_CASES=N` in the environment runs N cases instead, for a long hunt.
pub fn proptest_cases(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        // Relative to the folder above the one holding the test binary's `main.rs`: `tests/`.
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel(
            "../proptest-regressions/tests/it",
        ))),
        ..ProptestConfig::default()
    }
}

/// One `#[test]` per case, each calling `$run($case)`, so the cases run in parallel:
/// `tests_of!(run; astar_passes: Algorithm::AStar, dstar_passes: Algorithm::DStar)`.
macro_rules! tests_of {
    ($run:path; $($name:ident: $case:expr),+ $(,)?) => {
        $(
            #[test]
            fn $name() {
                $run($case);
            }
        )+
    };
}

/// Costs from cell `from` to every cell by a plain Dijkstra over the grid's legal moves, written
/// apart from the crate's searches. Moves cost the same both ways, so these are also the costs
/// *to* `from`. [`INFINITY`] where unreachable; all of it when `from` is a wall.
pub fn reference_costs(grid: &Grid, from: usize, conn: Connectivity) -> Vec<Cost> {
    let mut dist = vec![INFINITY; grid.len()];
    if grid.weight(from) == 0 {
        return dist;
    }
    let mut heap = BinaryHeap::from([Reverse((0, from))]);
    dist[from] = 0;
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        grid.for_each_neighbor(u, conn, |v, c| {
            if d + c < dist[v] {
                dist[v] = d + c;
                heap.push(Reverse((d + c, v)));
            }
        });
    }
    dist
}

/// A random map with a goal and agents on free cells, and rounds of edits `(x, y, weight)`.
#[derive(Debug, Clone)]
pub struct World {
    pub grid: Grid,
    pub conn: Connectivity,
    pub goal: Pos,
    pub agents: Vec<Pos>,
    pub rounds: Vec<Vec<(u32, u32, u8)>>,
}

/// The sizes a [`world`] is drawn from.
pub struct WorldShape {
    pub sides: RangeInclusive<u32>,
    pub max_density: u32,
    pub agents: std::ops::Range<usize>,
    pub rounds: std::ops::Range<usize>,
    pub edit_weights: RangeInclusive<u8>,
}

impl WorldShape {
    /// Sides, wall density (%), agents, rounds of edits and edit weights (0 for walls).
    pub fn new(
        sides: RangeInclusive<u32>,
        max_density: u32,
        agents: std::ops::Range<usize>,
        rounds: std::ops::Range<usize>,
        edit_weights: RangeInclusive<u8>,
    ) -> WorldShape {
        WorldShape {
            sides,
            max_density,
            agents,
            rounds,
            edit_weights,
        }
    }
}

/// Random worlds: walls at up to `max_density` %, a quarter of the free cells weighted.
pub fn world(shape: WorldShape) -> impl Strategy<Value = World> {
    let WorldShape {
        sides,
        max_density,
        agents,
        rounds,
        edit_weights,
    } = shape;
    (sides.clone(), sides, 0..=max_density, any::<bool>())
        .prop_flat_map(move |(w, h, density, eight)| {
            let edit = (0..w, 0..h, edit_weights.clone());
            (
                Just((density, eight)),
                prop::collection::vec((0u32..100, 1u8..=9, 0u32..100), (w * h) as usize),
                (0..w, 0..h),
                prop::collection::vec((0..w, 0..h), agents.clone()),
                prop::collection::vec(prop::collection::vec(edit, 0..6), rounds.clone()),
                Just((w, h)),
            )
        })
        .prop_map(|((density, eight), cells, goal, agents, rounds, (w, h))| {
            let mut grid = Grid::new(w, h).unwrap();
            for (i, &(r, weight, wr)) in cells.iter().enumerate() {
                let t = match (r < density, wr < 25) {
                    (true, _) => Terrain::Wall,
                    (false, true) => Terrain::Weight(weight),
                    (false, false) => Terrain::FREE,
                };
                grid.set(grid.pos(i), t).unwrap();
            }
            let goal = Pos::from(goal);
            let agents: Vec<Pos> = agents.into_iter().map(Pos::from).collect();
            for &p in agents.iter().chain([&goal]) {
                grid.set(p, Terrain::FREE).unwrap();
            }
            let conn = if eight {
                Connectivity::Eight
            } else {
                Connectivity::Four
            };
            World {
                grid,
                conn,
                goal,
                agents,
                rounds,
            }
        })
}

/// The example scenario of the format tests, with `extra_edits` (RON edit tuples) appended.
pub fn example(extra_edits: &[&str]) -> String {
    let mut edits = vec![
        "(tick: 3, set: Wall, cells: [(5, 0), (5, 1)]),".to_owned(),
        "(tick: 7, set: Free, cells: [(5, 1)]),".to_owned(),
        "(tick: 8, set: Weight(4), cells: [(6, 2)]),".to_owned(),
    ];
    edits.extend(extra_edits.iter().map(|e| format!("{e},")));
    format!(
        r#"(
    rows: [
        "..........",
        "..#####...",
        "....3.....",
    ],
    connectivity: Eight,
    agents: [
        (start: (0, 0), goal: (9, 2)),
        (start: (1, 2), goal: (9, 2), tick: 4),
    ],
    edits: [
        {}
    ],
)
"#,
        edits.join("\n        ")
    )
}

/// Asserts that `e` is about `file`, on `line`, and that its message holds every one of
/// `words`.
#[track_caller]
pub fn check_error(e: &FormatError, file: &str, line: usize, words: &[&str]) {
    assert_eq!(e.file, file, "{e}");
    assert_eq!(e.line, Some(line), "wrong line in: {e}");
    for w in words {
        assert!(e.message.contains(w), "{w:?} missing from: {e}");
    }
    assert!(
        e.to_string().starts_with(&format!("{file}:{line}: ")),
        "{e}"
    );
}

/// What each tick of a replay did, without the timings, for comparing runs: the tick, its
/// refused edits, the cells expanded, the planner count, and every agent present (its scenario
/// index, cell, goal, status and remaining cost). `each` checks the replay after every tick.
pub fn play(
    s: &Scenario,
    algo: Algorithm,
    ticks: usize,
    mut each: impl FnMut(&Replay),
) -> (Vec<String>, Replay) {
    let mut r = Replay::new(s.clone(), algo);
    let mut out = Vec::new();
    for _ in 0..=ticks {
        let tick = r.step();
        let agents: Vec<_> = r
            .agents()
            .filter_map(|(i, id)| {
                let a = r.sim().agent(id)?;
                Some((i, a.pos, a.goal, a.status, a.remaining))
            })
            .collect();
        let refused: Vec<_> = tick.applied.refused.iter().map(|(p, _)| *p).collect();
        out.push(format!(
            "{} {refused:?} {} {} {agents:?}",
            tick.tick,
            tick.stats.search.expanded,
            r.sim().planner_count()
        ));
        each(&r);
    }
    (out, r)
}

/// Sends every agent that arrived on to the goal after its own in `goals`, or the next one
/// still open after that (a former goal may have been walled).
pub fn send_arrived_on(sim: &mut Simulation, goals: &[Pos]) {
    let arrived: Vec<(u32, Pos)> = sim
        .agents()
        .filter(|a| a.status == AgentStatus::Arrived)
        .map(|a| (a.id, a.goal))
        .collect();
    for (id, g) in arrived {
        let i = goals.iter().position(|&x| x == g).unwrap_or(0);
        for k in 1..=goals.len() {
            if sim.set_goal(id, goals[(i + k) % goals.len()]).is_ok() {
                break;
            }
        }
    }
}
