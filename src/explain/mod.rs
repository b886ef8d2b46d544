//! Explain mode: replays how the selected agent's planner really worked, step by step.
//!
//! With D* Lite or D*, E replays the planner's last repair (its last compute that expanded a
//! cell); earlier ones, up to the last 32, are a click away. Lowered and raised cells, the
//! queue's frontier at the current step, and, as a ghost beside them, the cells A* from
//! scratch would expand from the agent's cell on the same map. With A* and Dijkstra it
//! replays the fresh search as the planner runs it, open and closed cells in order. The
//! recordings are the core's (see `gridwalk_core::trace`), the same that
//! `gridwalk-cli simulate --trace` prints. [`model`] holds the replay; `view` draws it.
//! With MPGAA\*, each search of the replayed compute that stopped on a path found earlier
//! shows that path from the step it stopped on.

pub mod model;

use bevy::prelude::*;
use gridwalk_core::search::mpgaa::next_direction;
use gridwalk_core::sim::AgentId;
use gridwalk_core::trace::Trace;
use gridwalk_core::{Algorithm, Path, Pos};

pub use model::{CellState, Explain, ReplayFigures, Replayed, Reused, search_stops};

use crate::notices::{NoticeKind, Notices};
use crate::schedule::{self, FrameSystems};
use crate::sim::{GridSim, TickClock};
use crate::ui_state::Selection;

/// What the explain replay should do.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainControl {
    /// Replay the selected agent's planner (its last repair) from the start; pauses the
    /// simulation so the map stays as it was.
    Start,
    /// Pause or resume the replay.
    TogglePlay,
    /// One step forward (`true`) or back.
    Step(bool),
    /// Jump to a step.
    Seek(usize),
    /// Show another kept compute of the planner (0 is the oldest).
    Compute(usize),
    /// Leave explain mode.
    Stop,
}

/// The replay, as a resource.
#[derive(Resource, Debug, Deref, DerefMut)]
pub struct ExplainState(pub Explain);

impl Default for ExplainState {
    fn default() -> Self {
        ExplainState(Explain::new())
    }
}

/// What a replay starts from: the recording, the A* ghost, and the agent's cell and goal.
pub type ReplayStart = (Replayed, Vec<u32>, (Pos, Pos));

/// The replay of `id`'s planner as the simulation has it now, with the A* ghost.
pub fn replay_of(state: &GridSim, id: AgentId) -> Result<ReplayStart, String> {
    let sim = state.sim();
    let a = sim.agent(id).ok_or("explain: that agent is gone")?;
    let ends = (a.pos, a.goal);
    if sim.config().algorithm.is_incremental() {
        let computes: Vec<_> = sim
            .history(id)
            .map(|h| h.iter().cloned().collect())
            .unwrap_or_default();
        if computes.is_empty() {
            return Err("explain: this planner has not expanded a cell yet".into());
        }
        let ghost = sim
            .astar_from_scratch(id)
            .map(|(t, _)| t.expansions().map(|e| e.cell).collect())
            .unwrap_or_default();
        let index = computes.len() - 1;
        Ok((Replayed::Repairs { computes, index }, ghost, ends))
    } else {
        let (trace, path) = sim.explain(id).ok_or("explain: that agent is gone")?;
        Ok((Replayed::Search { trace, path }, Vec::new(), ends))
    }
}

/// The paths MPGAA\*'s searches in `trace` (the planner's newest compute, so its `next`
/// pointers are as that compute left them) stopped on, read through the inspector: from each
/// stop that is not the goal, the `next` chain to the goal. Empty for other planners.
pub fn reused_paths(state: &GridSim, id: AgentId, trace: &Trace) -> Vec<Reused> {
    let sim = state.sim();
    if sim.config().algorithm != Algorithm::Mpgaa {
        return Vec::new();
    }
    let (grid, conn) = (sim.grid(), sim.config().connectivity);
    let Some(goal) = sim.agent(id).map(|a| a.goal) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (step, cell) in search_stops(trace) {
        let mut at = cell as usize;
        let mut path = Path {
            cells: vec![grid.pos(at)],
            cost: 0,
        };
        while grid.pos(at) != goal && path.cells.len() <= grid.len() {
            let Some(dir) = sim
                .inspect(id, grid.pos(at))
                .and_then(|i| next_direction(&i))
            else {
                break;
            };
            let next = grid.step(at, dir);
            let Some(c) = grid.move_cost(at, next, conn) else {
                break;
            };
            path.cost += c;
            path.cells.push(grid.pos(next));
            at = next;
        }
        if path.cells.len() > 1 && grid.pos(at) == goal {
            out.push(Reused { step, path });
        }
    }
    out
}

/// The explain feature.
pub fn plugin(app: &mut App) {
    schedule::ensure(app);
    app.init_resource::<ExplainState>()
        .add_message::<ExplainControl>()
        .add_systems(
            Update,
            (control, play).chain().in_set(FrameSystems::Explain),
        );
}

fn control(
    mut controls: MessageReader<ExplainControl>,
    mut ex: ResMut<ExplainState>,
    state: Res<GridSim>,
    selection: Res<Selection>,
    mut clock: ResMut<TickClock>,
    mut notices: ResMut<Notices>,
) {
    for c in controls.read() {
        match *c {
            ExplainControl::Start => {
                let Some(id) = selection.agent(&state) else {
                    notices.push(NoticeKind::Refused, "explain: select an agent first");
                    continue;
                };
                match replay_of(&state, id) {
                    Ok((replayed, ghost, ends)) => {
                        let newest = match &replayed {
                            Replayed::Repairs { computes, index } => computes
                                .get(*index)
                                .map(|c| (*index, reused_paths(&state, id, &c.trace))),
                            Replayed::Search { .. } => None,
                        };
                        ex.begin(id, ends, replayed, ghost, state.epoch());
                        ex.reused = newest;
                        clock.paused = true;
                    }
                    Err(e) => notices.push(NoticeKind::Refused, e),
                }
            }
            ExplainControl::TogglePlay => {
                if ex.done() {
                    ex.shown = 0.0;
                }
                ex.playing = !ex.playing;
            }
            ExplainControl::Step(forward) => ex.step(forward),
            ExplainControl::Seek(k) => ex.seek(k),
            ExplainControl::Compute(i) => ex.select_compute(i),
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
