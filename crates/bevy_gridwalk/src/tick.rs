//! The tick's systems, in `FixedUpdate`: gather input, apply edits, then plan and move.

use bevy::ecs::system::NonSendMarker;
use bevy::prelude::*;

use crate::agents;
use crate::clock::TickClock;
use crate::messages::{ClearWalls, EditLanded, Refused, SpawnAgent, TileEdit, WallsCleared};
use crate::world::{GridSim, PendingInput};

/// The input messages.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Input<'w, 's> {
    edits: MessageReader<'w, 's, TileEdit>,
    spawns: MessageReader<'w, 's, SpawnAgent>,
    clears: MessageReader<'w, 's, ClearWalls>,
}

/// The tick's first step, run at every `FixedUpdate` run: advances the clock by the fixed
/// timestep (deciding whether this run is a tick), then drains the input messages and the
/// game's new entities and changed goals into [`PendingInput`]. One system, not three: each
/// system of a multi-threaded schedule costs a task.
pub(crate) fn gather(
    mut clock: ResMut<TickClock>,
    fixed: Res<Time<Fixed>>,
    mut pending: ResMut<PendingInput>,
    mut input: Input,
    mut gathered: agents::Gathered,
    _main: NonSendMarker,
) {
    clock.advance(fixed.delta());
    let pending = &mut *pending;
    (pending.spawns).extend(input.spawns.read().map(|&s| (s, None, None)));
    pending.edits.extend(input.edits.read().copied());
    if input.clears.read().count() > 0 {
        pending.clear_walls = true;
    }
    agents::gather_agents(&mut gathered, pending);
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
    _main: NonSendMarker,
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
pub(crate) fn step(mut world: ResMut<GridSim>, _main: NonSendMarker) {
    world.step();
}
