//! Explain mode: replays the selected agent's search cell by cell.
//!
//! The core records a fresh search from the agent's cell to its goal
//! ([`gridwalk_core::sim::Simulation::explain`]: A* for D* Lite and A*, Dijkstra for the
//! others), every open and every close in order. The replay shows the first `n` events,
//! `n` growing at an adjustable speed in real time (so it also runs while the simulation is
//! paused): open cells in one colour, closed cells in another, then the path.

use bevy::prelude::*;
use gridwalk_core::search::best_first::TraceEvent;
use gridwalk_core::sim::AgentId;
use gridwalk_core::{Grid, Path, Pos};

use crate::input::Selection;
use crate::input::coords::tile_center;
use crate::sim::{NoticeKind, Notices, SimState};
use crate::view::agents::MarkerGizmos;

/// What the explain replay should do.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainControl {
    /// Record the selected agent's search and replay it from the start.
    Start,
    /// Pause or resume the replay.
    TogglePlay,
    /// Leave explain mode.
    Stop,
}

/// A cell's state at the current point of the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// Not reached yet.
    Untouched,
    /// In the open list.
    Open,
    /// Expanded.
    Closed,
}

/// The replay.
#[derive(Resource, Debug)]
pub struct ExplainState {
    agent: Option<AgentId>,
    events: Vec<TraceEvent>,
    path: Option<Path>,
    shown: f64,
    /// Events shown per second.
    pub speed: f64,
    /// Whether the replay advances.
    pub playing: bool,
    start: Pos,
    goal: Pos,
    epoch: u64,
}

impl Default for ExplainState {
    fn default() -> Self {
        ExplainState {
            agent: None,
            events: Vec::new(),
            path: None,
            shown: 0.0,
            speed: 300.0,
            playing: false,
            start: Pos::new(0, 0),
            goal: Pos::new(0, 0),
            epoch: 0,
        }
    }
}

impl ExplainState {
    /// Whether a replay is on screen.
    pub fn active(&self) -> bool {
        self.agent.is_some()
    }

    /// The agent whose search is replayed.
    pub fn agent(&self) -> Option<AgentId> {
        self.agent
    }

    /// Events shown so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.shown_events(), self.events.len())
    }

    /// Cells expanded by the whole search.
    pub fn expanded(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, TraceEvent::Closed(_)))
            .count()
    }

    /// The path found, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_ref()
    }

    /// Whether every event is shown.
    pub fn done(&self) -> bool {
        self.shown_events() >= self.events.len()
    }

    fn shown_events(&self) -> usize {
        (self.shown as usize).min(self.events.len())
    }

    /// Each cell's state after the events shown so far.
    pub fn cell_states(&self, grid: &Grid) -> Vec<CellState> {
        let mut out = vec![CellState::Untouched; grid.len()];
        for e in &self.events[..self.shown_events()] {
            let (p, s) = match *e {
                TraceEvent::Opened(p) => (p, CellState::Open),
                TraceEvent::Closed(p) => (p, CellState::Closed),
            };
            if let Ok(i) = grid.index(p)
                && out[i] != CellState::Closed
            {
                out[i] = s;
            }
        }
        out
    }

    /// Starts replaying `events` of a search from `start` to `goal` for `agent`.
    pub fn begin(
        &mut self,
        agent: AgentId,
        start: Pos,
        goal: Pos,
        events: Vec<TraceEvent>,
        path: Option<Path>,
        epoch: u64,
    ) {
        *self = ExplainState {
            agent: Some(agent),
            events,
            path,
            shown: 0.0,
            speed: self.speed,
            playing: true,
            start,
            goal,
            epoch,
        };
    }

    /// Leaves explain mode.
    pub fn stop(&mut self) {
        let speed = self.speed;
        *self = ExplainState {
            speed,
            ..ExplainState::default()
        };
    }

    /// Shows `seconds` more of the replay at its speed.
    pub fn advance(&mut self, seconds: f64) {
        if self.playing {
            self.shown = (self.shown + seconds * self.speed).min(self.events.len() as f64);
            if self.done() {
                self.playing = false;
            }
        }
    }
}

/// The explain systems, in `Update`.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExplainSystems;

/// The explain feature.
pub fn plugin(app: &mut App) {
    app.init_resource::<ExplainState>()
        .add_message::<ExplainControl>()
        .configure_sets(Update, ExplainSystems.after(crate::sim::SimCommandSystems))
        .add_systems(Update, (control, play, draw).chain().in_set(ExplainSystems));
}

fn control(
    mut controls: MessageReader<ExplainControl>,
    mut ex: ResMut<ExplainState>,
    state: Res<SimState>,
    selection: Res<Selection>,
    mut notices: ResMut<Notices>,
) {
    for c in controls.read() {
        match c {
            ExplainControl::Start => {
                let Some(id) = selection.0 else {
                    notices.push(NoticeKind::Refused, "explain: select an agent first");
                    continue;
                };
                let sim = state.sim();
                match (sim.agent(id), sim.explain(id)) {
                    (Some(a), Some((events, path))) => {
                        let (start, goal) = (a.pos, a.goal);
                        ex.begin(id, start, goal, events, path, state.epoch());
                    }
                    _ => notices.push(NoticeKind::Refused, "explain: that agent is gone"),
                }
            }
            ExplainControl::TogglePlay => {
                if ex.done() {
                    ex.shown = 0.0;
                }
                ex.playing = !ex.playing;
            }
            ExplainControl::Stop => ex.stop(),
        }
    }
    if ex.active() && ex.epoch != state.epoch() {
        ex.stop();
    }
}

fn play(mut ex: ResMut<ExplainState>, time: Res<Time<Real>>) {
    if ex.active() {
        ex.advance(time.delta_secs_f64());
    }
}

fn draw(ex: Res<ExplainState>, state: Res<SimState>, mut gizmos: Gizmos<MarkerGizmos>) {
    if !ex.active() {
        return;
    }
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    let s = tile_center(ex.start, w, h);
    let g = tile_center(ex.goal, w, h);
    gizmos.circle_2d(
        Isometry2d::from_translation(s),
        0.6,
        Color::srgb(0.1, 0.8, 0.2),
    );
    gizmos.circle_2d(
        Isometry2d::from_translation(g),
        0.6,
        Color::srgb(0.9, 0.2, 0.2),
    );
    if ex.done()
        && let Some(p) = &ex.path
    {
        gizmos.linestrip_2d(
            p.cells.iter().map(|&c| tile_center(c, w, h)),
            Color::srgb(1.0, 0.85, 0.1),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replay_shows_events_in_order() {
        let grid = Grid::new(3, 1).unwrap();
        let mut ex = ExplainState::default();
        let events = vec![
            TraceEvent::Opened(Pos::new(0, 0)),
            TraceEvent::Closed(Pos::new(0, 0)),
            TraceEvent::Opened(Pos::new(1, 0)),
            TraceEvent::Closed(Pos::new(1, 0)),
        ];
        ex.begin(0, Pos::new(0, 0), Pos::new(1, 0), events, None, 0);
        ex.speed = 2.0;
        ex.advance(1.0);
        assert_eq!(
            ex.cell_states(&grid),
            vec![
                CellState::Closed,
                CellState::Untouched,
                CellState::Untouched
            ]
        );
        ex.advance(0.5);
        assert_eq!(ex.cell_states(&grid)[1], CellState::Open);
        ex.advance(10.0);
        assert!(ex.done() && !ex.playing);
        assert_eq!(ex.expanded(), 2);
        ex.stop();
        assert!(!ex.active());
    }
}
