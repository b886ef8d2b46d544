//! The plugin's settings: the planner, the moves (and rotation), crowd mode, the tick rate and
//! the budgets, in one value the plugin is built from.

use gridwalk_core::format::Scenario;
use gridwalk_core::mapf::DEFAULT_BUDGET;
use gridwalk_core::sim::{Budget, OnArrival, SimConfig};
use gridwalk_core::{Algorithm, Connectivity, Heuristic};

/// How the plugin plans and ticks. Build one with [`Default`] and change what you need:
///
/// ```
/// use bevy_gridwalk::GridwalkSettings;
/// use gridwalk_core::{Algorithm, Connectivity};
///
/// let settings = GridwalkSettings {
///     algorithm: Algorithm::DStarLite,
///     connectivity: Connectivity::Four,
///     crowd: true,
///     ticks_per_second: 20.0,
///     ..Default::default()
/// };
/// assert_eq!(settings.config().connectivity, Connectivity::Four);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GridwalkSettings {
    /// The planner: D\* Lite by default (one repairing search per goal, shared by every
    /// agent heading there). `Algorithm::Greedy` plans greedy best-first from scratch every
    /// tick: cheap searches, legal paths, but not always shortest ones.
    pub algorithm: Algorithm,
    /// Four moves, or eight (no corner cutting).
    pub connectivity: Connectivity,
    /// The heuristic of D\* Lite, A\*, MPGAA\* and greedy; `None`: the best admissible one for the
    /// moves (Manhattan or octile).
    pub heuristic: Option<Heuristic>,
    /// Crowd mode: no two agents share a cell, swap or cross, and every move comes from the
    /// crowd's step rule on the planners' exact costs. Off: agents walk through each other.
    pub crowd: bool,
    /// Robots that face a direction: each tick an agent moves one cell ahead, turns 90° or
    /// waits (the League of Robot Runners' rules). It holds in crowd mode with four moves
    /// ([`SimConfig::turns`]); off by default.
    pub rotation: bool,
    /// Ticks per second, 1–60, counted inside `FixedUpdate` (at most one a run; the plugin
    /// leaves `Time<Fixed>` alone): [`TickClock::rate_hz`](crate::TickClock::rate_hz).
    pub ticks_per_second: f64,
    /// The planner-memory budget (least recently used planners are dropped past it) and the
    /// planning budget (expansions a tick; agents whose plan is not ready wait).
    pub budget: Budget,
    /// The most tries a tick of crowd mode's real-time search makes, once it takes over from
    /// the step rule for a stalled one-shot crowd ([`DEFAULT_BUDGET`] by default; 0 counts as
    /// 1). More tries find the crowd's way sooner and cost more a tick.
    pub crowd_budget: usize,
    /// What agents added after the start do on arrival: stay, wander or patrol.
    pub on_arrival: OnArrival,
    /// Also run A\* from scratch each tick (up to 256 walking agents), to compare the
    /// repair's work with it.
    pub measure_baseline: bool,
    /// Start paused ([`TickClock`](crate::TickClock) resumes).
    pub paused: bool,
    /// Record the session as [`Segment`](crate::Segment)s that `gridwalk-cli simulate`
    /// replays exactly: a change a scenario cannot say (a new goal, a despawn, a budget, the
    /// planner) starts a new segment, rebuilding the world as its replay starts it (agents
    /// keep their entities; every agent replans). Off (the default), nothing is recorded and
    /// every change applies in place.
    pub record: bool,
    /// Recent computes each planner keeps for explaining a repair
    /// ([`Simulation::set_history`](gridwalk_core::sim::Simulation::set_history)): 0 by
    /// default, so a game that does not explain pays nothing for it; the demo keeps 32.
    pub explain_history: usize,
    /// Hold an edit of a cell an agent stands on (or waits to enter) until the cell is free,
    /// then apply it and send [`EditLanded`](crate::EditLanded) (on by default). Off, such
    /// an edit is refused at once ([`Refused`](crate::Refused)), as the core refuses it.
    pub hold_edits: bool,
}

impl Default for GridwalkSettings {
    fn default() -> Self {
        let config = SimConfig::default();
        GridwalkSettings {
            algorithm: config.algorithm,
            connectivity: config.connectivity,
            heuristic: None,
            crowd: false,
            rotation: false,
            ticks_per_second: crate::TickClock::DEFAULT_RATE,
            budget: Budget::default(),
            crowd_budget: DEFAULT_BUDGET,
            on_arrival: OnArrival::Stay,
            measure_baseline: false,
            paused: false,
            record: false,
            explain_history: 0,
            hold_edits: true,
        }
    }
}

impl GridwalkSettings {
    /// The settings a scenario gives (its moves, heuristic, crowd mode and budgets), the
    /// defaults for the rest.
    pub fn of_scenario(scenario: &Scenario) -> GridwalkSettings {
        GridwalkSettings {
            connectivity: scenario.connectivity,
            heuristic: scenario.heuristic,
            crowd: scenario.crowd,
            rotation: scenario.rotation,
            budget: scenario.budget(),
            crowd_budget: scenario.crowd_budget.unwrap_or(DEFAULT_BUDGET),
            ..GridwalkSettings::default()
        }
    }

    /// The core simulation's configuration these settings give.
    pub fn config(&self) -> SimConfig {
        SimConfig {
            algorithm: self.algorithm,
            connectivity: self.connectivity,
            heuristic: (self.heuristic).unwrap_or(Heuristic::default_for(self.connectivity)),
            measure_baseline: self.measure_baseline,
            crowd: self.crowd,
            rotation: self.rotation,
        }
    }

    /// `scenario` with these settings' moves, heuristic, crowd mode and budgets.
    pub fn apply_to(&self, mut scenario: Scenario) -> Scenario {
        scenario.connectivity = self.connectivity;
        scenario.heuristic = self.heuristic;
        scenario.crowd = self.crowd;
        scenario.rotation = self.config().turns();
        (scenario.planner_memory, scenario.plan_budget) = self.budget.in_scenario();
        scenario.crowd_budget = Some(self.crowd_budget.max(1)).filter(|&b| b != DEFAULT_BUDGET);
        scenario
    }
}
