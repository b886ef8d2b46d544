//! D* against Dijkstra: random maps edited round after round with agents walking, and the
//! regressions that incremental planners are known to get wrong.

use gridwalk_core::cost::INFINITY;
use gridwalk_core::queue::SortedList;
use gridwalk_core::search::dstar::Key;
use gridwalk_core::search::{DStar, dijkstra};
use gridwalk_core::{Connectivity, GoalPlanner, Grid, Pos, Terrain};
use proptest::prelude::*;
use proptest::sample::Index;

const CONNS: [Connectivity; 2] = [Connectivity::Four, Connectivity::Eight];

/// Checks everything the planner promises for each agent against Dijkstra on `grid`.
fn check_agents(
    d: &impl GoalPlanner,
    grid: &Grid,
    conn: Connectivity,
    agents: &[usize],
) -> Result<(), String> {
    let goal = d.goal();
    for &a in agents {
        let reference = dijkstra(grid, grid.pos(a), grid.pos(goal), conn)
            .unwrap()
            .path;
        let want = reference.as_ref().map_or(INFINITY, |p| p.cost);
        let got = d.cost_to_goal(a);
        if got != want {
            return Err(format!(
                "agent {}: cost_to_goal {got}, Dijkstra {want}",
                grid.pos(a)
            ));
        }
        let path = d.path(grid, a);
        let next = d.next_step(grid, a);
        match (&path, &reference) {
            (None, None) => {
                if next.is_some() {
                    return Err(format!("agent {}: no path but a next step", grid.pos(a)));
                }
            }
            (Some(p), Some(r)) => {
                p.validate(grid, conn)
                    .map_err(|e| format!("agent {}: illegal path {e:?}", grid.pos(a)))?;
                if p.cells[0] != grid.pos(a) || *p.cells.last().unwrap() != grid.pos(goal) {
                    return Err(format!("agent {}: path has the wrong ends", grid.pos(a)));
                }
                if p.cost != r.cost {
                    return Err(format!(
                        "agent {}: path cost {}, Dijkstra {}",
                        grid.pos(a),
                        p.cost,
                        r.cost
                    ));
                }
                let want_next = p.cells.get(1).map(|&q| grid.index(q).unwrap());
                if next != want_next {
                    return Err(format!(
                        "agent {}: next step {next:?}, path goes to {want_next:?}",
                        grid.pos(a)
                    ));
                }
            }
            _ => {
                return Err(format!(
                    "agent {}: planner path {:?}, Dijkstra path {:?}",
                    grid.pos(a),
                    path.as_ref().map(|p| p.cost),
                    reference.as_ref().map(|p| p.cost)
                ));
            }
        }
    }
    Ok(())
}

/// set_starts + compute, then [`check_agents`]; also checks the expansion record.
fn compute_and_check(
    d: &mut DStar,
    grid: &Grid,
    conn: Connectivity,
    agents: &[usize],
) -> Result<(), String> {
    d.set_starts(grid, agents);
    let stats = d.compute(grid);
    if stats.expanded as usize != d.last_expanded().len() {
        return Err("expanded count and last_expanded disagree".into());
    }
    if stats.pops < stats.expanded {
        return Err("fewer pops than expansions".into());
    }
    check_agents(d, grid, conn, agents)
}

fn set(grid: &mut Grid, d: &mut DStar, p: Pos, t: Terrain) {
    grid.set(p, t).unwrap();
    let i = grid.index(p).unwrap();
    d.cells_changed(grid, &[i]);
}

fn idx(grid: &Grid, x: u32, y: u32) -> usize {
    grid.index(Pos::new(x, y)).unwrap()
}

// ---------------------------------------------------------------------------------------------
// The property: random maps, random edits, walking agents.

#[derive(Clone, Debug)]
enum Edit {
    Wall,
    Clear,
    Weight(u8),
}

