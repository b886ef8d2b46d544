//! [`OperationPibt`]: the lifelong track's planner over the crowd's PIBT over 3-step
//! operations ([`OperationStep`], whose module doc says the search), on exact (cell, facing)
//! tables ([`RotationTables`]) held to a memory budget.
//!
//! **Priorities.** Robots decide highest priority first: the longest on their goal (the
//! steps since it last changed), ties by a draw each step. A robot without a task has no
//! goal: it prefers to stay, and can be pushed. It needs no table, so none is made for it.
//! A robot held up by one in its way yields to it ([`OperationStep`]'s module doc).
//!
//! **Traffic.** Its tables may price moves by traffic rules ([`EdgeCosts`]) and by the traffic
//! the robots make ([`OperationPibt::with_traffic`]).

use crate::crowd::{OperationStep, RotationGuidance, StepError};
use crate::grid::Grid;
use crate::rng::{SeedableRng, SplitMix64};

use super::planner::Planner;
use super::priority::GoalAge;
use super::tables::Tables;
use super::traffic::{Traffic, TrafficConfig};
use super::weighted::EdgeCosts;
use super::{Action, State};

/// PIBT over operations on `grid` whose robots yield to those in their way (see
/// [`OperationStep::set_yielding`]): without it, lifelong robots knot around dead ends.
pub(super) fn yielding_step(grid: &Grid) -> OperationStep {
    let mut step = OperationStep::new(grid);
    step.set_yielding(true);
    step
}

/// PIBT over operations for lifelong robots (see the module doc), its buffers kept from step
/// to step.
pub struct OperationPibt {
    grid: Grid,
    tables: Tables,
    budget: usize,
    step: OperationStep,
    rng: SplitMix64,
    /// Per robot: steps since its goal last changed.
    age: GoalAge,
    order: Vec<u32>,
    /// The robots' states as the step takes them.
    at: Vec<(u32, u8)>,
    /// Traffic learnt from the robots' moves, pricing the tables' moves (`None`: fixed).
    traffic: Option<Traffic>,
}

impl OperationPibt {
    /// A planner for robots on `grid`, its tables held to about `budget` bytes (never below
    /// one step's).
    pub fn new(grid: &Grid, budget: usize, seed: u64) -> OperationPibt {
        OperationPibt {
            grid: grid.clone(),
            tables: Tables::new(grid, None),
            budget,
            step: yielding_step(grid),
            rng: SplitMix64::seed_from_u64(seed),
            age: GoalAge::default(),
            order: Vec::new(),
            at: Vec::new(),
            traffic: None,
        }
    }

    /// The same planner guided by tables with the action costs `costs` (see
    /// [`EdgeCosts`]).
    pub fn with_costs(grid: &Grid, budget: usize, seed: u64, costs: EdgeCosts) -> OperationPibt {
        OperationPibt {
            tables: Tables::new(grid, Some(costs)),
            ..OperationPibt::new(grid, budget, seed)
        }
    }

    /// The same planner with its moves priced by the traffic it sees (see [`Traffic`]).
    pub fn with_traffic(mut self, cfg: TrafficConfig) -> OperationPibt {
        self.traffic = Some(Traffic::over(&self.grid, &mut self.tables, cfg));
        self
    }

    /// Priorities for this step, the tables priced again when traffic says so, and their
    /// memory held to the budget.
    fn prepare(&mut self, states: &[State], goals: &[Option<u32>]) {
        if let Some(t) = &mut self.traffic {
            t.watch(&self.grid, &mut self.tables, states, goals);
        }
        self.age.order(goals, &mut self.rng, &mut self.order);
        (self.tables).hold_to(self.budget, goals.iter().flatten().copied());
    }
}

impl Planner for OperationPibt {
    fn preprocess(&mut self, _states: &[State], goals: &[Option<u32>]) {
        // A goal off the map or on a wall is refused again when planned.
        let _ = self.tables.ensure_all(goals.iter().flatten().copied());
    }

    /// Every robot waits when a goal is off the map or a wall, or the states do not fit.
    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        actions.clear();
        self.prepare(states, goals);
        self.at.clear();
        self.at.extend(states.iter().map(|s| (s.cell, s.facing)));
        let args = StepArgs {
            step: &mut self.step,
            grid: &self.grid,
            at: &self.at,
            goals,
            order: &self.order,
            rng: &mut self.rng,
        };
        let planned = match &mut self.tables {
            Tables::Exact(t) => args.under(t.guidance_or_none(goals)),
            Tables::Weighted(t) => args.under(t.guidance_or_none(goals)),
        };
        match planned {
            Ok(acts) if acts.len() == states.len() => actions.extend_from_slice(acts),
            _ => actions.resize(states.len(), Action::Wait),
        }
    }
}

/// Everything an operations step takes but its guidance, whose type depends on the tables
/// (weighted or exact).
struct StepArgs<'a> {
    step: &'a mut OperationStep,
    grid: &'a Grid,
    at: &'a [(u32, u8)],
    goals: &'a [Option<u32>],
    order: &'a [u32],
    rng: &'a mut SplitMix64,
}

impl<'a> StepArgs<'a> {
    /// The step under `guidance`; no actions (every robot waits) if the tables could not
    /// give it.
    #[inline]
    fn under<G: RotationGuidance + Sync>(
        self,
        guidance: Result<G, String>,
    ) -> Result<&'a [Action], StepError> {
        match guidance {
            Ok(g) => self
                .step
                .step(self.grid, self.at, self.goals, self.order, &g, self.rng),
            Err(_) => Ok(&[][..]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planner(grid: &Grid, seed: u64) -> Box<dyn Planner> {
        Box::new(OperationPibt::new(grid, 1 << 24, seed))
    }

    #[test]
    fn every_step_is_valid_from_sparse_to_packed() {
        super::super::check_sparse_to_packed(planner);
    }

    #[test]
    fn robots_reach_goals_on_open_ground() {
        super::super::check_open_ground(planner);
    }

    #[test]
    fn a_train_moves_and_head_on_robots_never_swap() {
        let grid = Grid::new(5, 1).unwrap();
        let mut p = OperationPibt::new(&grid, 1 << 20, 1);
        let s = |cell, facing| State { cell, facing };
        let mut actions = Vec::new();
        p.plan(&[s(0, 0), s(1, 0)], &[Some(4), Some(4)], &mut actions);
        assert_eq!(actions, [Action::Forward, Action::Forward]);
        p.plan(&[s(1, 0), s(2, 2)], &[Some(4), Some(0)], &mut actions);
        assert!(!(actions[0] == Action::Forward && actions[1] == Action::Forward));
    }
}
