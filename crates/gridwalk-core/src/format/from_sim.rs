//! A simulation's world as a scenario ([`Simulation::to_scenario`]), beside
//! [`super::scenario`].

use super::scenario::{AgentSpec, DynamicSpec, Scenario};
use crate::mapf::DEFAULT_BUDGET;
use crate::sim::Simulation;

/// Here, not in `sim`, so that the simulation does not depend on its file format.
impl Simulation {
    /// The world as it stands, as a scenario that starts now: the map, moves, heuristic, seed,
    /// dynamic world and destinations (chosen again on this map when loaded), and every agent on its cell heading to its goal with its policy.
    /// Saved and loaded, it starts the same world (planners start afresh).
    pub fn to_scenario(&self) -> Scenario {
        let mut s = Scenario::with_moves(
            self.grid().clone(),
            self.config().connectivity,
            Some(self.config().heuristic),
        );
        s.agents = (self.agents())
            .map(|a| AgentSpec {
                on_arrival: a.on_arrival,
                facing: a.facing,
                route: a.route.to_vec(),
                ..AgentSpec::new(a.pos, a.goal)
            })
            .collect();
        s.seed = self.seed();
        if let Some(d) = self.dynamic() {
            s.dynamic = vec![DynamicSpec::new(0, Some(d))];
        }
        s.destinations = self.destinations();
        s.sensor_range = self.sensor_range();
        (s.planner_memory, s.plan_budget) = self.budget().in_scenario();
        s.crowd = self.config().crowd;
        s.rotation = self.config().turns();
        s.crowd_budget = Some(self.crowd_budget()).filter(|&b| b != DEFAULT_BUDGET);
        s
    }
}
