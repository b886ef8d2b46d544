//! The tick's systems, in `FixedUpdate`: gather input, apply edits, then plan and move.

use bevy::prelude::*;

use super::clock::SimClock;
use super::messages::{ClearWalls, SpawnAgent, TileEdit};
use super::state::{PendingInput, SimState};
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

/// Step 1 of a tick: the asked-for agents and edits join the segment's timeline at this
/// tick, which plays its share (dynamic world, then agents, then edits, scripted ones first);
/// then a pending "clear walls". Refusals become one notice per kind of refusal.
pub(super) fn apply_edits(
    mut state: ResMut<SimState>,
    mut pending: ResMut<PendingInput>,
    mut notices: ResMut<Notices>,
) {
    let pending = &mut *pending;
    let (agents, refused) = state.play_tick(pending.spawns.drain(..), pending.edits.drain(..));
    for r in agents {
        notices.push(NoticeKind::Refused, r);
    }
    if std::mem::take(&mut pending.clear_walls) {
        let n = state.clear_walls();
        notices.push(NoticeKind::Info, format!("cleared {n} walls"));
    }
    report_refusals(&refused, &mut notices);
}

/// Step 2 of a tick: the planners repair and every agent with a path moves.
pub(super) fn step(mut state: ResMut<SimState>) {
    state.step();
}
