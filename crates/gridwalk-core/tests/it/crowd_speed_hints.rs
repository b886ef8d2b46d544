//! The step rule's prefetch hints ([`Guidance::prefetch`], [`GoalPlanner::prefetch_cost`]) are
//! only hints: a step with them moves every agent exactly as a step without them (same
//! candidates, same reports), they only name agents and cells on the grid, and a planner
//! answers the same after any hint, on every cell, as Dijkstra on the same map.

use std::cell::Cell;

use gridwalk_core::crowd::{Guidance, StepError, StepOptions, StepRule};
use gridwalk_core::mapf::DistanceTables;
use gridwalk_core::rng::{Draw, Rng, SeedableRng, SplitMix64};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Terrain, new_planner};
use proptest::prelude::*;

use crate::common::reference_costs;

/// Breadth-first guidance that checks every hint it gets and counts them.
struct Hinted<'a> {
    tables: &'a DistanceTables,
    agents: usize,
    cells: usize,
    hints: Cell<usize>,
    bad: Cell<Option<(usize, usize, u8)>>,
}

impl Guidance for Hinted<'_> {
    fn distance(&self, a: usize, cell: usize) -> u64 {
        self.tables.distance(a, cell)
    }

    fn prefetch(&self, a: usize, cell: usize, stage: u8) {
        self.hints.set(self.hints.get() + 1);
        if a >= self.agents || cell >= self.cells || stage > 1 {
            self.bad.set(Some((a, cell, stage)));
        }
        self.tables.prefetch(a, cell, stage);
    }
}

/// A random map with a quarter of walls, and up to three quarters of its free cells as agents
/// (cells and goals).
fn crowd(rng: &mut SplitMix64) -> (Grid, Vec<u32>, Vec<u32>) {
    let (w, h) = (rng.range(4..24) as u32, rng.range(4..24) as u32);
    let mut grid = Grid::new(w, h).unwrap();
    for i in 0..grid.len() {
        if rng.chance(0.25) {
            grid.set(grid.pos(i), Terrain::Wall).unwrap();
        }
    }
    let mut free: Vec<u32> = (0..grid.len() as u32)
        .filter(|&i| grid.weight(i as usize) != 0)
        .collect();
    for i in (1..free.len()).rev() {
        free.swap(i, rng.below(i + 1));
    }
    let n = rng.range(0..free.len() * 3 / 4 + 1);
    let goals = (0..n).map(|_| free[rng.below(free.len())]).collect();
    (grid, free[..n].to_vec(), goals)
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(64))]

    /// Twenty steps with hints and twenty without, from the same generator: the same moves,
    /// candidates and reports every step, and every hint names an agent and a grid cell.
    #[test]
    fn hints_change_no_move(seed in any::<u64>(), eight in any::<bool>(), traps in any::<bool>()) {
        let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
        let rule = if traps { StepOptions::default() } else { StepOptions::PLAIN };
        let mut rng = SplitMix64::seed_from_u64(seed);
        let (grid, mut cur, goals) = crowd(&mut rng);
        let n = cur.len();
        let tables = DistanceTables::new(&grid, conn, &goals);
        let hinted = Hinted {
            tables: &tables,
            agents: n,
            cells: grid.len(),
            hints: Cell::new(0),
            bad: Cell::new(None),
        };
        let plain = |a: usize, c: usize| tables.distance(a, c);
        let (mut with, mut without) = (StepRule::new(&grid, conn, rule), StepRule::new(&grid, conn, rule));
        for _ in 0..20 {
            let mut order: Vec<u32> = (0..n as u32).collect();
            for i in (1..n).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let fixed: Vec<Option<u32>> = cur.iter().map(|&c| rng.chance(0.05).then_some(c)).collect();
            let fixed = rng.chance(0.5).then_some(&fixed[..]);
            let s = rng.next_u64();
            let (mut r1, mut r2) = (SplitMix64::seed_from_u64(s), SplitMix64::seed_from_u64(s));
            let a = with.step(&grid, &cur, &order, fixed, &hinted, &mut r1).map(<[u32]>::to_vec);
            let b = without.step(&grid, &cur, &order, fixed, &plain, &mut r2).map(<[u32]>::to_vec);
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(hinted.bad.get(), None, "a hint off the agents or the grid");
            let next = match a {
                Ok(next) => next,
                Err(StepError::Infeasible) => continue,
                Err(e) => panic!("{e}"),
            };
            let (ra, rb) = (with.report(), without.report());
            prop_assert_eq!((&ra.waited, &ra.pushed, &ra.pulled, ra.passes), (&rb.waited, &rb.pushed, &rb.pulled, rb.passes));
            for a in 0..n {
                prop_assert_eq!(with.candidates(a), without.candidates(a));
                prop_assert_eq!(with.push_chain(a), without.push_chain(a));
            }
            cur = next;
        }
        // The step hints 16 agents ahead in the order: with more agents, some hints came.
        if n > 40 {
            prop_assert!(hinted.hints.get() > 0);
        }
    }

    /// After hints of both stages on every cell, a D* Lite planner's cost from every cell is
    /// still Dijkstra's.
    #[test]
    fn planner_hints_change_no_cost(seed in any::<u64>(), eight in any::<bool>()) {
        let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
        let mut rng = SplitMix64::seed_from_u64(seed);
        let (grid, cells, _) = crowd(&mut rng);
        let Some(&goal) = cells.first() else {
            return Ok(());
        };
        let mut p = new_planner(Algorithm::DStarLite, &grid, grid.pos(goal as usize), conn, Heuristic::Zero).unwrap();
        let starts: Vec<usize> = (0..grid.len()).filter(|&c| grid.weight(c) != 0).collect();
        p.set_starts(&grid, &starts);
        p.compute(&grid);
        let reference = reference_costs(&grid, goal as usize, conn);
        for c in 0..grid.len() {
            p.prefetch_cost(c, 0);
            p.prefetch_cost(c, 1);
        }
        for &c in &starts {
            prop_assert_eq!(p.cost_to_goal(c), reference[c], "cell {}", c);
        }
    }
}
