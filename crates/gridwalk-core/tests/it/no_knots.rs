//! Lifelong crowds keep flowing: 100 wanderers with random goals (two may share one) on a
//! 40×30 map split into six rooms by walls with one-cell doorways, for 3,000 ticks under 4
//! and 8 moves and under rotation (robots that face a direction and turn), and again with
//! four shared destinations and a fifth of the agents entering late on taken cells. The
//! arrivals of the last 500 ticks are at least half those of the first 500, and no agent is
//! stuck ([`AgentStatus::Stuck`]) for more than 200 ticks in a row.
//! An agent whose new goal is the cell it stands on arrives at once.

use std::collections::BTreeMap;

use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::sim::{AgentStatus, OnArrival, SimConfig, Simulation};
use gridwalk_core::{Connectivity, Grid, Heuristic, Pos, Terrain};

const WIDTH: u32 = 40;
const HEIGHT: u32 = 30;
const AGENTS: usize = 100;
const TICKS: u64 = 3_000;
const WINDOW: u64 = 500;
const MOST_STUCK: u32 = 200;

/// The rooms map: walls down columns 13 and 26 and along row 14, each wall segment between
/// two rooms with one doorway at a seeded place.
pub(crate) fn rooms(rng: &mut SplitMix64) -> Grid {
    let mut grid = Grid::new(WIDTH, HEIGHT).unwrap();
    let wall = |grid: &mut Grid, x: u32, y: u32| grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
    for y in 0..HEIGHT {
        wall(&mut grid, 13, y);
        wall(&mut grid, 26, y);
    }
    for x in 0..WIDTH {
        wall(&mut grid, x, 14);
    }
    let door = |grid: &mut Grid, at: Pos| grid.set(at, Terrain::FREE).unwrap();
    for x in [13, 26] {
        for (lo, hi) in [(0, 14), (15, HEIGHT)] {
            let y = lo + rng.below((hi - lo) as usize) as u32;
            door(&mut grid, Pos::new(x, y));
        }
    }
    for (lo, hi) in [(0, 13), (14, 26), (27, WIDTH)] {
        let x = lo + rng.below((hi - lo) as usize) as u32;
        door(&mut grid, Pos::new(x, 14));
    }
    grid
}

/// A free cell of `grid` drawn with `rng`.
pub(crate) fn free_cell(grid: &Grid, rng: &mut SplitMix64) -> Pos {
    loop {
        let p = Pos::new(
            rng.below(WIDTH as usize) as u32,
            rng.below(HEIGHT as usize) as u32,
        );
        if grid.is_passable(p) {
            return p;
        }
    }
}

/// The wanderers' goals: any reachable cell, or a few destinations shared by many.
#[derive(Clone, Copy, Debug)]
enum Goals {
    /// Random first goals (two may share one), then any reachable cell.
    Random,
    /// [`SHARED`] destinations for all; the last [`LATE`] agents are added on taken cells
    /// during the first ticks, and wait to enter.
    SharedLate,
}

/// Destinations of [`Goals::SharedLate`]: one for every 25 agents, as crowd mode's rule gives.
const SHARED: usize = 4;
/// Agents of [`Goals::SharedLate`] that enter late.
const LATE: usize = 20;

/// What a lifelong run showed: arrivals in the first and last windows, the longest run of
/// ticks one agent was stuck, and how many agents had entered at the end.
#[derive(Debug)]
struct Flow {
    first: u64,
    last: u64,
    most_stuck: u32,
    entered: usize,
}

/// The moves of a run: four, eight, or four with turns ([`SimConfig::rotation`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Moves {
    Four,
    Eight,
    Rotation,
}

impl Moves {
    /// Crowd mode's configuration for these moves.
    pub(crate) fn config(self) -> SimConfig {
        let conn = match self {
            Moves::Eight => Connectivity::Eight,
            Moves::Four | Moves::Rotation => Connectivity::Four,
        };
        SimConfig {
            connectivity: conn,
            heuristic: Heuristic::default_for(conn),
            crowd: true,
            rotation: matches!(self, Moves::Rotation),
            ..SimConfig::default()
        }
    }
}