#[derive(Clone, Debug)]
struct Case {
    width: u32,
    height: u32,
    conn: Connectivity,
    /// Per cell: a roll 0–99 (a wall when below `density`) and a weight.
    cells: Vec<(u8, u8)>,
    density: u8,
    weighted: bool,
    goal: Index,
    agents: Vec<Index>,
    rounds: Vec<Vec<(Index, Edit)>>,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => Just(Edit::Wall),
        2 => Just(Edit::Clear),
        2 => (1u8..=9).prop_map(Edit::Weight),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let size = prop_oneof![
        6 => (1u32..=8, 1u32..=8),
        3 => (1u32..=20, 1u32..=20),
        1 => (1u32..=64, 1u32..=64),
    ];
    (size, any::<bool>(), 0u8..=60, any::<bool>())
        .prop_flat_map(|((width, height), eight, density, weighted)| {
            let n = (width * height) as usize;
            (
                Just((width, height, eight, density, weighted)),
                prop::collection::vec((0u8..100, 1u8..=9), n),
                any::<Index>(),
                prop::collection::vec(any::<Index>(), 1..=4),
                prop::collection::vec(prop::collection::vec((any::<Index>(), edit()), 0..8), 0..10),
            )
        })
        .prop_map(
            |((width, height, eight, density, weighted), cells, goal, agents, rounds)| Case {
                width,
                height,
                conn: if eight {
                    Connectivity::Eight
                } else {
                    Connectivity::Four
                },
                cells,
                density,
                weighted,
                goal,
                agents,
                rounds,
            },
        )
}

