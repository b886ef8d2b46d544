//! Traffic costs learnt from the robots' own moves: guidance that steers robots away from
//! where the others stall and from lanes the others take the other way.
//!
//! [`Traffic`] watches the robots step by step. Per cell it keeps the rate at which a robot
//! stalls there (stands a step on a cell that is not its goal), and per cell and facing the
//! rate of forward moves out of it that way, both as moving averages over about
//! [`TrafficConfig::horizon`] steps. Every [`TrafficConfig::period`] steps it prices each
//! forward move anew: its base cost (the traffic rules', [`EdgeCosts`]), plus
//! [`TrafficConfig::stall`] times the stall rate of the cell it enters, plus
//! [`TrafficConfig::contra`] times the rate of moves the other way between the same two
//! cells. The planner then makes its tables again on the new costs, so the tables stay
//! exact for the costs they are made with and the window's A\* keeps a consistent heuristic.
//!
//! Cost: two `f32` a cell and four a state kept up to date each step (O(cells + robots)),
//! and every period one pass over the states to price them.

use crate::grid::Grid;

use super::State;
use super::planner::ahead;
use super::tables::Tables;
use super::weighted::EdgeCosts;

/// How traffic is learnt and priced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrafficConfig {
    /// Extra cost of entering a cell where a robot stalls every step, in halves of a plain
    /// move; scaled by the cell's stall rate.
    pub stall: f32,
    /// Extra cost of a move whose reverse some robot makes every step; scaled by that rate.
    pub contra: f32,
    /// Steps between two pricings.
    pub period: u64,
    /// Steps the moving averages span.
    pub horizon: f32,
}

impl Default for TrafficConfig {
    fn default() -> TrafficConfig {
        TrafficConfig {
            stall: 8.0,
            contra: 8.0,
            period: 25,
            horizon: 100.0,
        }
    }
}

/// The most a move's traffic may add to its cost, in halves of a plain move: keeps the
/// tables' bucket queue short.
const MOST_ADDED: f32 = 64.0;

/// Traffic learnt from the robots' moves (see the module doc).
#[derive(Clone, Debug)]
pub struct Traffic {
    cfg: TrafficConfig,
    base: EdgeCosts,
    width: u32,
    len: u32,
    /// Per cell: the moving average of robots stalling there a step.
    stall: Vec<f32>,
    /// Per cell and facing: the moving average of forward moves out of it that way.
    flow: Vec<f32>,
    /// The robots' states and goals at the last step watched.
    last: Vec<State>,
    last_goals: Vec<Option<u32>>,
    steps: u64,
}

impl Traffic {
    /// Traffic on `grid` over the costs `base`, none seen yet.
    pub fn new(grid: &Grid, base: EdgeCosts, cfg: TrafficConfig) -> Traffic {
        Traffic {
            cfg,
            base,
            width: grid.width(),
            len: grid.len() as u32,
            stall: vec![0.0; grid.len()],
            flow: vec![0.0; grid.len() * 4],
            last: Vec::new(),
            last_goals: Vec::new(),
            steps: 0,
        }
    }

    /// Watches one step: the robots now stand at `states`, heading for `goals`. Returns the
    /// costs priced anew when a period ends.
    pub fn observe(&mut self, states: &[State], goals: &[Option<u32>]) -> Option<EdgeCosts> {
        if self.last.len() == states.len() {
            let keep = 1.0 - 1.0 / self.cfg.horizon.max(1.0);
            self.stall.iter_mut().for_each(|x| *x *= keep);
            self.flow.iter_mut().for_each(|x| *x *= keep);
            let add = 1.0 - keep;
            for ((was, now), goal) in self.last.iter().zip(states).zip(&self.last_goals) {
                if was.cell != now.cell {
                    self.flow[was.cell as usize * 4 + was.facing as usize] += add;
                } else if goal.is_some_and(|g| g != was.cell) {
                    self.stall[was.cell as usize] += add;
                }
            }
            self.steps += 1;
        }
        self.last.clear();
        self.last.extend_from_slice(states);
        self.last_goals.clear();
        self.last_goals.extend_from_slice(goals);
        (self.steps > 0 && self.steps.is_multiple_of(self.cfg.period.max(1))).then(|| self.priced())
    }

    /// Traffic over the costs of `tables` (plain moves in halves for exact ones), which are
    /// made weighted on them: what a planner that learns traffic starts from.
    pub(super) fn over(grid: &Grid, tables: &mut Tables, cfg: TrafficConfig) -> Traffic {
        let base = tables.costs(grid);
        tables.reprice(grid, base.clone());
        Traffic::new(grid, base, cfg)
    }

