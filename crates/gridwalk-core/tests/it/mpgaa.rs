//! MPGAA\* against Dijkstra: random maps whose costs go up and down round after round, with
//! several agents of one goal walking; the Moving AI lengths; the GPPC instance; its traces;
//! and the reuse that makes it MPGAA\*: a second agent stops on the first one's path.

use std::path::Path;

use gridwalk_core::Algorithm;
use gridwalk_core::cost::{self, INFINITY};
use gridwalk_core::format::gppc;
use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::search::mpgaa::{FlatMpgaa, Mpgaa, next_direction};
use gridwalk_core::trace::{ExpansionKind, Step};
use gridwalk_core::{Connectivity, GoalPlanner, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common::reference_costs;

/// Every start's cost, next step and path against `truth` (Dijkstra costs to the goal); and
/// every cell the planner claims to know is exact too.
fn check(p: &Mpgaa, grid: &Grid, conn: Connectivity, starts: &[usize]) -> Result<(), String> {
    let truth = reference_costs(grid, p.goal(), conn);
    for &s in starts {
        let want = truth[s];
        let got = p.cost_to_goal(s);
        if got != want {
            return Err(format!(
                "start {}: cost {got}, Dijkstra {want}",
                grid.pos(s)
            ));
        }
        match p.path(grid, s) {
            None if want == INFINITY => {
                if p.next_step(grid, s).is_some() {
                    return Err(format!("start {}: no path but a step", grid.pos(s)));
                }
            }
            None => return Err(format!("start {}: no path, Dijkstra {want}", grid.pos(s))),
            Some(path) => {
                path.validate(grid, conn)
                    .map_err(|e| format!("start {}: illegal path {e:?}", grid.pos(s)))?;
                let ends = (path.cells[0], *path.cells.last().unwrap());
                if ends != (grid.pos(s), grid.pos(p.goal())) || path.cost != want {
                    return Err(format!("start {}: path {path:?}, want {want}", grid.pos(s)));
                }
                let step = path.cells.get(1).map(|&q| grid.index(q).unwrap());
                if p.next_step(grid, s) != step {
                    return Err(format!("start {}: next step off its path", grid.pos(s)));
                }
                if let Some((n, c)) = p.next_move(grid, s)
                    && grid.move_cost(s, n, conn) != Some(c)
                {
                    return Err(format!("start {}: next move's cost is wrong", grid.pos(s)));
                }
            }
        }
    }
    for (cell, &t) in truth.iter().enumerate() {
        let got = p.cost_to_goal(cell);
        if got != INFINITY && grid.weight(cell) != 0 && got != t {
            return Err(format!(
                "cell {}: claims {got}, Dijkstra {t}",
                grid.pos(cell)
            ));
        }
    }
    Ok(())
}

#[derive(Clone, Debug)]
struct Case {
    width: u32,
    height: u32,
    eight: bool,
    cells: Vec<(u8, u8)>,
    density: u8,
    goal: Index,
    agents: Vec<Index>,
    /// Per round: (cell, terrain code): 0 wall, 1 plain, 2–10 weight 1–9.
    rounds: Vec<Vec<(Index, u8)>>,
}

fn case() -> impl Strategy<Value = Case> {
    let size = prop_oneof![
        6 => (1u32..=10, 1u32..=10),
        3 => (1u32..=24, 1u32..=24),
        1 => (1u32..=48, 1u32..=48),
    ];
    (size, any::<bool>(), 0u8..=50)
        .prop_flat_map(|((width, height), eight, density)| {
            let n = (width * height) as usize;
            (
                Just((width, height, eight, density)),
                prop::collection::vec((0u8..100, 1u8..=9), n),
                any::<Index>(),
                prop::collection::vec(any::<Index>(), 1..=6),
                prop::collection::vec(
                    prop::collection::vec((any::<Index>(), 0u8..=10), 0..10),
                    0..10,
                ),
            )
        })
        .prop_map(
            |((width, height, eight, density), cells, goal, agents, rounds)| Case {
                width,
                height,
                eight,
                cells,
                density,
                goal,
                agents,
                rounds,
            },
        )
}

fn terrain(code: u8) -> Terrain {
    match code {
        0 => Terrain::Wall,
        1 => Terrain::FREE,
        w => Terrain::Weight(w - 1),
    }
}

fn run_case(c: &Case) -> Result<(), String> {
    let conn = if c.eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let mut grid = Grid::new(c.width, c.height).unwrap();
    let n = grid.len();
    for (i, &(roll, w)) in c.cells.iter().enumerate() {
        let t = if roll < c.density {
            Terrain::Wall
        } else {
            Terrain::Weight(w)
        };
        grid.set(grid.pos(i), t).unwrap();
    }
    let goal = c.goal.index(n);
    let mut agents: Vec<usize> = c.agents.iter().map(|a| a.index(n)).collect();
    for &cell in agents.iter().chain([&goal]) {
        grid.set(grid.pos(cell), Terrain::FREE).unwrap();
    }
    let h = Heuristic::default_for(conn);
    let mut p = Mpgaa::new(&grid, grid.pos(goal), conn, h).unwrap();
    // The same planner with whole-map arrays must do exactly the same work.
    let mut twin = FlatMpgaa::with_store(&grid, grid.pos(goal), conn, h).unwrap();
    for round in 0..=c.rounds.len() {
        p.set_starts(&grid, &agents);
        twin.set_starts(&grid, &agents);
        let stats = p.compute(&grid);
        if stats.expanded as usize != p.last_expanded().len() {
            return Err("expanded count and last_expanded disagree".into());
        }
        if twin.compute(&grid) != stats || twin.last_expanded() != p.last_expanded() {
            return Err(format!("round {round}: flat and tiled work differ"));
        }
        if (0..n).any(|c| twin.cost_to_goal(c) != p.cost_to_goal(c)) {
            return Err(format!("round {round}: flat and tiled costs differ"));
        }
        check(&p, &grid, conn, &agents).map_err(|e| format!("round {round}: {e}"))?;
        // Every agent takes its step, then the map changes (never under an agent or the goal).
        for a in agents.iter_mut() {
            if let Some(next) = p.next_step(&grid, *a) {
                *a = next;
            }
        }
        let Some(edits) = c.rounds.get(round) else {
            break;
        };
        let mut changed = Vec::new();
        for &(cell, code) in edits {
            let cell = cell.index(n);
            if cell != goal && !agents.contains(&cell) {
                grid.set(grid.pos(cell), terrain(code)).unwrap();
                changed.push(cell);
            }
        }
        p.cells_changed(&grid, &changed);
        twin.cells_changed(&grid, &changed);
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(1024))]

    /// Costs go up (walls, heavier weights) and down (cleared walls, lighter weights) between
    /// computes; several agents share the goal and walk.
    #[test]
    fn mpgaa_matches_dijkstra_through_increases_and_decreases(c in case()) {
        run_case(&c).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn a_second_agent_stops_on_the_first_ones_path() {
    let grid = Grid::new(40, 40).unwrap();
    let conn = Connectivity::Eight;
    let goal = Pos::new(39, 20);
    let mut p = Mpgaa::new(&grid, goal, conn, Heuristic::Octile).unwrap();
    let first = grid.index(Pos::new(0, 20)).unwrap();
    p.set_starts(&grid, &[first]);
    let alone = p.compute(&grid).expanded;
    // Just beside the first path, a few columns along: its search meets that path at once.
    let second = grid.index(Pos::new(5, 24)).unwrap();
    p.set_starts(&grid, &[first, second]);
    let with_reuse = p.compute(&grid).expanded;
    assert!(with_reuse < 12, "second agent expanded {with_reuse}");
    assert!(alone > with_reuse);
    check(&p, &grid, conn, &[first, second]).unwrap();
    // A compute with nothing changed does nothing.
    assert_eq!(p.compute(&grid).expanded, 0);
}

#[test]
fn a_wall_on_the_path_and_its_removal() {
    let mut grid = Grid::new(30, 9).unwrap();
    let conn = Connectivity::Four;
    let mut p = Mpgaa::new(&grid, Pos::new(29, 4), conn, Heuristic::Manhattan).unwrap();
    let s = grid.index(Pos::new(0, 4)).unwrap();
    p.set_starts(&grid, &[s]);
    p.compute(&grid);
    let wall: Vec<usize> = (0..9)
        .map(|y| grid.index(Pos::new(15, y)).unwrap())
        .collect();
    for &w in &wall[..8] {
        grid.set(grid.pos(w), Terrain::Wall).unwrap();
    }
    p.cells_changed(&grid, &wall[..8]);
    p.compute(&grid);
    check(&p, &grid, conn, &[s]).unwrap();
    // Closed off entirely: no path, and known so.
    grid.set(grid.pos(wall[8]), Terrain::Wall).unwrap();
    p.cells_changed(&grid, &wall[8..]);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(s), INFINITY);
    assert!(p.path(&grid, s).is_none());
    // Opened again in the middle: the learned ∞ is lowered by the consistency pass.
    grid.set(grid.pos(wall[4]), Terrain::FREE).unwrap();
    p.cells_changed(&grid, &wall[4..5]);
    let stats = p.compute(&grid);
    check(&p, &grid, conn, &[s]).unwrap();
    let lowered = p.last_trace().expansions().count();
    assert_eq!(lowered, 0, "not tracing");
    assert!(stats.expanded > 0);
}

#[test]
fn the_goal_walled_and_cleared() {
    let mut grid = Grid::new(6, 6).unwrap();
    let conn = Connectivity::Eight;
    let goal = Pos::new(3, 3);
    let gi = grid.index(goal).unwrap();
    let mut p = Mpgaa::new(&grid, goal, conn, Heuristic::Octile).unwrap();
    let s = [0, 35];
    p.set_starts(&grid, &s);
    p.compute(&grid);
    check(&p, &grid, conn, &s).unwrap();
    grid.set(goal, Terrain::Wall).unwrap();
    p.cells_changed(&grid, &[gi]);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(0), INFINITY);
    assert!(p.next_step(&grid, 0).is_none());
    grid.set(goal, Terrain::FREE).unwrap();
    p.cells_changed(&grid, &[gi]);
    p.compute(&grid);
    check(&p, &grid, conn, &s).unwrap();
}

