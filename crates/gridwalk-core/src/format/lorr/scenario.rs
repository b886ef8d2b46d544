//! A LoRR problem as a scenario the game plays ([`Problem::to_scenario`]): robots that turn,
//! in crowd mode, each patrolling the cycle of tasks round robin deals it.

use super::{Edition, Problem, Strategy};
use crate::format::{AgentSpec, Scenario};
use crate::grid::{Connectivity, Facing};
use crate::sim::OnArrival;

/// The most tasks of its cycle a robot's route holds; past it the route starts over.
pub const MAX_ROUTE: usize = 64;

impl Problem {
    /// The problem as a scenario: its map, four moves, crowd mode and rotation, and every
    /// robot on its start facing east, patrolling the tasks round robin deals it (robot k's
    /// j-th task is `tasks[(j × N + k) mod M]`): its goal the first, its route the next ones,
    /// at most [`MAX_ROUTE`] in all, round again. A robot's arrivals are its tasks finished.
    ///
    /// Only 2023 problems dealt round robin (every competition instance) play so: 2024's
    /// tasks are scheduled as the run goes, and `greedy` and `roundrobin_fixed` end; the
    /// error says so.
    pub fn to_scenario(&self) -> Result<Scenario, String> {
        if self.edition == Edition::Lorr2024 {
            return Err("a 2024 problem schedules its tasks as it runs, which a scenario cannot hold; play it with `gridwalk-cli lifelong`".into());
        }
        if self.strategy != Strategy::RoundRobin {
            return Err(format!(
                "taskAssignmentStrategy {:?}: the game plays problems dealt round robin (`roundrobin`); play this one with `gridwalk-cli lifelong`",
                self.strategy
            ));
        }
        let (n, m) = (self.team_size(), self.tasks.len());
        if m == 0 {
            return Err("the tasks file has no task".into());
        }
        let cycle = (m / gcd(n, m)).min(MAX_ROUTE);
        let task = |k: usize, j: usize| {
            self.grid
                .pos(self.tasks.errands((j * n + k) % m)[0] as usize)
        };
        let mut scenario = Scenario::from_grid(self.grid.clone());
        scenario.connectivity = Connectivity::Four;
        scenario.crowd = true;
        scenario.rotation = true;
        scenario.agents = (self.starts.iter().enumerate())
            .map(|(k, &start)| AgentSpec {
                on_arrival: OnArrival::Patrol,
                facing: Facing::East,
                route: (1..cycle).map(|j| task(k, j)).collect(),
                ..AgentSpec::new(self.grid.pos(start as usize), task(k, 0))
            })
            .collect();
        scenario.validate(&self.map_file).map_err(|e| e.message)?;
        Ok(scenario)
    }
}

/// The greatest common divisor of `a` and `b` (`b` > 0).
fn gcd(a: usize, b: usize) -> usize {
    if a == 0 { b } else { gcd(b % a, a) }
}
