//! [`RotationPlanner`]: the crowd's rotation step ([`RotationStep`], PIBT over cells on the
//! one PIBT core, its cells turned into forward moves and turns) guided by exact distance
//! tables over (cell, facing) ([`Tables`]: exact, or with traffic rules);
//! replanned every timestep, or with each step's cells carried out first ([`Commitment`]).
//!
//! Priorities are PIBT's: the longer a robot has had its goal, the earlier it decides (ties
//! by a fixed draw), robots without a goal last. A robot without a goal has no table: its own
//! cell costs nothing and every other cell one action ([`Idle`]), so it stays unless pushed;
//! with [`KeepClear`] it walks out of the cells near the goals whose queue is full.
//! Tables are made for goals as they come and dropped, all but this step's, when they pass
//! the memory budget.

use crate::crowd::{RotationGuidance, RotationStep};
use crate::grid::Grid;
use crate::rng::{Rng, SeedableRng, SplitMix64};

use super::clear::{HEAT_ACTIONS, KeepClear};
use super::committed::{Commitment, Redecide};
use super::planner::Planner;
use super::priority::GoalAge;
use super::tables::Tables;
use super::traffic::{Traffic, TrafficConfig};
use super::weighted::EdgeCosts;
use super::{Action, State};

/// Whether ties of priority are drawn again every step.
const RESHUFFLE: bool = true;

/// A robot's priority: the steps since it last changed cells, plus the steps since its goal
/// came divided by this.
const GOAL_DIV: u32 = 16;

/// No facing: a robot that did not turn last step.
const NO_FACING: u8 = u8::MAX;

/// What turning straight back costs on top of the tables, in actions.
const TURN_BACK: u64 = 6;

/// The tables, with a robot's turning straight back to the facing it just left made dearer:
/// a robot that turned to get out of the way does not undo it at once.
struct Hysteresis<'a, G> {
    base: G,
    states: &'a [(u32, u8)],
    left: &'a [u8],
}

impl<G: RotationGuidance> RotationGuidance for Hysteresis<'_, G> {
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        let c = self.base.cost(agent, cell, facing);
        if self.left[agent] == facing && self.states[agent].0 == cell {
            c.saturating_add(TURN_BACK * self.base.action())
        } else {
            c
        }
    }

    fn action(&self) -> u64 {
        self.base.action()
    }

    fn forward(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        self.base.forward(agent, cell, facing)
    }
}

/// The tables for robots with a goal; for one without, its own cell costs nothing and every
/// other cell one action, whatever the facing, plus [`HEAT_ACTIONS`] a unit of the cell's
/// heat if kept clear (see [`KeepClear`]).
struct Idle<'a, G> {
    base: G,
    states: &'a [(u32, u8)],
    goals: &'a [Option<u32>],
    clear: Option<&'a KeepClear>,
}

impl<G: RotationGuidance> RotationGuidance for Idle<'_, G> {
    #[inline]
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        match self.goals[agent] {
            Some(_) => self.base.cost(agent, cell, facing),
            None => {
                let heat = self.clear.map_or(0, |k| u64::from(k.heat(cell)));
                let moves = u64::from(cell != self.states[agent].0);
                (HEAT_ACTIONS * heat + moves) * self.base.action()
            }
        }
    }

    #[inline]
    fn action(&self) -> u64 {
        self.base.action()
    }

    #[inline]
    fn forward(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        self.base.forward(agent, cell, facing)
    }
}

/// The rotation step with exact tables (see the module doc).
pub struct RotationPlanner {
    grid: Grid,
    step: RotationStep,
    tables: Tables,
    budget: usize,
    rng: SplitMix64,
    age: GoalAge,
    stuck: Vec<u32>,
    /// Per robot: the facing it turned away from last step on this cell, or [`NO_FACING`].
    left: Vec<u8>,
    tie: Vec<u32>,
    order: Vec<u32>,
    states: Vec<(u32, u8)>,
    goals: Vec<Option<u32>>,
    /// Carries out each step's next cells before deciding the next, when set.
    commit: Option<Commitment>,
    /// Traffic learnt from the robots' moves, pricing the tables' moves (`None`: fixed).
    traffic: Option<Traffic>,
    /// The cells robots without a goal walk out of, if kept clear.
    clear: Option<KeepClear>,
}