#[test]
fn the_trace_closes_cells_with_their_cost_from_the_agent() {
    let mut grid = Grid::new(12, 12).unwrap();
    for y in 2..10 {
        grid.set(Pos::new(6, y), Terrain::Wall).unwrap();
    }
    let conn = Connectivity::Eight;
    let mut p = Mpgaa::new(&grid, Pos::new(11, 6), conn, Heuristic::Octile).unwrap();
    p.set_tracing(true);
    let starts = [
        grid.index(Pos::new(0, 6)).unwrap(),
        grid.index(Pos::new(1, 7)).unwrap(),
    ];
    p.set_starts(&grid, &starts);
    let stats = p.compute(&grid);
    let t = p.last_trace();
    assert_eq!(t.expansion_count() as u64, stats.expanded);
    let costs: Vec<_> = t.expansions().map(|e| (e.kind, e.cost)).collect();
    assert!(costs.iter().all(|&(k, _)| k == ExpansionKind::Close));
    // Two searches, each beginning at its agent with cost 0; g never falls within one.
    let zeros = costs.iter().filter(|&&(_, c)| c == 0).count();
    assert_eq!(zeros, 2);
    // The queue is empty after each search: everything opened is expanded or dropped.
    assert!(t.frontier(t.steps.len(), grid.len()).iter().all(|&q| !q));
    assert!(t.steps.iter().any(|s| matches!(s, Step::Drop(_))));
    // The second search stopped on the first one's path: its last cell has a `next`.
    let last = t.expansions().last().unwrap().cell as usize;
    let info = p.inspect(&grid, last).unwrap();
    assert!(next_direction(&info).is_some() || last == p.goal());
    assert_eq!(info.h, Some(p.cost_to_goal(last)));
}

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/movingai");

