//! The one home of "scenario → starting world": the simulation a scenario starts with, set up
//! from its map, moves, seed, destinations, sensor range and budgets, and the timeline that
//! plays everything it times, from tick 0. `gridwalk-cli simulate`'s replay and the game both
//! start here.

use crate::format::Scenario;
use crate::mapf::DEFAULT_BUDGET;
use crate::planner::Algorithm;
use crate::sim::{SimConfig, Simulation};

use super::timeline::Timeline;

/// A scenario ready to play: its simulation, with no agent and no tick played, and its
/// timeline. Tick 0 applies the timeline's share of tick 0 (agents, edits and settings of
/// tick 0, in [`Timeline::apply`]'s order), then plans.
pub struct Start {
    /// The simulation on the scenario's map, configured as the scenario says.
    pub sim: Simulation,
    /// Everything the scenario times, from tick 0 on.
    pub timeline: Timeline,
}

impl Scenario {
    /// The configuration this scenario asks for, planned with `algorithm`: its moves and
    /// heuristic, without the baseline A\* measure.
    pub fn config(&self, algorithm: Algorithm) -> SimConfig {
        SimConfig {
            algorithm,
            connectivity: self.connectivity,
            heuristic: self.effective_heuristic(),
            measure_baseline: false,
            crowd: self.crowd,
            rotation: self.rotation,
        }
    }

    /// The world this scenario starts, simulated with `config` (whose moves and heuristic
    /// the caller takes from [`Scenario::config`] or keeps its own).
    ///
    /// ```
    /// use gridwalk_core::format::Scenario;
    /// use gridwalk_core::Algorithm;
    /// let text = r#"(rows: ["....", "...."], agents: [(start: (0, 0), goal: (3, 1))], seed: 4)"#;
    /// let scenario = Scenario::parse(text, "s.ron").unwrap();
    /// let mut start = scenario.start(scenario.config(Algorithm::DStarLite));
    /// assert_eq!(start.sim.agents().count(), 0);
    /// let applied = start.timeline.apply(0, &mut start.sim);
    /// assert_eq!(applied.appeared.len(), 1);
    /// ```
    pub fn start(&self, config: SimConfig) -> Start {
        let mut sim = Simulation::new(self.grid.clone(), config);
        sim.set_seed(self.seed);
        sim.set_destinations(self.destinations);
        sim.set_sensor_range(self.sensor_range);
        sim.set_budget(self.budget());
        sim.set_crowd_budget(self.crowd_budget.unwrap_or(DEFAULT_BUDGET));
        Start {
            sim,
            timeline: Timeline::of(self),
        }
    }
}
