//! World commands, applied in `Update`: new maps, loads, planner switches, the living world's
//! settings and spawns.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridwalk_core::format::Scenario;
use gridwalk_core::sim::{Budget, SimConfig, format_memory};
use gridwalk_core::sim::{DynamicWorld, OnArrival};

use super::{GridSim, Refused, SimCommand, SpawnAgent};
use crate::maps::{self, MapRng};
use crate::notices::{NoticeKind, Notices};

/// The random-number generator of spawned agents and random maps.
#[derive(Resource)]
pub struct SimRng(pub MapRng);

/// What world commands change: the simulation, the notices, the agents asked for at the
/// next tick, and the spawns' generator.
#[derive(SystemParam)]
pub(super) struct CommandTarget<'w> {
    state: ResMut<'w, GridSim>,
    notices: ResMut<'w, Notices>,
    spawns: MessageWriter<'w, SpawnAgent>,
    rng: ResMut<'w, SimRng>,
}

/// Applies [`SimCommand`]s: each rebuilds the simulation and starts a new segment.
pub(super) fn apply_commands(
    mut commands_in: MessageReader<SimCommand>,
    mut target: CommandTarget,
) {
    for cmd in commands_in.read() {
        let refused = match cmd {
            SimCommand::RandomMap {
                density,
                seed,
                agents,
            } => target.random_map(*density, *seed, *agents),
            SimCommand::Load { scenario, name } => target.load(scenario, name),
            SimCommand::ClearAgents => target.clear_agents(),
            SimCommand::SetConfig(new) => target.set_config(*new),
            SimCommand::SetOnArrival(policy) => target.set_on_arrival(*policy),
            SimCommand::SetDynamic(setting) => target.set_dynamic(*setting),
            SimCommand::SpawnRandom { agents, goals } => target.spawn_random(*agents, *goals),
            SimCommand::SetDestinations(k) => target.set_destinations(*k),
            SimCommand::SetBudget(b) => target.set_budget(*b),
            SimCommand::SetCrowdBudget(n) => target.set_crowd_budget(*n),
            SimCommand::SetSensing(range) => target.set_sensing(*range),
        };
        for r in refused {
            target.notices.push(NoticeKind::Refused, r.to_string());
        }
    }
}

