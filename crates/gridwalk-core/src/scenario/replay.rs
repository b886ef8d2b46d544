//! Runs a RON scenario tick by tick with the semantics of [`crate::sim`]: the engine of
//! `gridwalk-cli simulate` (which prints each tick as a JSON line), and the way a game
//! recording is replayed. Each tick applies its share of the scenario's [`Timeline`] (in the
//! order [`crate::scenario::timeline`] gives), then plans (tick 0) or steps (every later tick).
//!
//! ```
//! use gridwalk_core::format::Scenario;
//! use gridwalk_core::scenario::replay::Replay;
//! use gridwalk_core::sim::AgentStatus;
//! use gridwalk_core::{Algorithm, Pos};
//!
//! let text = r#"(
//!     rows: ["......", "..#...", "......"],
//!     agents: [(start: (0, 1), goal: (5, 1))],
//!     edits: [(tick: 2, set: Wall, cells: [(3, 1)])],
//! )"#;
//! let scenario = Scenario::parse(text, "example.ron").unwrap();
//! let mut replay = Replay::new(scenario, Algorithm::DStarLite).with_trace();
//! let mut ticks = vec![replay.step()]; // tick 0 plans
//! // With the trace, the tick's search runs list every expansion it counted.
//! let traced = |r: &Replay| -> usize {
//!     r.sim().last_runs().iter().map(|run| run.trace.expansions().count()).sum()
//! };
//! assert_eq!(traced(&replay) as u64, ticks[0].stats.search.expanded);
//! while !replay.finished() {
//!     ticks.push(replay.step());
//!     assert_eq!(traced(&replay) as u64, ticks.last().unwrap().stats.search.expanded);
//! }
//! let (index, id) = replay.agents().next().unwrap();
//! let last = replay.sim().agent(id).unwrap();
//! assert_eq!((index, last.pos, last.status), (0, Pos::new(5, 1), AgentStatus::Arrived));
//! ```

use std::collections::BTreeMap;

use super::start::Start;
use super::timeline::{Applied, Timeline};
use crate::format::Scenario;
use crate::planner::Algorithm;
use crate::sim::{AgentId, SimError, Simulation, TickStats};

/// The default tick limit of a run that waits for every agent to arrive.
pub const DEFAULT_TICK_LIMIT: u64 = 10_000;

/// What one tick of a replay did, besides moving the agents (read those from
/// [`Replay::sim`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TickReport {
    /// The tick number; 0 is the first planning, before any move.
    pub tick: u64,
    /// What the tick's share of the timeline did: agents that appeared or could not, edits
    /// refused (in the scenario's order).
    pub applied: Applied,
    /// The planners' work and time this tick.
    pub stats: TickStats,
}

/// A scenario being played.
pub struct Replay {
    sim: Simulation,
    timeline: Timeline,
    /// Scenario agent index → simulation id, once it has appeared.
    ids: Vec<Option<AgentId>>,
    tick: u64,
    started: bool,
    /// Agents that could not appear (start or goal walled by then), with why.
    rejected: Vec<(usize, SimError)>,
    /// Simulation id → scenario index.
    index_of: BTreeMap<AgentId, usize>,
    trace: bool,
}

impl Replay {
    /// Prepares `scenario` to run with `algorithm`.
    pub fn new(scenario: Scenario, algorithm: Algorithm) -> Replay {
        let Start { sim, timeline } = scenario.start(scenario.config(algorithm));
        let ids = vec![None; scenario.agents.len()];
        Replay {
            sim,
            timeline,
            ids,
            tick: 0,
            started: false,
            rejected: Vec::new(),
            index_of: BTreeMap::new(),
            trace: false,
        }
    }

    /// Adds every search run's expansions to each tick line (`--trace`).
    pub fn with_trace(mut self) -> Replay {
        self.trace = true;
        self.sim.set_tracing(true);
        self
    }

    /// The simulation being driven.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The scenario's timeline, as it was read: its agents keep their indices.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Whether the simulation records every search run's expansions ([`Replay::with_trace`]).
    pub fn tracing(&self) -> bool {
        self.trace
    }

    /// The agents that have appeared, in the scenario's order: each one's index in the
    /// scenario's agent list and its simulation id.
    pub fn agents(&self) -> impl Iterator<Item = (usize, AgentId)> + '_ {
        self.ids
            .iter()
            .enumerate()
            .filter_map(|(i, id)| Some((i, (*id)?)))
    }

    /// The agents that could not appear so far (start or goal walled by then): each one's
    /// index in the scenario's agent list and why.
    pub fn rejected(&self) -> &[(usize, SimError)] {
        &self.rejected
    }

    /// The index in the scenario's agent list of the agent with simulation id `id`.
    pub fn index_of(&self, id: AgentId) -> Option<usize> {
        self.index_of.get(&id).copied()
    }

    /// Runs the next tick (tick 0 first: the timeline's share of tick 0 applies, the
    /// planners plan, nobody moves; later ticks apply their share, then step) and reports it.
    pub fn step(&mut self) -> TickReport {
        let tick = if self.started { self.tick + 1 } else { 0 };
        self.started = true;
        self.tick = tick;
        let applied = self.timeline.apply(tick, &mut self.sim);
        for &(i, id) in &applied.appeared {
            self.ids[i] = Some(id);
            self.index_of.insert(id, i);
        }
        self.rejected.extend(applied.rejected.iter().cloned());
        // Tick 0 plans before anyone moves; later ticks repair and move in one step.
        let stats = match tick {
            0 => self.sim.replan(),
            _ => self.sim.step(),
        };
        TickReport {
            tick,
            applied,
            stats,
        }
    }

    /// Whether every agent of the scenario has appeared and arrived.
    pub fn finished(&self) -> bool {
        self.ids.iter().enumerate().all(|(i, id)| match id {
            Some(id) => self
                .sim
                .agent(*id)
                .is_some_and(|a| a.status == crate::sim::AgentStatus::Arrived),
            None => self.rejected.iter().any(|(r, _)| *r == i),
        })
    }
}