    /// Watches one step ([`observe`](Self::observe)) and, when a period ends, makes
    /// `tables` again on the new prices.
    pub(super) fn watch(
        &mut self,
        grid: &Grid,
        tables: &mut Tables,
        states: &[State],
        goals: &[Option<u32>],
    ) {
        if let Some(costs) = self.observe(states, goals) {
            tables.reprice(grid, costs);
        }
    }

    /// The base costs with the traffic seen so far added.
    pub fn priced(&self) -> EdgeCosts {
        let mut costs = self.base.clone();
        // The weights are in halves of a plain move.
        let scale = f32::from(self.base.unit) / 2.0;
        for (i, cost) in costs.forward.iter_mut().enumerate() {
            let (cell, facing) = ((i / 4) as u32, (i % 4) as u8);
            let Some(next) = ahead(cell, facing, self.width, self.len) else {
                continue;
            };
            let back = next as usize * 4 + ((facing + 2) % 4) as usize;
            let added =
                self.cfg.stall * self.stall[next as usize] + self.cfg.contra * self.flow[back];
            let added = (added * scale).round().clamp(0.0, MOST_ADDED * scale);
            *cost = cost.saturating_add(added as u16);
        }
        costs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cell: u32, facing: u8) -> State {
        State { cell, facing }
    }

    /// A 5 × 1 corridor, plain moves in halves, pricing every 4 steps over 10.
    fn corridor() -> (Grid, Traffic) {
        let grid = Grid::new(5, 1).unwrap();
        let base = EdgeCosts::highways(&grid, 2, 2);
        let cfg = TrafficConfig {
            stall: 20.0,
            contra: 20.0,
            period: 4,
            horizon: 10.0,
        };
        let traffic = Traffic::new(&grid, base, cfg);
        (grid, traffic)
    }

    #[test]
    fn entering_a_cell_where_robots_stall_costs_more() {
        let (_, mut t) = corridor();
        // A robot stands on cell 2, its goal at 4; another walks east from 0 to its goal.
        let goals = [Some(4), Some(1)];
        for (k, walker) in [0, 1, 1, 1].into_iter().enumerate() {
            let priced = t.observe(&[at(2, 0), at(walker, 0)], &goals);
            assert!(priced.is_none(), "priced before its period, at call {k}");
        }
        let costs = t
            .observe(&[at(2, 0), at(1, 0)], &goals)
            .expect("the fourth step watched ends a period");
        let east = |c: u32| costs.forward[c as usize * 4];
        let west = |c: u32| costs.forward[c as usize * 4 + 2];
        // Into cell 2 from either side: dearer; elsewhere: the base cost.
        assert!(east(1) > 2 && west(3) > 2, "{:?}", costs.forward);
        assert_eq!((east(2), west(2), east(3)), (2, 2, 2));
        assert_eq!(east(1), west(3));
    }

    #[test]
    fn weights_are_in_halves_of_a_plain_move_whatever_the_costs_scale() {
        let (grid, mut halves) = corridor();
        let mut tenths = Traffic::new(&grid, EdgeCosts::highways(&grid, 10, 10), halves.cfg);
        let goals = [Some(4), Some(1)];
        let (mut a, mut b) = (None, None);
        // The first step watched sets where the robots stand; four more end the period.
        for walker in [0, 1, 1, 1, 1] {
            let states = [at(2, 0), at(walker, 0)];
            a = a.or(halves.observe(&states, &goals));
            b = b.or(tenths.observe(&states, &goals));
        }
        let (a, b) = (a.expect("a period ended"), b.expect("a period ended"));
        for (s, (&h, &t)) in a.forward.iter().zip(&b.forward).enumerate() {
            // What traffic adds, in plain moves, agrees to the halves' rounding.
            let (h, t) = (f32::from(h - 2) / 2.0, f32::from(t - 10) / 10.0);
            assert!((h - t).abs() <= 0.25, "state {s}: {h} against {t} moves");
        }
        assert!(
            a.forward[4] > 2,
            "entering the stall costs more: {:?}",
            a.forward
        );
    }

    #[test]
    fn a_move_against_the_flow_costs_more_than_one_with_it() {
        let (_, mut t) = corridor();
        let goals = [Some(4)];
        let mut priced = None;
        for cell in 0..5 {
            priced = priced.or(t.observe(&[at(cell, 0)], &goals));
        }
        let costs = priced.expect("a period ended");
        // The robot went east from 0 to 4: going west between the cells it crossed costs more.
        for c in 1..4u32 {
            let (east, west) = (
                costs.forward[c as usize * 4],
                costs.forward[c as usize * 4 + 2],
            );
            assert_eq!(east, 2, "east from {c}");
            assert!(west > 2, "west from {c}: {west}");
        }
    }
}