/// Every problem of `name`'s scenario file taken by `step`: MPGAA\*'s length is the file's.
fn movingai_lengths(name: &str, step: usize) {
    let dir = Path::new(DATA);
    let grid = load_map(&dir.join(format!("{name}.map"))).unwrap();
    let problems = load_scen(&dir.join(format!("{name}.map.scen"))).unwrap();
    for pr in problems.iter().step_by(step) {
        let mut p = Mpgaa::new(&grid, pr.goal, Connectivity::Eight, Heuristic::Octile).unwrap();
        let s = grid.index(pr.start).unwrap();
        p.set_starts(&grid, &[s]);
        p.compute(&grid);
        let found = cost::to_f64(p.cost_to_goal(s));
        let path = p.path(&grid, s).expect("benchmark problems are solvable");
        path.validate(&grid, Connectivity::Eight).unwrap();
        assert_eq!(path.cost, p.cost_to_goal(s));
        // Six significant digits in the file.
        let off = (found - pr.optimal).abs() / pr.optimal.max(1.0);
        assert!(off <= 1e-5, "{name}:{}: {found} vs {}", pr.line, pr.optimal);
    }
}

#[test]
fn mpgaa_arena_lengths() {
    movingai_lengths("arena", 1);
}

#[test]
fn mpgaa_lak304d_and_64room_lengths() {
    movingai_lengths("lak304d", 3);
    movingai_lengths("64room_000", 41);
}

#[test]
fn mpgaa_answers_every_gppc_query() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gppc/aurora_part.scen");
    let instance = gppc::load(&path).expect("the instance loads");
    let report =
        gridwalk_core::tracks::gppc_dynamic::run(&instance, None, Algorithm::Mpgaa).unwrap();
    assert_eq!((report.queries, report.patches), (432, 1040));
    assert!(report.mismatches.is_empty(), "{report}");
}