fn run_case(c: &Case) -> Result<(), String> {
    let mut grid = Grid::new(c.width, c.height).unwrap();
    let n = grid.len();
    for (i, &(roll, w)) in c.cells.iter().enumerate() {
        let t = if roll < c.density {
            Terrain::Wall
        } else if c.weighted {
            Terrain::Weight(w)
        } else {
            Terrain::FREE
        };
        grid.set(grid.pos(i), t).unwrap();
    }
    let goal = c.goal.index(n);
    let mut agents: Vec<usize> = c.agents.iter().map(|a| a.index(n)).collect();
    // The goal and the agents stand on ground.
    for &cell in agents.iter().chain([&goal]) {
        if grid.weight(cell) == 0 {
            grid.set(grid.pos(cell), Terrain::FREE).unwrap();
        }
    }
    let mut d = DStar::new(&grid, grid.pos(goal), c.conn).unwrap();
    compute_and_check(&mut d, &grid, c.conn, &agents).map_err(|e| format!("initial: {e}"))?;

    for (r, round) in c.rounds.iter().enumerate() {
        let mut changed = Vec::new();
        for (cell, e) in round {
            let cell = cell.index(n);
            if cell == goal || agents.contains(&cell) {
                continue;
            }
            let t = match *e {
                Edit::Wall => Terrain::Wall,
                Edit::Clear => Terrain::FREE,
                Edit::Weight(w) => Terrain::Weight(w),
            };
            grid.set(grid.pos(cell), t).unwrap();
            changed.push(cell);
        }
        d.cells_changed(&grid, &changed);
        for a in agents.iter_mut() {
            // The field is not repaired yet, but a step must still be a legal move.
            if let Some(next) = d.next_step(&grid, *a) {
                if grid.move_cost(*a, next, c.conn).is_none() {
                    return Err(format!("round {r}: illegal step from {}", grid.pos(*a)));
                }
                *a = next;
            }
        }
        compute_and_check(&mut d, &grid, c.conn, &agents).map_err(|e| format!("round {r}: {e}"))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(768))]

    #[test]
    fn dstar_matches_dijkstra_through_edits(c in case()) {
        if let Err(e) = run_case(&c) {
            prop_assert!(false, "{}", e);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions.

#[test]
fn out_of_range_goal_is_an_error() {
    let grid = Grid::new(4, 3).unwrap();
    assert!(DStar::new(&grid, Pos::new(4, 0), Connectivity::Eight).is_err());
    assert!(DStar::new(&grid, Pos::new(0, 3), Connectivity::Four).is_err());
    assert!(DStar::new(&grid, Pos::new(3, 2), Connectivity::Four).is_ok());
}

#[test]
fn start_is_goal() {
    for conn in CONNS {
        for (w, h) in [(1, 1), (5, 5)] {
            let grid = Grid::new(w, h).unwrap();
            let goal = Pos::new(w / 2, h / 2);
            let g = grid.index(goal).unwrap();
            let mut d = DStar::new(&grid, goal, conn).unwrap();
            d.set_starts(&grid, &[g]);
            d.compute(&grid);
            assert_eq!(d.cost_to_goal(g), 0);
            assert_eq!(d.next_step(&grid, g), None);
            let p = d.path(&grid, g).unwrap();
            assert_eq!(p.cells, vec![goal]);
            assert_eq!(p.cost, 0);
        }
    }
}

#[test]
fn goal_enclosed_then_reachable_again() {
    for conn in CONNS {
        let mut grid = Grid::new(9, 9).unwrap();
        let mut d = DStar::new(&grid, Pos::new(4, 4), conn).unwrap();
        let agents = [idx(&grid, 0, 0), idx(&grid, 8, 8), idx(&grid, 4, 1)];
        compute_and_check(&mut d, &grid, conn, &agents).unwrap();
        let ring: Vec<Pos> = (3..=5)
            .flat_map(|y| (3..=5).map(move |x| Pos::new(x, y)))
            .filter(|&p| p != Pos::new(4, 4))
            .collect();
        for &p in &ring {
            set(&mut grid, &mut d, p, Terrain::Wall);
        }
        compute_and_check(&mut d, &grid, conn, &agents).unwrap();
        for &a in &agents {
            assert_eq!(d.cost_to_goal(a), INFINITY);
            assert_eq!(d.next_step(&grid, a), None);
            assert!(d.path(&grid, a).is_none());
        }
        // Open one side, then close it and open the opposite one.
        set(&mut grid, &mut d, Pos::new(4, 3), Terrain::FREE);
        compute_and_check(&mut d, &grid, conn, &agents).unwrap();
        assert!(agents.iter().all(|&a| d.cost_to_goal(a) < INFINITY));
        set(&mut grid, &mut d, Pos::new(4, 3), Terrain::Wall);
        compute_and_check(&mut d, &grid, conn, &agents).unwrap();
        assert!(agents.iter().all(|&a| d.cost_to_goal(a) == INFINITY));
        set(&mut grid, &mut d, Pos::new(5, 4), Terrain::Weight(7));
        compute_and_check(&mut d, &grid, conn, &agents).unwrap();
        assert!(agents.iter().all(|&a| d.cost_to_goal(a) < INFINITY));
    }
}

/// A D* planner on its grid with its agents, edited and checked against Dijkstra after each
/// batch of changes.
struct Fixture {
    grid: Grid,
    d: DStar,
    conn: Connectivity,
    agents: Vec<usize>,
}

impl Fixture {
    /// A `w`×`h` open grid with the goal and agents, computed and checked.
    fn new(w: u32, h: u32, goal: (u32, u32), conn: Connectivity, agents: &[(u32, u32)]) -> Fixture {
        let grid = Grid::new(w, h).unwrap();
        let d = DStar::new(&grid, goal.into(), conn).unwrap();
        let agents = agents.iter().map(|&(x, y)| idx(&grid, x, y)).collect();
        let mut case = Fixture {
            grid,
            d,
            conn,
            agents,
        };
        case.edit(&[]);
        case
    }

    /// Applies every change, then one compute, checked.
    fn edit(&mut self, changes: &[((u32, u32), Terrain)]) {
        for &(p, t) in changes {
            set(&mut self.grid, &mut self.d, p.into(), t);
        }
        compute_and_check(&mut self.d, &self.grid, self.conn, &self.agents).unwrap();
    }

    /// Whether each agent has a path.
    fn reach(&self) -> Vec<bool> {
        self.agents
            .iter()
            .map(|&a| self.d.cost_to_goal(a) < INFINITY)
            .collect()
    }
}

#[test]
fn the_goal_itself_walled_and_cleared() {
    for conn in CONNS {
        let mut c = Fixture::new(6, 4, (4, 2), conn, &[(0, 0), (5, 3)]);
        c.edit(&[((4, 2), Terrain::Wall)]);
        let g = idx(&c.grid, 4, 2);
        assert_eq!(c.d.cost_to_goal(g), INFINITY);
        assert!(c.d.path(&c.grid, g).is_none());
        c.edit(&[((4, 2), Terrain::Weight(3))]);
        assert_eq!(c.reach(), [true, true]);
    }
}

#[test]
fn an_agent_on_a_wall_has_no_path() {
    let mut grid = Grid::new(5, 5).unwrap();
    let conn = Connectivity::Eight;
    let mut d = DStar::new(&grid, Pos::new(4, 4), conn).unwrap();
    let a = idx(&grid, 1, 1);
    compute_and_check(&mut d, &grid, conn, &[a]).unwrap();
    set(&mut grid, &mut d, Pos::new(1, 1), Terrain::Wall);
    d.compute(&grid);
    assert_eq!(d.cost_to_goal(a), INFINITY);
    assert_eq!(d.next_step(&grid, a), None);
    assert!(d.path(&grid, a).is_none());
}

#[test]
fn wall_removed_next_to_a_blocked_agent() {
    for conn in CONNS {
        let mut c = Fixture::new(10, 7, (9, 6), conn, &[(1, 1)]);
        // Box the agent in.
        let ring: Vec<_> = (0..=2u32)
            .flat_map(|y| (0..=2u32).map(move |x| ((x, y), Terrain::Wall)))
            .filter(|&(p, _)| p != (1, 1))
            .collect();
        c.edit(&ring);
        assert_eq!(c.reach(), [false]);
        // A diagonal-only opening is no exit: corners are never cut.
        c.edit(&[((2, 2), Terrain::FREE)]);
        assert_eq!(c.reach(), [false]);
        // The wall right of the agent goes: now there is a way.
        c.edit(&[((2, 1), Terrain::FREE)]);
        assert_eq!(c.reach(), [true]);
    }
}

#[test]
fn no_false_no_path_behind_thin_walls() {
    for conn in CONNS {
        let mut c = Fixture::new(12, 9, (10, 4), conn, &[(1, 4), (0, 0), (3, 8)]);
        // A one-cell-thick wall at x = 6 with a gap at the bottom, checked cell by cell.
        for y in 0..8 {
            c.edit(&[((6, y), Terrain::Wall)]);
        }
        assert_eq!(c.reach(), [true; 3]);
        // Move the gap to the top, one cell per round.
        c.edit(&[((6, 8), Terrain::Wall)]);
        assert_eq!(c.reach(), [false; 3]);
        c.edit(&[((6, 0), Terrain::FREE)]);
        assert_eq!(c.reach(), [true; 3]);
        // A second thin wall at x = 8 with its gap at the bottom: a detour, never "no path".
        let wall: Vec<_> = (0..8).map(|y| ((8, y), Terrain::Wall)).collect();
        c.edit(&wall);
        assert_eq!(c.reach(), [true; 3]);
        // Shift that gap, by first opening the new one and then closing the old one.
        c.edit(&[((8, 3), Terrain::FREE), ((8, 8), Terrain::Wall)]);
        assert_eq!(c.reach(), [true; 3]);
    }
}

#[test]
fn no_path_through_a_diagonal_pinch() {
    // Walls at (2,0),(2,1) and (3,2),(3,3): with 8 neighbours the only link between the
    // halves would be the diagonal (2,2)-(3,1), which cuts two corners.
    let mut c = Fixture::new(6, 4, (5, 0), Connectivity::Eight, &[(0, 3)]);
    for p in [(2, 0), (2, 1), (3, 2), (3, 3)] {
        c.edit(&[(p, Terrain::Wall)]);
    }
    assert_eq!(c.reach(), [false]);
    c.edit(&[((3, 2), Terrain::FREE)]);
    assert_eq!(c.reach(), [true]);
}

/// Walks `agent` with next_step, repairing after each move as the simulation does. Fails if
/// a cell is entered twice (an oscillation) or the walk takes more steps than there are cells.
fn walk(d: &mut DStar, grid: &Grid, conn: Connectivity, mut agent: usize) -> usize {
    let mut seen = vec![false; grid.len()];
    seen[agent] = true;
    let mut steps = 0;
    loop {
        d.set_starts(grid, &[agent]);
        d.compute(grid);
        check_agents(d, grid, conn, &[agent]).unwrap();
        let Some(next) = d.next_step(grid, agent) else {
            return agent;
        };
        assert!(grid.move_cost(agent, next, conn).is_some());
        assert!(!seen[next], "the agent came back to {}", grid.pos(next));
        seen[next] = true;
        agent = next;
        steps += 1;
        assert!(steps <= grid.len(), "the walk does not end");
    }
}

#[test]
fn an_enclosed_agent_does_not_oscillate() {
    for conn in CONNS {
        let mut grid = Grid::new(11, 7).unwrap();
        let goal = Pos::new(10, 3);
        let mut d = DStar::new(&grid, goal, conn).unwrap();
        let start = idx(&grid, 3, 3);
        compute_and_check(&mut d, &grid, conn, &[start]).unwrap();
        // Walls around a 3×3 room centred on (3, 3); the old route leaves through its east side.
        for y in 1..=5 {
            for x in 1..=5 {
                if x == 1 || x == 5 || y == 1 || y == 5 {
                    set(&mut grid, &mut d, Pos::new(x, y), Terrain::Wall);
                }
            }
        }
        // Wherever it stands in the room, the agent has no step to take.
        for y in 2..=4 {
            for x in 2..=4 {
                let cell = idx(&grid, x, y);
                let end = walk(&mut d, &grid, conn, cell);
                assert_eq!(end, cell, "an enclosed agent moved");
            }
        }
        // A door on the far (west) side: the agent walks out and around, never back and forth.
        set(&mut grid, &mut d, Pos::new(1, 3), Terrain::FREE);
        assert_eq!(walk(&mut d, &grid, conn, start), grid.index(goal).unwrap());
    }
}

#[test]
fn a_second_compute_does_nothing_and_a_far_edit_little() {
    let mut grid = Grid::new(64, 64).unwrap();
    let conn = Connectivity::Eight;
    let mut d = DStar::new(&grid, Pos::new(60, 60), conn).unwrap();
    let agents = [idx(&grid, 2, 2), idx(&grid, 60, 2)];
    d.set_starts(&grid, &agents);
    let first = d.compute(&grid);
    assert!(first.expanded > 100);
    assert_eq!(d.compute(&grid).expanded, 0);
    assert!(d.last_expanded().is_empty());
    set(&mut grid, &mut d, Pos::new(2, 60), Terrain::Wall);
    let repair = d.compute(&grid);
    assert!(
        repair.expanded < first.expanded / 4,
        "{repair:?} vs {first:?}"
    );
    check_agents(&d, &grid, conn, &agents).unwrap();
    assert!(d.memory_bytes() >= grid.len() * 21);
}

#[test]
fn queues_agree_on_the_expansion_order() {
    let mut grid = Grid::new(16, 12).unwrap();
    let conn = Connectivity::Eight;
    let goal = Pos::new(14, 10);
    let mut a = DStar::new(&grid, goal, conn).unwrap();
    let mut b = DStar::<SortedList<Key>>::with_queue(&grid, goal, conn).unwrap();
    let starts = [idx(&grid, 0, 0), idx(&grid, 3, 11)];
    for round in 0..6u32 {
        a.set_starts(&grid, &starts);
        b.set_starts(&grid, &starts);
        let (sa, sb) = (a.compute(&grid), b.compute(&grid));
        assert_eq!(a.last_expanded(), b.last_expanded());
        assert_eq!(sa.expanded, sb.expanded);
        check_agents(&b, &grid, conn, &starts).unwrap();
        let p = Pos::new(5 + round, 2 + round);
        grid.set(p, Terrain::Wall).unwrap();
        let i = grid.index(p).unwrap();
        a.cells_changed(&grid, &[i]);
        b.cells_changed(&grid, &[i]);
    }
}

#[test]
fn a_resized_grid_starts_over() {
    let grid = Grid::new(6, 6).unwrap();
    let conn = Connectivity::Four;
    let mut d = DStar::new(&grid, Pos::new(5, 5), conn).unwrap();
    d.set_starts(&grid, &[0]);
    d.compute(&grid);
    let bigger = Grid::new(9, 7).unwrap();
    let agents = [idx(&bigger, 8, 0)];
    compute_and_check(&mut d, &bigger, conn, &agents).unwrap();
    // The goal is off this one: nothing is reachable, nothing panics.
    let smaller = Grid::new(3, 3).unwrap();
    d.set_starts(&smaller, &[0]);
    d.compute(&smaller);
    assert_eq!(d.cost_to_goal(0), INFINITY);
    assert!(d.path(&smaller, 0).is_none());
    assert_eq!(d.next_step(&smaller, 0), None);
}
