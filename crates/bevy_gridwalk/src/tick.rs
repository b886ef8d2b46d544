//! The tick's systems, in `FixedUpdate`: gather input, apply edits, then plan and move.

use bevy::prelude::*;

use crate::agents::{AgentEntities, adopt};
use crate::clock::TickClock;
use crate::messages::{AgentRefused, ClearWalls, EditRefused, SpawnAgent, TileEdit, WallsCleared};
use crate::world::{GridSim, PendingInput};

/// Drains the input messages into [`PendingInput`] and decides whether this run is a tick
/// (not paused, or a step was asked for).
pub(crate) fn gather_input(
    mut clock: ResMut<TickClock>,
    mut pending: ResMut<PendingInput>,
    mut edits: MessageReader<TileEdit>,
    mut spawns: MessageReader<SpawnAgent>,
    mut clears: MessageReader<ClearWalls>,
) {
    (pending.spawns).extend(spawns.read().map(|&s| (s, None)));
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

/// What the tick's first step reports back.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Reports<'w> {
    agents: MessageWriter<'w, AgentRefused>,
    edits: MessageWriter<'w, EditRefused>,
    cleared: MessageWriter<'w, WallsCleared>,
}

/// Step 1 of a tick: agents removed or sent to new goals by the game; then the asked-for
/// agents and edits join the segment's timeline at this tick, which plays its share (dynamic
/// world, then agents, then edits, scripted ones first); then a pending "clear walls".
/// Refusals become messages.
pub(crate) fn apply_edits(
    mut commands: Commands,
    mut world: ResMut<GridSim>,
    mut pending: ResMut<PendingInput>,
    mut entities: ResMut<AgentEntities>,
    mut out: Reports,
) {
    let pending = &mut *pending;
    let leaving = std::mem::take(&mut pending.leaving);
    let retargets = std::mem::take(&mut pending.retargets);
    for (label, error) in world.apply_untimed(&leaving, &retargets) {
        let reason = format!("agent {label}: new goal refused: {error}");
        out.agents.write(AgentRefused {
            entity: None,
            reason,
        });
    }
    let played = world.play_tick(pending.spawns.drain(..), pending.edits.drain(..));
    let refused = played.refused_agents;
    adopt(
        &mut commands,
        &mut entities,
        &played.adopted,
        refused,
        &mut out.agents,
    );
    if std::mem::take(&mut pending.clear_walls) {
        let count = world.clear_walls();
        out.cleared.write(WallsCleared { count });
    }
    for (pos, error) in played.refused_edits {
        out.edits.write(EditRefused { pos, error });
    }
}

/// Step 2 of a tick: the planners repair and every agent with a path moves.
pub(crate) fn step(mut world: ResMut<GridSim>) {
    world.step();
}
