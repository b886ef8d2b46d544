//! Runs a RON scenario tick by tick with the semantics of [`crate::sim`]: the engine of
//! `gridwalk-cli simulate`, and the way a game recording is replayed.
//!
//! ```
//! use gridwalk_core::Algorithm;
//! use gridwalk_core::format::Scenario;
//! use gridwalk_core::replay::Replay;
//!
//! let text = r#"(
//!     rows: ["......", "..#...", "......"],
//!     agents: [(start: (0, 1), goal: (5, 1))],
//!     edits: [(tick: 2, set: Wall, cells: [(3, 1)])],
//! )"#;
//! let scenario = Scenario::parse(text, "example.ron").unwrap();
//! let mut replay = Replay::new(scenario, Algorithm::DStarLite).with_trace();
//! let mut lines = vec![replay.step()]; // tick 0 plans
//! while !replay.finished() {
//!     lines.push(replay.step());
//! }
//! let last = &lines.last().unwrap().agents[0];
//! assert_eq!((last.pos, last.status), ([5, 1], "arrived"));
//! // With the trace, every expansion of every tick is listed.
//! for l in &lines {
//!     let events: usize = l.trace.as_ref().unwrap().iter().map(|t| t.events.len()).sum();
//!     assert_eq!(events as u64, l.expanded);
//! }
//! ```

use std::collections::BTreeMap;

use serde::Serialize;

use crate::cost::{Cost, to_f64};
use crate::format::Scenario;
use crate::grid::{Grid, Pos, Terrain};
use crate::planner::Algorithm;
use crate::sim::{AgentId, RunSource, SearchRun, SimConfig, SimError, Simulation};

/// The default tick limit of a run that waits for every agent to arrive.
pub const DEFAULT_TICK_LIMIT: u64 = 10_000;

/// One agent as a tick line reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentLine {
    /// The agent's id: its index in the scenario's agent list.
    pub id: usize,
    /// Its cell.
    pub pos: [u32; 2],
    /// Its goal.
    pub goal: [u32; 2],
    /// `walking`, `arrived` or `no_path`.
    pub status: &'static str,
    /// The cost of its current path, rounded to 6 decimals; `None` without a path.
    pub remaining: Option<f64>,
}

/// What one tick did, as one JSON line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TickLine {
    /// The tick number; 0 is the first planning, before any move.
    pub tick: u64,
    /// Every agent present, by id.
    pub agents: Vec<AgentLine>,
    /// Cells whose edit was refused this tick.
    pub refused: Vec<[u32; 2]>,
    /// Cells expanded by the planners this tick.
    pub expanded: u64,
    /// Planner time this tick, in microseconds.
    pub micros: u64,
    /// With `--trace`: every search run of this tick's planning, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<TraceEntry>>,
}

/// One search run in a tick line's `trace`: a goal's shared planner or one agent's fresh
/// search, and its expansions as `[x, y, kind, cost]` (cost `null` when infinite).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEntry {
    /// The goal of an incremental planner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<[u32; 2]>,
    /// The agent (its index in the scenario) of a fresh search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<usize>,
    /// Every expansion, in order.
    pub events: Vec<(u32, u32, &'static str, Option<f64>)>,
}

/// A cost as tick lines print it: rounded to 6 decimals.
pub fn printed_cost(c: Cost) -> f64 {
    (to_f64(c) * 1e6).round() / 1e6
}

impl TraceEntry {
    fn of(run: &SearchRun, grid: &Grid, index_of: &BTreeMap<AgentId, usize>) -> TraceEntry {
        let (goal, agent) = match run.source {
            RunSource::Goal(p) => (Some([p.x, p.y]), None),
            RunSource::Agent(id) => (None, index_of.get(&id).copied()),
        };
        let events = run
            .trace
            .expansions()
            .map(|e| {
                let p = grid.pos(e.cell as usize);
                (p.x, p.y, e.kind.name(), e.finite_cost().map(printed_cost))
            })
            .collect();
        TraceEntry {
            goal,
            agent,
            events,
        }
    }
}

impl TickLine {
    /// The line as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a tick line always serialises")
    }
}

/// A scenario being played.
pub struct Replay {
    sim: Simulation,
    scenario: Scenario,
    /// Scenario agent index → simulation id, once it has appeared.
    ids: Vec<Option<AgentId>>,
    tick: u64,
    started: bool,
    /// Agents that could not appear (start or goal walled by then), with why.
    pub rejected: Vec<(usize, SimError)>,
    /// Simulation id → scenario index.
    index_of: BTreeMap<AgentId, usize>,
    trace: bool,
}

impl Replay {
    /// Prepares `scenario` to run with `algorithm`.
    pub fn new(scenario: Scenario, algorithm: Algorithm) -> Replay {
        let config = SimConfig {
            algorithm,
            connectivity: scenario.connectivity,
            heuristic: scenario
                .heuristic
                .unwrap_or(crate::Heuristic::default_for(scenario.connectivity)),
            measure_baseline: false,
        };
        let mut sim = Simulation::new(scenario.grid.clone(), config);
        sim.set_seed(scenario.seed);
        let ids = vec![None; scenario.agents.len()];
        Replay {
            sim,
            scenario,
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

    /// Runs the next tick (tick 0 first: agents of tick 0 appear, edits of tick 0 apply,
    /// the planners plan, nobody moves) and reports it.
    pub fn step(&mut self) -> TickLine {
        let tick = if self.started { self.tick + 1 } else { 0 };
        self.started = true;
        self.tick = tick;
        for d in self.scenario.dynamic.iter().filter(|d| d.tick == tick) {
            self.sim.set_dynamic(d.setting());
        }
        for (i, spec) in self.scenario.agents.iter().enumerate() {
            if spec.tick == tick {
                match self
                    .sim
                    .add_agent_with(spec.start, spec.goal, spec.on_arrival)
                {
                    Ok(id) => {
                        self.ids[i] = Some(id);
                        self.index_of.insert(id, i);
                    }
                    Err(e) => self.rejected.push((i, e)),
                }
            }
        }
        let mut refused = Vec::new();
        let edits: Vec<(Pos, Terrain)> = self
            .scenario
            .edits
            .iter()
            .filter(|e| e.tick == tick)
            .flat_map(|e| e.cells.iter().map(move |&c| (c, e.set.terrain())))
            .collect();
        for (pos, terrain) in edits {
            if self.sim.edit(pos, terrain).is_err() {
                refused.push([pos.x, pos.y]);
            }
        }
        // Tick 0 plans before anyone moves; later ticks repair and move in one step.
        let stats = match tick {
            0 => self.sim.replan(),
            _ => self.sim.step(),
        };
        let trace = self.trace.then(|| {
            self.sim
                .last_runs()
                .iter()
                .map(|r| TraceEntry::of(r, self.sim.grid(), &self.index_of))
                .collect()
        });
        let agents = self
            .ids
            .iter()
            .enumerate()
            .filter_map(|(i, id)| {
                let a = self.sim.agent((*id)?)?;
                Some(AgentLine {
                    id: i,
                    pos: [a.pos.x, a.pos.y],
                    goal: [a.goal.x, a.goal.y],
                    status: a.status.name(),
                    remaining: a.remaining.map(printed_cost),
                })
            })
            .collect();
        TickLine {
            tick,
            agents,
            refused,
            expanded: stats.search.expanded,
            micros: stats.micros,
            trace,
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
