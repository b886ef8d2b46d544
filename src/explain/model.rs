//! The replay model of explain mode, free of drawing: which recorded search is shown, how far,
//! and every cell's state at that point.
//!
//! With D* Lite or D*, the replay is one of the last computes of the selected agent's planner
//! ([`ComputeRecord`]s kept by the core), newest first, so the user can step back to earlier
//! repairs. Beside it sits the ghost: the cells A* from scratch would expand from the agent's
//! cell on the same map. With A* and Dijkstra, the replay is a fresh search, as the planner
//! itself runs it. Either way the position counts the recorded steps shown.
//!
//! MPGAA\*'s compute is a row of A\* searches, one per agent (after a consistency pass when
//! costs fell). A search that stopped on a path found earlier reused it: [`search_stops`]
//! finds where each search stopped, and the replay draws the reused path from that step on.

use gridwalk_core::cost::Cost;
use gridwalk_core::sim::{AgentId, ComputeRecord};
use gridwalk_core::stats::SearchStats;
use gridwalk_core::trace::{ExpansionKind, Step, Trace};
use gridwalk_core::{Path, Pos};

/// A cell's state at the current point of the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// Not touched yet.
    Untouched,
    /// In the queue (the frontier).
    Open,
    /// Closed by a one-shot search.
    Closed,
    /// Lowered by a repair: its cost settled at its new, lower value.
    Lowered,
    /// Raised by a repair: its old cost became invalid.
    Raised,
}

/// What is replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// Computes of an incremental planner, oldest first; `index` is the one shown.
    Repairs {
        /// The computes kept by the planner.
        computes: Vec<ComputeRecord>,
        /// Which one is shown.
        index: usize,
    },
    /// A fresh search and the path it found.
    Search {
        /// Its recording.
        trace: Trace,
        /// Its path.
        path: Option<Path>,
    },
}

/// A path an MPGAA\* search reused: from the cell where it stopped to the goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reused {
    /// The step of the trace at which the search stopped.
    pub step: usize,
    /// The reused path, stop cell first.
    pub path: Path,
}

/// Where each search of an MPGAA\* trace stopped: `(step, cell)` of its last expansion. A
/// search begins where a cell is closed at cost 0 (only an agent's own cell costs nothing);
/// expansions of other kinds (the consistency pass) belong to no search.
pub fn search_stops(trace: &Trace) -> Vec<(usize, u32)> {
    let mut stops = Vec::new();
    let mut last: Option<(usize, u32)> = None;
    for (i, step) in trace.steps.iter().enumerate() {
        if let Step::Expand(e) = step
            && e.kind == ExpansionKind::Close
        {
            if e.cost == 0
                && let Some(l) = last.take()
            {
                stops.push(l);
            }
            last = Some((i, e.cell));
        }
    }
    stops.extend(last);
    stops
}

/// The work of the replayed compute, for the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayFigures {
    /// Cells lowered (or closed, for a one-shot search).
    pub lowered: usize,
    /// Cells raised.
    pub raised: usize,
    /// Queue work.
    pub stats: SearchStats,
    /// D* Lite's km after the compute.
    pub km: Cost,
    /// Agents the planner served.
    pub agents: usize,
    /// Its time, in microseconds.
    pub micros: u64,
    /// The tick it ran in.
    pub tick: u64,
}

/// The replay. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct Explain {
    /// The agent whose planner is replayed.
    pub agent: Option<AgentId>,
    /// What is replayed.
    pub replayed: Option<Replayed>,
    /// Cells A* from scratch expands from the agent's cell, in order.
    pub ghost: Vec<u32>,
    /// The agent's cell and goal when the replay began.
    pub ends: Option<(Pos, Pos)>,
    /// Steps shown so far (fractional while playing).
    pub shown: f64,
    /// Steps per second while playing.
    pub speed: f64,
    /// Whether the replay advances by itself.
    pub playing: bool,
    /// The simulation epoch it belongs to.
    pub epoch: u64,
    /// MPGAA\*: the paths the searches of compute `.0` reused.
    pub reused: Option<(usize, Vec<Reused>)>,
}

impl Explain {
    /// An idle replay at the default speed.
    pub fn new() -> Explain {
        Explain {
            speed: 200.0,
            ..Explain::default()
        }
    }

    /// Whether a replay is on screen.
    pub fn active(&self) -> bool {
        self.replayed.is_some()
    }

