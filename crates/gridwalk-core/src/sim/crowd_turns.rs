//! Crowd mode for robots that face a direction ([`SimConfig::rotation`](super::SimConfig)):
//! each tick an agent moves one cell ahead, turns 90° either way, or waits, as in the League of
//! Robot Runners (LoRR's `MAPF_T`). The step is the crowd's PIBT over 3-step operations
//! ([`OperationStep`]), ranked on exact (cell, facing) tables ([`RotationTables`]); it tries
//! at most [`DEFAULT_STEP_WORK`](crate::crowd::DEFAULT_STEP_WORK) operations a tick, then
//! [`LATE_WORK`](crate::crowd::LATE_WORK) an agent. A smaller cap starves the decisions late
//! in the order, and the crowd knots (LoRR's 400 robots on random-32-32-20 did with 300,000).
//!
//! **Costs.** Every action costs one timestep, as in LoRR: the tables count forward moves and
//! turns, and a terrain's weight only says whether it is passable. The planners' weighted costs
//! still give each agent's remaining cost and status, and the paths the game draws.
//!
//! **Bounded.** A table holds two bytes a state, eight a passable cell, and is searched
//! breadth-first in O(cells). Each tick makes tables only for the goals agents head to, at most
//! [`STATES_PER_TICK`] states' worth, and keeps them within [`TABLE_BYTES`]. An agent whose
//! goal has a table walks by it whether or not its plan is ready (a table needs no plan, and
//! on a big map a tick's planning budget serves few goals); one without ranks its operations
//! by its planner's cost in steps (exact for the cell, blind to the facing); one with neither
//! has no goal for the step: it prefers to stay and can be pushed. The tables are made again
//! on the map the agents know when it changes.

use std::collections::HashSet;

use super::agents::{AgentCells, AgentId, Agents};
use super::crowd_members::{Member, ordered_by};
use crate::cost::{COST_ONE, INFINITY};
use crate::crowd::{Action, OperationStep, RotationGuidance};
use crate::grid::{Facing, Grid};
use crate::mapf::{RotationTables, ToGoal};
use crate::planner::GoalPlanner;
use crate::rng::SplitMix64;

/// The states a tick's new tables may search at most (at least one table a tick is made).
pub(super) const STATES_PER_TICK: usize = 4_000_000;

/// The bytes the tables may hold; past it, tables of goals nobody heads to are dropped first.
pub(super) const TABLE_BYTES: usize = 512 << 20;

/// The operation step and its tables, kept from tick to tick.
pub(super) struct Turns {
    step: OperationStep,
    tables: RotationTables,
    /// The known map changed since the tables were made.
    stale: bool,
}

/// Each agent's guidance in a rotation step: its goal's table, whether or not its plan is
/// ready; without one its planner's cost in whole steps. An agent with neither has no goal
/// in the step, which never asks for its cost (it would be unreachable).
struct TableGuidance<'a> {
    /// Per agent: its goal's table, looked up once a step.
    tables: Vec<Option<ToGoal<'a>>>,
    planners: &'a [Option<&'a dyn GoalPlanner>],
}

impl RotationGuidance for TableGuidance<'_> {
    #[inline]
    fn cost(&self, i: usize, cell: u32, facing: u8) -> u64 {
        match &self.tables[i] {
            Some(table) => table.cost(cell, facing),
            None => match self.planners[i].map(|p| p.cost_to_goal(cell as usize)) {
                None | Some(INFINITY) => u64::MAX,
                Some(c) => c / COST_ONE,
            },
        }
    }

    #[inline]
    fn prefetch(&self, i: usize, cell: u32) {
        if let Some(table) = &self.tables[i] {
            table.prefetch(cell);
        }
    }
}

impl Turns {
    /// The step and no tables yet, on `known`, the map the agents know.
    pub(super) fn new(known: &Grid) -> Turns {
        Turns {
            step: OperationStep::new(known),
            tables: RotationTables::new(known),
            stale: false,
        }
    }

    /// The known map changed: the tables are made again before the next step.
    pub(super) fn map_changed(&mut self) {
        self.stale = true;
    }

    /// Bytes held: the tables and the step's per-cell and per-agent arrays.
    pub(super) fn bytes(&self) -> usize {
        self.tables.memory_bytes() + self.step.memory_bytes()
    }

    /// One step of `agents` (in id order; `goals` theirs), in `order`: each agent's next cell,
    /// and its facing after the step (by index); see [`Turns::step`].
    pub(super) fn step_agents(
        &mut self,
        maps: (&Grid, &Grid),
        agents: &Agents,
        (goals, order): (&[u32], &[u32]),
        planners: &[Option<&dyn GoalPlanner>],
        rng: &mut SplitMix64,
    ) -> (Vec<u32>, Vec<u8>) {
        let states: Vec<(u32, u8)> = (agents.slab.hot().iter().zip(agents.slab.values()))
            .map(|(p, a)| (p.cell, a.facing.index()))
            .collect();
        let after = self.step(maps, (&states, goals, order), planners, rng);
        after.into_iter().unzip()
    }