/// One method per command; each returns the refusals of the agents it could not place.
impl CommandTarget<'_> {
    /// A seeded random map of the same size, with fresh random agents.
    fn random_map(&mut self, density: f64, seed: u64, agents: usize) -> Vec<Refused> {
        let state = &mut *self.state;
        let config = state.sim().config();
        let (w, h) = (state.sim().grid().width(), state.sim().grid().height());
        let grid = maps::random_grid(w, h, density, seed);
        let pairs = maps::random_agents(
            &grid,
            agents,
            default_goals(agents),
            config.connectivity,
            true,
            &mut self.rng.0,
        );
        let refused = state.new_map(grid, config, pairs, "new random map");
        state.set_map_name(format!(
            "random {w}×{h}, {:.0} % walls, seed {seed}",
            density * 100.0
        ));
        let text = format!("new map: {}", self.state.map_name());
        self.notices.push(NoticeKind::Info, text);
        refused
    }

    /// A scenario's map, played from its tick 0 as `gridwalk-cli simulate` plays it, with the
    /// current planner; the game's budgets hold where the scenario sets none.
    fn load(&mut self, scenario: &Scenario, name: &str) -> Vec<Refused> {
        let state = &mut *self.state;
        let mut config = SimConfig {
            measure_baseline: state.sim().config().measure_baseline,
            ..scenario.config(state.sim().config().algorithm)
        };
        // Crowd mode stays as it is, or comes on for a crowd scenario; it goes off for one
        // whose agents share a start at tick 0, which a crowd recording could not replay.
        let mut starts = std::collections::HashSet::new();
        let shared = (scenario.agents.iter())
            .filter(|a| a.tick == 0)
            .any(|a| !starts.insert(a.start));
        let was = state.sim().config().crowd;
        config.crowd = scenario.crowd || (was && !shared);
        if was && !config.crowd {
            self.notices.push(
                NoticeKind::Info,
                "crowd mode off: this scenario starts agents on one cell",
            );
        }
        let mut scenario = scenario.clone();
        let budget = state.budget();
        scenario.planner_memory = (scenario.planner_memory).or(Some(budget.planner_memory));
        scenario.plan_budget = scenario.plan_budget.or(budget.plan_expansions);
        let refused = state.load(scenario, config, "map loaded");
        state.set_map_name(name);
        self.notices
            .push(NoticeKind::Info, format!("loaded {name}"));
        refused
    }

    /// The same map with no agents.
    fn clear_agents(&mut self) -> Vec<Refused> {
        let n = self.state.sim().agent_count();
        self.state.clear_agents("agents removed");
        self.notices
            .push(NoticeKind::Info, format!("removed {n} agents"));
        Vec::new()
    }

    /// Another planner, heuristic or connectivity: every agent replans. A change of the
    /// baseline measurement alone replans nothing, and says nothing.
    fn set_config(&mut self, new: SimConfig) -> Vec<Refused> {
        let old = self.state.sim().config();
        if new.algorithm == old.algorithm
            && new.heuristic == old.heuristic
            && new.connectivity == old.connectivity
            && new.crowd == old.crowd
            && new.turns() == old.turns()
        {
            return self.state.set_config(new, "baseline measurement changed");
        }
        if new.crowd != old.crowd {
            let refused = self.state.set_config(new, "crowd mode changed");
            let text = if new.crowd {
                "crowd mode on: one agent a cell, moved by the crowd's step rule"
            } else {
                "crowd mode off: agents walk through each other"
            };
            self.notices.push(NoticeKind::Info, text);
            return refused;
        }
        if new.turns() != old.turns() && new.connectivity == old.connectivity {
            let refused = self.state.set_config(new, "rotation changed");
            let text = if new.turns() {
                "robots turn: each tick one moves a cell ahead, turns 90° or waits"
            } else {
                "robots no longer turn"
            };
            self.notices.push(NoticeKind::Info, text);
            return refused;
        }
        let refused = self.state.set_config(new, "planner changed");
        self.notices.push(
            NoticeKind::Info,
            format!(
                "planner: {}, {} heuristic, {:?}-connected: every agent replanned",
                new.algorithm.label(),
                new.heuristic.name(),
                new.connectivity
            ),
        );
        refused
    }

    /// What agents added from now on do on arrival.
    fn set_on_arrival(&mut self, policy: OnArrival) -> Vec<Refused> {
        self.state.set_on_arrival(policy);
        self.notices.push(
            NoticeKind::Info,
            format!("agents added from now on {} on arrival", policy.name()),
        );
        Vec::new()
    }

    /// The dynamic world on (with a setting) or off.
    fn set_dynamic(&mut self, setting: Option<DynamicWorld>) -> Vec<Refused> {
        self.state.set_dynamic(setting);
        let text = match setting {
            Some(d) => format!(
                "dynamic world on: a wall every {} ticks, at most {} standing",
                d.every, d.walls
            ),
            None => "dynamic world off".to_string(),
        };
        self.notices.push(NoticeKind::Info, text);
        Vec::new()
    }

    /// Unknown terrain on (with a sensor range) or off.
    fn set_sensing(&mut self, range: Option<u32>) -> Vec<Refused> {
        let was = self.state.sim().sensor_range();
        self.state.set_sensing(range);
        let text = match range {
            // A new range while on (the slider) says nothing: the panel shows it.
            Some(_) if was.is_some() => return Vec::new(),
            Some(r) => format!("unknown terrain on: agents know only what they sensed (range {r})"),
            None => "unknown terrain off: agents know the whole map".to_string(),
        };
        self.notices.push(NoticeKind::Info, text);
        Vec::new()
    }

    /// Wanderers' destinations: K cells, or any reachable cell for 0.
    fn set_destinations(&mut self, k: usize) -> Vec<Refused> {
        self.state.set_destinations(k);
        let text = match k {
            0 => "wanderers head to any reachable cell".to_string(),
            k => format!("wanderers head to {k} destinations"),
        };
        self.notices.push(NoticeKind::Info, text);
        Vec::new()
    }

    /// The tries a tick of crowd mode's real-time search makes.
    fn set_crowd_budget(&mut self, tries: usize) -> Vec<Refused> {
        self.state.set_crowd_budget(tries);
        let text = format!("crowd search budget: {} tries a tick", tries.max(1));
        self.notices.push(NoticeKind::Info, text);
        Vec::new()
    }

    /// The planner-memory and planning budgets.
    fn set_budget(&mut self, budget: Budget) -> Vec<Refused> {
        self.state.set_budget(budget);
        let plan = budget
            .plan_expansions
            .map_or("no limit".to_string(), |n| format!("{n} expansions a tick"));
        let text = format!(
            "budgets: planners {}, planning {plan}",
            format_memory(budget.planner_memory)
        );
        self.notices.push(NoticeKind::Info, text);
        Vec::new()
    }

    /// Random agents that join at the next tick.
    fn spawn_random(&mut self, agents: usize, goals: usize) -> Vec<Refused> {
        let pairs = maps::random_agents(
            self.state.sim().grid(),
            agents,
            goals,
            self.state.sim().config().connectivity,
            true,
            &mut self.rng.0,
        );
        let n = pairs.len();
        (self.spawns).write_batch(
            pairs
                .into_iter()
                .map(|(start, goal)| SpawnAgent { start, goal }),
        );
        self.notices.push(
            NoticeKind::Info,
            format!("{n} agents join at the next tick"),
        );
        Vec::new()
    }
}

/// How many goals `agents` random agents share: about one per four agents.
pub fn default_goals(agents: usize) -> usize {
    agents.div_ceil(4).max(1)
}