    /// Starts replaying `replayed` for `agent` from its first step.
    pub fn begin(
        &mut self,
        agent: AgentId,
        ends: (Pos, Pos),
        replayed: Replayed,
        ghost: Vec<u32>,
        epoch: u64,
    ) {
        *self = Explain {
            agent: Some(agent),
            replayed: Some(replayed),
            ghost,
            ends: Some(ends),
            shown: 0.0,
            speed: self.speed,
            playing: true,
            epoch,
            reused: None,
        };
    }

    /// Leaves explain mode, keeping the speed.
    pub fn stop(&mut self) {
        let speed = self.speed;
        *self = Explain {
            speed,
            ..Explain::new()
        };
    }

    /// The recording shown.
    pub fn trace(&self) -> Option<&Trace> {
        match self.replayed.as_ref()? {
            Replayed::Repairs { computes, index } => computes.get(*index).map(|c| &c.trace),
            Replayed::Search { trace, .. } => Some(trace),
        }
    }

    /// The compute shown, with D* Lite or D*.
    pub fn compute(&self) -> Option<&ComputeRecord> {
        match self.replayed.as_ref()? {
            Replayed::Repairs { computes, index } => computes.get(*index),
            Replayed::Search { .. } => None,
        }
    }

    /// Which compute is shown and how many are kept (1 of 1 for a fresh search).
    pub fn compute_index(&self) -> (usize, usize) {
        match &self.replayed {
            Some(Replayed::Repairs { computes, index }) => (*index, computes.len()),
            Some(Replayed::Search { .. }) => (0, 1),
            None => (0, 0),
        }
    }

    /// Shows compute `index` (clamped) from its first step.
    pub fn select_compute(&mut self, index: usize) {
        if let Some(Replayed::Repairs {
            computes,
            index: at,
        }) = &mut self.replayed
        {
            *at = index.min(computes.len().saturating_sub(1));
            self.shown = 0.0;
        }
    }

    /// The path of a fresh search, shown once its replay is done.
    pub fn path(&self) -> Option<&Path> {
        match self.replayed.as_ref()? {
            Replayed::Search { path, .. } => path.as_ref(),
            Replayed::Repairs { .. } => None,
        }
    }

    /// The path to draw now: a fresh search's once its replay is done, or the path the
    /// latest MPGAA\* search shown so far reused.
    pub fn shown_path(&self) -> Option<&Path> {
        if let Some(p) = self.path() {
            return self.done().then_some(p);
        }
        let (at, reused) = self.reused.as_ref()?;
        if self.compute_index().0 != *at {
            return None;
        }
        let k = self.position();
        reused.iter().rev().find(|r| r.step < k).map(|r| &r.path)
    }

    /// How many searches of the compute shown stopped on a reused path (MPGAA\*).
    pub fn reuse_count(&self) -> usize {
        match &self.reused {
            Some((at, r)) if *at == self.compute_index().0 => r.len(),
            _ => 0,
        }
    }

    /// Steps in the recording shown.
    pub fn len(&self) -> usize {
        self.trace().map_or(0, |t| t.steps.len())
    }

    /// Whether the recording shown has no step.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Steps shown so far.
    pub fn position(&self) -> usize {
        (self.shown.max(0.0) as usize).min(self.len())
    }

    /// Whether every step is shown.
    pub fn done(&self) -> bool {
        self.position() >= self.len()
    }

    /// Jumps to step `k` (clamped) and pauses.
    pub fn seek(&mut self, k: usize) {
        self.shown = k.min(self.len()) as f64;
        self.playing = false;
    }

    /// One step forward (`true`) or back, paused.
    pub fn step(&mut self, forward: bool) {
        let k = self.position();
        self.seek(if forward { k + 1 } else { k.saturating_sub(1) });
    }

    /// Shows `seconds` more of the replay at its speed.
    pub fn advance(&mut self, seconds: f64) {
        if self.playing {
            self.shown = (self.shown + seconds * self.speed).min(self.len() as f64);
            if self.done() {
                self.playing = false;
            }
        }
    }

    /// Every cell's state after the steps shown so far; `cells` is the map's size.
    pub fn cell_states(&self, cells: usize) -> Vec<CellState> {
        let mut out = vec![CellState::Untouched; cells];
        let Some(trace) = self.trace() else {
            return out;
        };
        let k = self.position();
        for step in &trace.steps[..k] {
            if let Step::Expand(e) = step
                && let Some(c) = out.get_mut(e.cell as usize)
            {
                *c = match e.kind {
                    ExpansionKind::Lower => CellState::Lowered,
                    ExpansionKind::Raise => CellState::Raised,
                    ExpansionKind::Close => CellState::Closed,
                };
            }
        }
        for (c, queued) in trace.frontier(k, cells).into_iter().enumerate() {
            if queued && out[c] == CellState::Untouched {
                out[c] = CellState::Open;
            }
        }
        out
    }