    /// One step of the agents on `states` (cell, facing), in `order`, each guided (when its
    /// planner in `planners` is ready) to `goals[i]` on `known`, moved on `truth`. Returns
    /// each agent's next cell and facing; on input the step refuses (it cannot happen for
    /// distinct passable cells) everyone stays.
    pub(super) fn step(
        &mut self,
        (known, truth): (&Grid, &Grid),
        (states, goals, order): (&[(u32, u8)], &[u32], &[u32]),
        planners: &[Option<&dyn GoalPlanner>],
        rng: &mut SplitMix64,
    ) -> Vec<(u32, u8)> {
        // Tables need no plan: every agent off its goal may have one.
        let wants: Vec<bool> = (goals.iter().zip(states)).map(|(&g, s)| s.0 != g).collect();
        if self.stale || self.tables.grid().len() != known.len() {
            self.tables = RotationTables::new(known);
            self.stale = false;
        }
        if !self.step.fits(truth) {
            self.step = OperationStep::new(truth);
        }
        let has_table = self.make_tables(goals, &wants, order);
        let tables = &self.tables;
        let guidance = TableGuidance {
            tables: (goals.iter().zip(&has_table))
                .map(|(&g, &made)| made.then(|| tables.to_goal(g)).flatten())
                .collect(),
            planners,
        };
        // An agent on its goal heads nowhere: it waits there rather than turn on the spot,
        // and can still be pushed (off it, it heads back next tick).
        let heading: Vec<Option<u32>> = (goals.iter().zip(&wants).zip(&has_table))
            .zip(planners)
            .map(|(((&g, &off), &table), p)| (off && (table || p.is_some())).then_some(g))
            .collect();
        match (self.step).step(truth, states, &heading, order, &guidance, rng) {
            Ok(actions) => (states.iter().zip(actions))
                .map(|(&s, act)| apply(truth, s, *act))
                .collect(),
            Err(_) => states.to_vec(),
        }
    }

    /// Makes the missing tables of the goals of the agents `wants` names, highest priority first, within
    /// [`STATES_PER_TICK`] and [`TABLE_BYTES`]. Returns, per agent, whether its goal has one.
    fn make_tables(&mut self, goals: &[u32], wants: &[bool], order: &[u32]) -> Vec<bool> {
        let per = self.tables.table_bytes().max(1);
        if (self.tables.len() + 1) * per > TABLE_BYTES {
            let wanted: HashSet<u32> = (goals.iter().zip(wants))
                .filter_map(|(&g, &on)| on.then_some(g))
                .collect();
            self.tables.retain(|g| wanted.contains(&g));
        }
        let mut searched = 0;
        for &a in order {
            let (a, goal) = (a as usize, goals[a as usize]);
            let made = self.tables.get(goal, goal, 0).is_some();
            let room = (self.tables.len() + 1) * per <= TABLE_BYTES;
            let time = searched == 0 || searched + per / 2 <= STATES_PER_TICK;
            if wants[a] && !made && room && time && self.tables.ensure(goal).is_ok() {
                searched += per / 2;
            }
        }
        (goals.iter().zip(wants))
            .map(|(&g, &on)| on && self.tables.get(g, g, 0).is_some())
            .collect()
    }
}

/// The agents in priority order under rotation, as crowd mode orders them, by their leg's
/// age plus the ticks since they last came closer. The leg's age keeps an order from tick to
/// tick, which a plan over several steps needs; the ticks without progress let a blocked
/// agent lead in time.
fn turn_order(
    members: &[(AgentId, Member)],
    planners: &[Option<&dyn GoalPlanner>],
    places: &[AgentCells],
    tick: u64,
) -> Vec<u32> {
    ordered_by(members, planners, places, |m| {
        tick - m.leg_start.min(tick) + u64::from(m.since_better)
    })
}

/// The rotation step of crowd mode's advance part: every agent's next cell and facing (by
/// index), in id order, on the known and true maps at `tick`, `planners` saying whose plan is
/// ready; the crowd's turns (made on first use), members and generator.
pub(super) fn turn_step(
    (turns, members, rng): (&mut Option<Turns>, &[(AgentId, Member)], &mut SplitMix64),
    (known, truth, tick): (&Grid, &Grid, u64),
    agents: &Agents,
    planners: &[Option<&dyn GoalPlanner>],
    goals: &[u32],
) -> (Vec<u32>, Vec<u8>) {
    let places = agents.slab.hot();
    let order = turn_order(members, planners, places, tick);
    let turns = turns.get_or_insert_with(|| Turns::new(known));
    turns.step_agents((known, truth), agents, (goals, &order), planners, rng)
}

/// Sets each agent's facing (in id order) to `facings` (by index).
pub(super) fn turn_agents(agents: &mut Agents, facings: &[u8]) {
    let (slab, _) = agents.slab.as_mut_slices();
    for (a, &f) in slab.iter_mut().zip(facings) {
        a.facing = Facing::from_index(f);
    }
}

/// The state after `act` from `s`, or `s` when the action would leave the map (the step never
/// asks for that).
fn apply(grid: &Grid, s: (u32, u8), act: Action) -> (u32, u8) {
    act.apply(grid, s).unwrap_or(s)
}