impl RotationPlanner {
    /// A planner for robots on `grid`, its tables held to about `budget` bytes (never below
    /// one step's).
    pub fn new(grid: &Grid, budget: usize, seed: u64) -> RotationPlanner {
        RotationPlanner {
            grid: grid.clone(),
            step: RotationStep::new(grid),
            tables: Tables::new(grid, None),
            budget,
            rng: SplitMix64::seed_from_u64(seed),
            age: GoalAge::default(),
            stuck: Vec::new(),
            left: Vec::new(),
            tie: Vec::new(),
            order: Vec::new(),
            states: Vec::new(),
            goals: Vec::new(),
            commit: None,
            traffic: None,
            clear: None,
        }
    }

    /// Priorities and goals for this step.
    fn prepare(&mut self, states: &[State], goals: &[Option<u32>]) {
        if let Some(t) = &mut self.traffic {
            t.watch(&self.grid, &mut self.tables, states, goals);
        }
        let n = states.len();
        if self.tie.len() != n {
            self.tie = (0..n).map(|_| self.rng.next_u32()).collect();
        }
        if self.stuck.len() != n {
            self.stuck = vec![0; n];
        }
        for (a, (s, stuck)) in states.iter().zip(&mut self.stuck).enumerate() {
            let moved = self.states.get(a).is_some_and(|&(c, _)| c != s.cell);
            *stuck = if moved { 0 } else { stuck.saturating_add(1) };
        }
        self.left.clear();
        self.left.extend(
            states
                .iter()
                .enumerate()
                .map(|(a, s)| match self.states.get(a) {
                    Some(&(c, f)) if c == s.cell && f != s.facing => f,
                    _ => NO_FACING,
                }),
        );
        if RESHUFFLE {
            for t in &mut self.tie {
                *t = self.rng.next_u32();
            }
        }
        self.order.clear();
        self.order.extend(0..n as u32);
        let (waited, stuck, tie) = (self.age.count(goals), &self.stuck, &self.tie);
        // A robot without a goal prefers to stay: deciding last, it is pushed aside rather
        // than holding its cell against every robot after it.
        self.order.sort_unstable_by_key(|&a| {
            let a = a as usize;
            let key = (waited[a] / GOAL_DIV + stuck[a], tie[a]);
            std::cmp::Reverse((goals[a].is_some(), key))
        });
        self.states.clear();
        self.states
            .extend(states.iter().map(|s| (s.cell, s.facing)));
        self.goals.clear();
        self.goals.extend_from_slice(goals);
        (self.tables).hold_to(self.budget, goals.iter().flatten().copied());
        if let Some(k) = &mut self.clear {
            k.update(&self.grid, goals);
        }
    }

    /// The same planner on tables with traffic rules ([`EdgeCosts`]).
    pub fn with_costs(mut self, costs: EdgeCosts) -> RotationPlanner {
        self.tables = Tables::new(&self.grid, Some(costs));
        self
    }

    /// The same planner with its moves priced by the traffic it sees (see [`Traffic`]).
    pub fn with_traffic(mut self, cfg: TrafficConfig) -> RotationPlanner {
        self.traffic = Some(Traffic::over(&self.grid, &mut self.tables, cfg));
        self
    }

    /// The same planner, its robots without a goal walking out of the cells near the goals
    /// whose queue is full (see [`KeepClear`]).
    pub fn keep_clear(mut self, clear: KeepClear) -> RotationPlanner {
        self.clear = Some(clear);
        self
    }

    /// The same planner, but each step's next cells are carried out before the next are
    /// decided, and each decision is the best of several tries (`committed.rs`).
    pub fn committed(mut self, redecide: Redecide, seed: u64) -> RotationPlanner {
        self.commit = Some(Commitment::new(redecide, seed));
        self
    }
}