    /// The figures of the replayed compute or search.
    pub fn figures(&self) -> ReplayFigures {
        let mut f = ReplayFigures::default();
        if let Some(t) = self.trace() {
            for e in t.expansions() {
                match e.kind {
                    ExpansionKind::Raise => f.raised += 1,
                    _ => f.lowered += 1,
                }
            }
        }
        if let Some(c) = self.compute() {
            f.stats = c.stats;
            f.km = c.km;
            f.agents = c.agents;
            f.micros = c.micros;
            f.tick = c.tick;
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridwalk_core::trace::Expansion;

    fn expand(cell: u32, kind: ExpansionKind) -> Step {
        Step::Expand(Expansion {
            cell,
            kind,
            cost: 0,
        })
    }

    fn record(tick: u64, steps: Vec<Step>) -> ComputeRecord {
        ComputeRecord {
            tick,
            goal: Pos::new(0, 0),
            trace: Trace {
                initial_open: vec![0],
                steps,
                ..Trace::default()
            },
            stats: SearchStats::default(),
            km: 3,
            agents: 2,
            micros: 5,
        }
    }

    #[test]
    fn repairs_replay_step_by_step_and_back() {
        let computes = vec![
            record(1, vec![expand(0, ExpansionKind::Lower)]),
            record(
                2,
                vec![
                    expand(0, ExpansionKind::Raise),
                    Step::Open(1),
                    Step::Open(0),
                    expand(0, ExpansionKind::Lower),
                ],
            ),
        ];
        let mut ex = Explain::new();
        let repairs = Replayed::Repairs { computes, index: 1 };
        ex.begin(7, (Pos::new(2, 0), Pos::new(0, 0)), repairs, vec![2], 0);
        use CellState::*;
        assert_eq!(ex.cell_states(3), vec![Open, Untouched, Untouched]);
        ex.step(true);
        assert_eq!(ex.cell_states(3), vec![Raised, Untouched, Untouched]);
        ex.seek(3);
        let at3 = ex.cell_states(3);
        assert_eq!(at3, vec![Raised, Open, Untouched]);
        ex.step(true);
        assert_eq!(ex.cell_states(3), vec![Lowered, Open, Untouched]);
        ex.step(false);
        assert_eq!(ex.cell_states(3), at3, "back gives the same states");
        let f = ex.figures();
        assert_eq!(
            (f.lowered, f.raised, f.km, f.agents, f.tick),
            (1, 1, 3, 2, 2)
        );
        ex.select_compute(0);
        assert_eq!((ex.position(), ex.len()), (0, 1));
        ex.speed = 10.0;
        ex.playing = true;
        ex.advance(5.0);
        assert!(ex.done() && !ex.playing);
        assert_eq!(ex.cell_states(3)[0], Lowered);
        ex.stop();
        assert!(!ex.active());
        assert_eq!(ex.speed, 10.0);
    }

    fn close(cell: u32, cost: Cost) -> Step {
        Step::Expand(Expansion {
            cell,
            kind: ExpansionKind::Close,
            cost,
        })
    }

    #[test]
    fn mpgaa_searches_stop_and_their_reused_paths_show_from_there() {
        let steps = vec![
            expand(9, ExpansionKind::Lower),
            Step::Open(1),
            close(1, 0),
            Step::Open(2),
            close(2, 5),
            Step::Drop(3),
            Step::Open(4),
            close(4, 0),
        ];
        let trace = Trace {
            initial_open: vec![],
            steps: steps.clone(),
            ..Trace::default()
        };
        assert_eq!(search_stops(&trace), vec![(4, 2), (7, 4)]);
        let mut ex = Explain::new();
        let computes = vec![record(1, steps)];
        let repairs = Replayed::Repairs { computes, index: 0 };
        ex.begin(1, (Pos::new(1, 0), Pos::new(0, 0)), repairs, vec![], 0);
        let path = |x| Path {
            cells: vec![Pos::new(x, 0), Pos::new(0, 0)],
            cost: 1,
        };
        ex.reused = Some((
            0,
            vec![Reused {
                step: 4,
                path: path(2),
            }],
        ));
        ex.seek(4);
        assert_eq!(ex.shown_path(), None, "not stopped yet");
        ex.seek(5);
        assert_eq!(ex.shown_path(), Some(&path(2)));
        assert_eq!(ex.reuse_count(), 1);
    }
}
