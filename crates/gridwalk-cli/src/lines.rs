//! The JSON lines `gridwalk-cli simulate` prints: one [`TickLine`] per tick of a
//! [`Replay`], with its agents and, with `--trace`, every search run's expansions.
//!
//! ```
//! use gridwalk_cli::lines::TickLine;
//! use gridwalk_core::Algorithm;
//! use gridwalk_core::format::Scenario;
//! use gridwalk_core::scenario::replay::Replay;
//!
//! let text = r#"(
//!     rows: ["......", "..#...", "......"],
//!     agents: [(start: (0, 1), goal: (5, 1))],
//!     edits: [(tick: 2, set: Wall, cells: [(3, 1)])],
//! )"#;
//! let scenario = Scenario::parse(text, "example.ron").unwrap();
//! let mut replay = Replay::new(scenario, Algorithm::DStarLite).with_trace();
//! let tick = replay.step(); // tick 0 plans
//! let mut lines = vec![TickLine::of(&replay, &tick)];
//! while !replay.finished() {
//!     let tick = replay.step();
//!     lines.push(TickLine::of(&replay, &tick));
//! }
//! let last = &lines.last().unwrap().agents[0];
//! assert_eq!((last.pos, last.status), ([5, 1], "arrived"));
//! // With the trace, every expansion of every tick is listed.
//! for l in &lines {
//!     let events: usize = l.trace.as_ref().unwrap().iter().map(|t| t.events.len()).sum();
//!     assert_eq!(events as u64, l.expanded);
//! }
//! ```

use gridwalk_core::Terrain;
use gridwalk_core::cost::{Cost, to_f64};
use gridwalk_core::scenario::replay::{Replay, TickReport};
use gridwalk_core::sim::CrowdStats;
use gridwalk_core::sim::{RunSource, SearchRun};

use serde::Serialize;

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
    /// Where it faces (`east`, `south`, `west` or `north`), only while agents turn
    /// (`rotation`); left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<&'static str>,
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
    /// With a sensor range: the cells whose known terrain this tick's sensing changed, row
    /// by row, as `[x, y, terrain]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discovered: Option<Vec<(u32, u32, Sensed)>>,
    /// Crowd mode's figures (`--crowd`), absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crowd: Option<CrowdStats>,
}

/// A discovered cell's terrain as a tick line prints it: `"wall"`, `"free"` (plain ground)
/// or its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Sensed {
    /// `"wall"` or `"free"`.
    Named(&'static str),
    /// A weight, 2 to 9.
    Weight(u8),
}

impl Sensed {
    /// How `terrain` is printed.
    pub fn of(terrain: Terrain) -> Sensed {
        match terrain {
            Terrain::Wall => Sensed::Named("wall"),
            Terrain::Weight(1) => Sensed::Named("free"),
            Terrain::Weight(w) => Sensed::Weight(w),
        }
    }
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
    /// `run` as a trace entry, its agent named by its index in `replay`'s scenario.
    fn of(run: &SearchRun, replay: &Replay) -> TraceEntry {
        let (goal, agent) = match run.source {
            RunSource::Goal(p) => (Some([p.x, p.y]), None),
            RunSource::Agent(id) => (None, replay.index_of(id)),
        };
        let grid = replay.sim().grid();
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
    /// The line of `tick`, the tick `replay` has just run: its agents as they stand, and
    /// with tracing on, the search runs of its planning.
    pub fn of(replay: &Replay, tick: &TickReport) -> TickLine {
        let sim = replay.sim();
        let trace = replay.tracing().then(|| {
            sim.last_runs()
                .iter()
                .map(|r| TraceEntry::of(r, replay))
                .collect()
        });
        let turns = sim.config().turns();
        let agents = replay
            .agents()
            .filter_map(|(i, id)| {
                let a = sim.agent(id)?;
                Some(AgentLine {
                    id: i,
                    pos: [a.pos.x, a.pos.y],
                    goal: [a.goal.x, a.goal.y],
                    status: a.status.name(),
                    remaining: a.remaining.map(printed_cost),
                    facing: turns.then(|| a.facing.name()),
                })
            })
            .collect();
        TickLine {
            tick: tick.tick,
            agents,
            refused: tick
                .applied
                .refused
                .iter()
                .map(|(p, _)| [p.x, p.y])
                .collect(),
            expanded: tick.stats.search.expanded,
            micros: tick.stats.micros,
            trace,
            discovered: sim
                .last_discovered()
                .map(|cells| cells.map(|(p, t)| (p.x, p.y, Sensed::of(t))).collect()),
            crowd: sim.crowd_stats(),
        }
    }

    /// The line as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a tick line always serialises")
    }
}
