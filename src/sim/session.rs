//! The session log: what `--record` writes, kept as the game runs.
//!
//! A segment starts from a map, a connectivity and a heuristic, with the agents present at
//! tick 0. Each later tick's new agents and changed cells are logged with the tick number
//! that `gridwalk-cli simulate` gives that tick, so the segment, written as a [`Scenario`],
//! replays the same run. Consecutive edits of one tick that set the same terrain share one
//! [`EditSpec`]. The seed, each agent's arrival policy and every change of the dynamic world
//! are logged too, so wander goals and dropped walls replay exactly.

use gridwalk_core::format::{AgentSpec, CellSet, DynamicSpec, EditSpec, Scenario};
use gridwalk_core::sim::SimConfig;
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Grid, Pos, Terrain};

/// One segment of the session. See the module docs.
#[derive(Clone, Debug)]
pub struct SessionLog {
    base: Scenario,
    tick0: u64,
    reason: String,
}

impl SessionLog {
    /// A segment starting on `grid` with `config`, when the simulation has run `tick0` ticks.
    pub fn new(grid: &Grid, config: SimConfig, tick0: u64, reason: &str) -> SessionLog {
        let base = Scenario::with_moves(grid.clone(), config.connectivity, Some(config.heuristic));
        SessionLog {
            base,
            tick0,
            reason: reason.to_owned(),
        }
    }

    /// The simulation's tick count when the segment began.
    pub fn tick0(&self) -> u64 {
        self.tick0
    }

    /// The map the segment started from.
    pub fn base(&self) -> &Grid {
        &self.base.grid
    }

    /// Why the segment began: `start`, `new random map`, `planner changed`, ...
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Agents logged so far.
    pub fn agents(&self) -> &[AgentSpec] {
        &self.base.agents
    }

    /// Edits logged so far.
    pub fn edits(&self) -> &[EditSpec] {
        &self.base.edits
    }

    /// Whether nothing happened on the map: no agent and no edit.
    pub fn is_empty(&self) -> bool {
        self.base.agents.is_empty() && self.base.edits.is_empty()
    }

    /// Logs an agent appearing at `tick` with its arrival policy.
    pub fn agent(&mut self, tick: u64, start: Pos, goal: Pos, on_arrival: OnArrival) {
        self.base.agents.push(AgentSpec {
            start,
            goal,
            tick,
            on_arrival,
        });
    }

    /// Logs the seed of the segment's generators.
    pub fn seed(&mut self, seed: u64) {
        self.base.seed = seed;
    }

    /// Logs the number of destinations of the segment's wanderers.
    pub fn destinations(&mut self, k: usize) {
        self.base.destinations = k;
    }

    /// Logs the dynamic world's setting from `tick` on (a later change of one tick replaces
    /// an earlier one of the same tick).
    pub fn dynamic(&mut self, tick: u64, setting: Option<DynamicWorld>) {
        if self.base.dynamic.last().is_some_and(|d| d.tick == tick) {
            self.base.dynamic.pop();
        }
        self.base.dynamic.push(DynamicSpec::new(tick, setting));
    }

    /// Logs a cell changed at `tick`.
    pub fn edit(&mut self, tick: u64, pos: Pos, terrain: Terrain) {
        let set = CellSet::from_terrain(terrain);
        match self.base.edits.last_mut() {
            Some(e) if e.tick == tick && e.set == set => e.cells.push(pos),
            _ => self.base.edits.push(EditSpec {
                tick,
                set,
                cells: vec![pos],
            }),
        }
    }

    /// The segment as a scenario.
    pub fn to_scenario(&self) -> Scenario {
        self.base.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_of_one_tick_and_terrain_merge() {
        let grid = Grid::new(4, 4).unwrap();
        let mut log = SessionLog::new(&grid, SimConfig::default(), 0, "start");
        assert!(log.is_empty());
        log.edit(1, Pos::new(0, 0), Terrain::Wall);
        log.edit(1, Pos::new(1, 0), Terrain::Wall);
        log.edit(1, Pos::new(2, 0), Terrain::FREE);
        log.edit(2, Pos::new(3, 0), Terrain::FREE);
        log.agent(2, Pos::new(0, 3), Pos::new(3, 3), OnArrival::Wander);
        log.dynamic(2, Some(DynamicWorld::GENTLE));
        log.dynamic(2, None);
        let s = log.to_scenario();
        assert_eq!(s.edits.len(), 3);
        assert_eq!(s.edits[0].cells.len(), 2);
        assert_eq!(s.edits[1].set, CellSet::Free);
        assert_eq!(s.agents[0].tick, 2);
        assert_eq!(s.agents[0].on_arrival, OnArrival::Wander);
        assert_eq!(s.dynamic, vec![DynamicSpec::new(2, None)]);
        assert!(s.validate("log").is_ok());
    }
}