/// Plays the wanderers on the rooms map of `seed` under `moves`, with `goals`.
fn play(seed: u64, moves: Moves, goals: Goals) -> Flow {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let grid = rooms(&mut rng);
    let config = moves.config();
    let mut sim = Simulation::new(grid.clone(), config);
    sim.set_seed(seed);
    let mut late = Vec::new();
    let destinations: Vec<Pos> = match goals {
        Goals::Random => Vec::new(),
        Goals::SharedLate => {
            sim.set_destinations(SHARED);
            sim.destination_cells().collect()
        }
    };
    let goal = |rng: &mut SplitMix64| match goals {
        Goals::Random => free_cell(&grid, rng),
        Goals::SharedLate => destinations[rng.below(destinations.len())],
    };
    let early = match goals {
        Goals::Random => AGENTS,
        Goals::SharedLate => AGENTS - LATE,
    };
    let mut starts = Vec::new();
    while starts.len() < early {
        let p = free_cell(&grid, &mut rng);
        if !starts.contains(&p) {
            starts.push(p);
        }
    }
    for &start in &starts {
        let g = goal(&mut rng);
        sim.add_agent_with(start, g, OnArrival::Wander).unwrap();
    }
    for k in 0..AGENTS - early {
        late.push((starts[k * 3 % early], goal(&mut rng)));
    }
    let mut stuck_for: BTreeMap<u32, u32> = BTreeMap::new();
    let mut flow = Flow {
        first: 0,
        last: 0,
        most_stuck: 0,
        entered: 0,
    };
    for tick in 0..TICKS {
        // A late agent is added on a cell an early one started on, every other tick.
        if tick % 2 == 0
            && let Some((start, g)) = late.pop()
        {
            sim.add_agent_with(start, g, OnArrival::Wander).unwrap();
        }
        sim.step();
        let arrivals = sim.crowd_stats().unwrap().arrivals as u64;
        if tick < WINDOW {
            flow.first += arrivals;
        } else if tick >= TICKS - WINDOW {
            flow.last += arrivals;
        }
        for a in sim.agents() {
            let n = stuck_for.entry(a.id).or_default();
            *n = if a.status == AgentStatus::Stuck {
                *n + 1
            } else {
                0
            };
            flow.most_stuck = flow.most_stuck.max(*n);
        }
    }
    flow.entered = sim.agent_count();
    flow
}

/// Both checks of the module doc on seeds 1 to 3 under `moves`, with `goals`; with
/// `all_enter`, every late agent has entered by the end too.
fn keeps_flowing(moves: Moves, goals: Goals, all_enter: bool) {
    for seed in 1..=3 {
        let flow = play(seed, moves, goals);
        assert!(
            2 * flow.last >= flow.first
                && flow.most_stuck <= MOST_STUCK
                && (!all_enter || flow.entered == AGENTS),
            "seed {seed}, {moves:?}, {goals:?}: {flow:?}"
        );
    }
}

#[test]
fn wanderers_keep_flowing_under_four_moves() {
    keeps_flowing(Moves::Four, Goals::Random, true);
}

#[test]
fn wanderers_keep_flowing_under_eight_moves() {
    keeps_flowing(Moves::Eight, Goals::Random, true);
}

#[test]
fn wanderers_keep_flowing_under_rotation() {
    keeps_flowing(Moves::Rotation, Goals::Random, true);
}

#[test]
fn shared_goals_and_late_entries_keep_flowing_under_four_moves() {
    keeps_flowing(Moves::Four, Goals::SharedLate, true);
}

/// Under 8 moves one late agent of seed 3 waits to enter for good: its start is the cell
/// beside a doorway, and the agents that stream through follow one another, so it is never
/// free when the tick admits. The crowd itself keeps flowing.
#[test]
fn shared_goals_and_late_entries_keep_flowing_under_eight_moves() {
    keeps_flowing(Moves::Eight, Goals::SharedLate, false);
}

#[test]
fn shared_goals_and_late_entries_keep_flowing_under_rotation() {
    keeps_flowing(Moves::Rotation, Goals::SharedLate, true);
}

/// An agent given the cell it stands on as its goal arrives in that tick, whether it stays
/// (it is arrived) or wanders (it draws its next goal); one added on its goal arrives in its
/// first tick. Each counts one arrival.
#[test]
fn a_goal_on_the_agents_own_cell_arrives_at_once() {
    let config = SimConfig {
        crowd: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(Grid::new(8, 8).unwrap(), config);
    let stay = sim.add_agent(Pos::new(0, 0), Pos::new(7, 0)).unwrap();
    let wander = (sim.add_agent_with(Pos::new(0, 7), Pos::new(7, 7), OnArrival::Wander)).unwrap();
    let placed = sim.add_agent(Pos::new(4, 4), Pos::new(4, 4)).unwrap();
    sim.step();
    assert_eq!(
        sim.crowd_stats().unwrap().arrivals,
        1,
        "the one added on its goal"
    );
    assert_eq!(sim.agent(placed).unwrap().status, AgentStatus::Arrived);
    for _ in 0..2 {
        sim.step();
    }
    for id in [stay, wander] {
        let here = sim.agent(id).unwrap().pos;
        assert_ne!(here, sim.agent(id).unwrap().goal);
        sim.set_goal(id, here).unwrap();
    }
    let before = sim.crowd_stats().unwrap().arrivals_total;
    sim.step();
    let stats = sim.crowd_stats().unwrap();
    assert_eq!((stats.arrivals, stats.arrivals_total), (2, before + 2));
    let (s, w) = (sim.agent(stay).unwrap(), sim.agent(wander).unwrap());
    assert_eq!(
        (s.status, s.pos, s.goal),
        (AgentStatus::Arrived, s.goal, s.goal)
    );
    assert_ne!(w.goal, w.pos, "the wanderer drew its next goal");
}
