//! The tick's systems, in `FixedUpdate`: gather input, apply edits, then plan and move.

use bevy::prelude::*;
use gridwalk_core::Pos;
use gridwalk_core::format::{AgentSpec, DynamicSpec, EditSpec};
use gridwalk_core::sim::OnArrival;
use gridwalk_core::sim::SimError;

use super::clock::SimClock;
use super::messages::{ClearWalls, SpawnAgent, TileEdit};
use super::state::{PendingInput, Script, SimState};
use crate::notices::{NoticeKind, Notices, report_refusals};

pub(super) fn gather_input(
    mut clock: ResMut<SimClock>,
    mut pending: ResMut<PendingInput>,
    mut edits: MessageReader<TileEdit>,
    mut spawns: MessageReader<SpawnAgent>,
    mut clears: MessageReader<ClearWalls>,
) {
    pending.spawns.extend(spawns.read().copied());
    pending.edits.extend(edits.read().copied());
    if clears.read().count() > 0 {
        pending.clear_walls = true;
    }
    clock.ticking = if clock.paused {
        let step = clock.steps > 0;
        clock.steps = clock.steps.saturating_sub(1);
        step
    } else {
        clock.steps = 0;
        true
    };
}

/// Step 1 of a tick: scripted and asked-for agents appear, then scripted and asked-for edits
/// apply, then a pending "clear walls". Refusals become one notice per kind of refusal.
pub(super) fn apply_edits(
    mut state: ResMut<SimState>,
    mut pending: ResMut<PendingInput>,
    mut notices: ResMut<Notices>,
) {
    let state = &mut *state;
    let tick = state.next_tick();
    let (script_agents, script_edits, script_dynamic) = take_due(&mut state.script, tick);
    for d in script_dynamic {
        state.set_dynamic(d.setting());
    }
    let policy = state.on_arrival;
    let spawns: Vec<(Pos, Pos, OnArrival)> = script_agents
        .iter()
        .map(|a| (a.start, a.goal, a.on_arrival))
        .chain(pending.spawns.drain(..).map(|s| (s.start, s.goal, policy)))
        .collect();
    if spawns
        .iter()
        .any(|&(s, g, _)| state.needs_restart_for(s, g))
    {
        state.restart_segment("an agent starts where the segment's map had a wall");
    }
    for (start, goal, policy) in spawns {
        if let Err(e) = state.add_agent(start, goal, policy) {
            notices.push(
                NoticeKind::Refused,
                format!("agent {start} to {goal} refused: {e}"),
            );
        }
    }
    let mut refused: Vec<(Pos, SimError)> = Vec::new();
    let edits = script_edits
        .iter()
        .flat_map(|e| e.cells.iter().map(move |&c| (c, e.set.terrain())))
        .chain(pending.edits.drain(..).map(|e| (e.pos, e.terrain)))
        .collect::<Vec<_>>();
    for (pos, terrain) in edits {
        if let Err(e) = state.edit(pos, terrain) {
            refused.push((pos, e));
        }
    }
    if std::mem::take(&mut pending.clear_walls) {
        let n = state.clear_walls();
        notices.push(NoticeKind::Info, format!("cleared {n} walls"));
    }
    report_refusals(&refused, &mut notices);
}

/// Takes the scripted agents, edits and dynamic-world changes of `tick` out of `script`.
fn take_due(script: &mut Script, tick: u64) -> (Vec<AgentSpec>, Vec<EditSpec>, Vec<DynamicSpec>) {
    if script.is_empty() {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let (due_a, rest_a) = script.agents.drain(..).partition(|a| a.tick <= tick);
    script.agents = rest_a;
    let (due_e, rest_e) = script.edits.drain(..).partition(|e| e.tick <= tick);
    script.edits = rest_e;
    let (due_d, rest_d) = script.dynamic.drain(..).partition(|d| d.tick <= tick);
    script.dynamic = rest_d;
    (due_a, due_e, due_d)
}

/// Step 2 of a tick: the planners repair and every agent with a path moves.
pub(super) fn step(mut state: ResMut<SimState>) {
    state.step();
}