/// One agent walks from `start` to `goal` of `truth` knowing only what it sensed (every cell
/// within Chebyshev distance `range`; plain ground elsewhere), its planner repairing on the
/// known map after each step. Returns the planner once the agent arrived.
fn walk_unknown(truth: &Grid, start: Pos, goal: Pos, range: u32) -> Mpgaa {
    let conn = Connectivity::Eight;
    let mut known = Grid::new(truth.width(), truth.height()).unwrap();
    let mut p = Mpgaa::new(&known, goal, conn, Heuristic::Octile).unwrap();
    let (goal, mut at) = (known.index(goal).unwrap(), known.index(start).unwrap());
    for _ in 0..known.len() {
        let here = known.pos(at);
        let mut changed = Vec::new();
        let (w, h) = (known.width(), known.height());
        for y in here.y.saturating_sub(range)..=(here.y + range).min(h - 1) {
            for x in here.x.saturating_sub(range)..=(here.x + range).min(w - 1) {
                let (pos, c) = (Pos::new(x, y), known.index(Pos::new(x, y)).unwrap());
                let t = truth.terrain(pos).unwrap();
                if known.terrain(pos).unwrap() != t {
                    known.set(pos, t).unwrap();
                    changed.push(c);
                }
            }
        }
        p.cells_changed(&known, &changed);
        p.set_starts(&known, &[at]);
        p.compute(&known);
        if at == goal {
            return p;
        }
        check(&p, &known, conn, &[at]).unwrap();
        at = p.next_step(&known, at).expect("a solvable problem");
    }
    panic!("{start} to {} did not arrive", known.pos(goal));
}

/// The memory MPGAA\* reports follows the cells its searches touched: on lak304d in unknown
/// terrain, a few tens of bytes per touched cell (the tile table, the open list's handles and
/// the tiles' untouched cells included), well below per-map-cell arrays.
#[test]
fn mpgaa_memory_follows_the_touched_cells() {
    let dir = Path::new(DATA);
    let grid = load_map(&dir.join("lak304d.map")).unwrap();
    let problems = load_scen(&dir.join("lak304d.map.scen")).unwrap();
    for pr in problems.iter().step_by(97).take(6) {
        let p = walk_unknown(&grid, pr.start, pr.goal, 1);
        let (bytes, touched) = (p.memory_bytes(), p.touched());
        assert!(touched > 0);
        // The tile table is 1/4 byte per cell of the map (64 columns of 49 rows of tiles).
        let table = 64 * 49 * 4;
        assert!(
            bytes <= table + 80 * touched + 4096,
            "line {}: {bytes} bytes for {touched} touched cells",
            pr.line
        );
    }
}

/// A cell no search touched reads as the heuristic, with no `next` and no known cost, and an
/// edit far from every search claims nothing.
#[test]
fn untouched_cells_read_their_initial_state_and_cost_nothing() {
    let mut grid = Grid::new(1024, 1024).unwrap();
    let conn = Connectivity::Eight;
    let goal = Pos::new(10, 10);
    let mut p = Mpgaa::new(&grid, goal, conn, Heuristic::Octile).unwrap();
    let fresh = p.memory_bytes();
    let s = grid.index(Pos::new(30, 20)).unwrap();
    p.set_starts(&grid, &[s]);
    p.compute(&grid);
    check(&p, &grid, conn, &[s]).unwrap();
    let used = p.memory_bytes();
    // The tile table (256 KiB) and a few blocks; per-cell arrays would take 30 MB.
    assert!(
        fresh < 300 << 10 && used < fresh + (64 << 10),
        "{fresh} then {used}"
    );
    assert!(p.touched() > 0 && p.touched() < 400, "{}", p.touched());
    let far = Pos::new(900, 800);
    let f = grid.index(far).unwrap();
    assert_eq!(p.learned_h(f), Heuristic::Octile.between(far, goal));
    assert_eq!((p.next_cell(&grid, f), p.cost_to_goal(f)), (None, INFINITY));
    let info = p.inspect(&grid, f).unwrap();
    assert_eq!(
        (info.h, info.state),
        (Some(p.learned_h(f)), Some("no next"))
    );
    grid.set(far, Terrain::Wall).unwrap();
    p.cells_changed(&grid, &[f]);
    let touched = p.touched();
    // The change drops every verification: the start's chain is walked again, from the start.
    assert_eq!(p.compute(&grid).expanded, 1);
    // Only the list of pending cells may have grown.
    assert_eq!(p.touched(), touched);
    assert!(p.memory_bytes() <= used + 256);
    check(&p, &grid, conn, &[s]).unwrap();
}