impl Planner for RotationPlanner {
    fn preprocess(&mut self, _states: &[State], goals: &[Option<u32>]) {
        // A goal off the map or on a wall is refused again, and reported, when planned.
        let _ = self.tables.ensure_all(goals.iter().flatten().copied());
    }

    fn summary(&self) -> Option<String> {
        self.commit.as_ref().map(Commitment::summary)
    }

    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        self.prepare(states, goals);
        actions.clear();
        let Ok(base) = self.tables.guidance_or_none(&self.goals) else {
            actions.resize(states.len(), Action::Wait);
            return;
        };
        let guidance = Hysteresis {
            base: Idle {
                base,
                states: &self.states,
                goals: &self.goals,
                clear: self.clear.as_ref(),
            },
            states: &self.states,
            left: &self.left,
        };
        let (grid, order) = (&self.grid, &self.order);
        let ok = match &mut self.commit {
            Some(c) => c.plan(
                &mut self.step,
                grid,
                &self.states,
                order,
                &guidance,
                actions,
            ),
            None => match (self.step).step(grid, &self.states, order, &guidance, &mut self.rng) {
                Ok(chosen) => {
                    actions.extend_from_slice(chosen);
                    true
                }
                Err(_) => false,
            },
        };
        if !ok {
            actions.clear();
            actions.resize(states.len(), Action::Wait);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_robot_without_a_goal_stays_and_gets_no_table() {
        let grid = Grid::new(8, 8).unwrap();
        for costs in [None, Some(EdgeCosts::corridors(&grid, 2, 10))] {
            let mut planner = RotationPlanner::new(&grid, usize::MAX, 1);
            let mut alone = Tables::new(&grid, costs.clone());
            if let Some(c) = costs {
                planner = planner.with_costs(c);
            }
            let states = [
                State { cell: 9, facing: 0 },
                State {
                    cell: 30,
                    facing: 1,
                },
            ];
            let mut actions = Vec::new();
            planner.plan(&states, &[None, Some(60)], &mut actions);
            assert_eq!(actions[0], Action::Wait);
            assert_ne!(actions[1], Action::Wait);
            // The tables hold robot 1's goal's alone.
            alone.ensure_all([60].into_iter()).unwrap();
            assert_eq!(planner.tables.memory_bytes(), alone.memory_bytes());
        }
    }

    /// Plays `steps` timesteps of `planner` from `states`, the goals fixed.
    fn play(
        planner: &mut RotationPlanner,
        grid: &Grid,
        states: &mut [State],
        goals: &[Option<u32>],
        steps: usize,
    ) {
        let mut actions = Vec::new();
        for _ in 0..steps {
            planner.plan(states, goals, &mut actions);
            for (s, a) in states.iter_mut().zip(&actions) {
                let (cell, facing) = a.apply(grid, (s.cell, s.facing)).expect("a valid action");
                *s = State { cell, facing };
            }
        }
    }

    #[test]
    fn a_robot_without_a_goal_walks_out_of_the_heat_of_a_full_goal() {
        let grid = Grid::new(10, 3).unwrap();
        let redecide = [None, Some(Redecide::Alone)];
        for (kept, redecide) in [false, true]
            .into_iter()
            .flat_map(|k| redecide.map(|r| (k, r)))
        {
            let mut planner = RotationPlanner::new(&grid, usize::MAX, 1);
            if kept {
                planner = planner.keep_clear(KeepClear::new(1, 3));
            }
            if let Some(r) = redecide {
                planner = planner.committed(r, 1);
            }
            // Robot 0 heads for cell 0 from the far corner (its queue of one is full); robot
            // 1 has no goal and stands beside cell 0, facing east.
            let mut states = [
                State {
                    cell: 29,
                    facing: 2,
                },
                State { cell: 1, facing: 0 },
            ];
            play(&mut planner, &grid, &mut states, &[Some(0), None], 6);
            let idle = states[1].cell;
            let away = idle % 10 + idle / 10;
            match kept {
                true => assert!(away > 3, "{redecide:?}: still in the heat at cell {idle}"),
                false => assert_eq!(idle, 1, "{redecide:?}: moved without being pushed"),
            }
        }
    }
}
