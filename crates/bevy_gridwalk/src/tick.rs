//! The tick's systems, in `FixedUpdate`: gather input, apply edits, then plan and move.

use bevy::prelude::*;

use crate::messages::{ClearWalls, EditLanded, Refused, SpawnAgent, TileEdit, WallsCleared};
use crate::world::{GridSim, PendingInput};

/// Drains the input messages into [`PendingInput`].
pub(crate) fn gather_input(
    mut pending: ResMut<PendingInput>,
    mut edits: MessageReader<TileEdit>,
    mut spawns: MessageReader<SpawnAgent>,
    mut clears: MessageReader<ClearWalls>,
) {
    (pending.spawns).extend(spawns.read().map(|&s| (s, None, None)));
    pending.edits.extend(edits.read().copied());
    if clears.read().count() > 0 {
        pending.clear_walls = true;
    }
}

/// The input queues that a new world drops.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Queues<'w> {
    pending: ResMut<'w, PendingInput>,
    edits: ResMut<'w, Messages<TileEdit>>,
    spawns: ResMut<'w, Messages<SpawnAgent>>,
    clears: ResMut<'w, Messages<ClearWalls>>,
}

/// Drops the input waiting for the next tick once the world was replaced
/// ([`GridSim::new_map`], [`GridSim::load`], [`GridSim::clear_agents`]): it was aimed at the
/// old one. Runs in `PostUpdate`, so input sent later in the frame of the change goes too.
pub(crate) fn drop_stale_input(mut world: ResMut<GridSim>, mut q: Queues) {
    if !world.drop_input {
        return;
    }
    world.drop_input = false;
    let pending = &mut *q.pending;
    pending.spawns.clear();
    pending.edits.clear();
    pending.clear_walls = false;
    q.edits.clear();
    q.spawns.clear();
    q.clears.clear();
}

/// What the tick's first step reports back.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Reports<'w> {
    refused: MessageWriter<'w, Refused>,
    landed: MessageWriter<'w, EditLanded>,
    cleared: MessageWriter<'w, WallsCleared>,
}

/// Step 1 of a tick: agents removed or sent to new goals by the game; then the asked-for
/// agents and edits join the segment's timeline at this tick, which plays its share (dynamic
/// world, then agents, then edits, scripted ones first, the held ones before the new); then
/// a pending "clear walls". Refusals and landed edits become messages, the world's starting
/// refusals at its first tick.
pub(crate) fn apply_edits(
    mut world: ResMut<GridSim>,
    mut pending: ResMut<PendingInput>,
    mut out: Reports,
) {
    let pending = &mut *pending;
    out.refused.write_batch(world.take_start_refusals());
    let leaving = std::mem::take(&mut pending.leaving);
    let retargets = std::mem::take(&mut pending.retargets);
    out.refused
        .write_batch(world.apply_untimed(&leaving, &retargets));
    let spawns = std::mem::take(&mut pending.spawns);
    let edits = std::mem::take(&mut pending.edits);
    let (refused, landed) = world.play_tick(spawns, edits);
    out.refused.write_batch(refused);
    out.landed.write_batch(landed);
    if std::mem::take(&mut pending.clear_walls) {
        let count = world.clear_walls();
        out.cleared.write(WallsCleared { count });
    }
}

/// Step 2 of a tick: the planners repair and every agent with a path moves.
pub(crate) fn step(mut world: ResMut<GridSim>) {
    world.step();
}
