//! Agents as entities: the components a game spawns ([`GridPos`] and [`Goal`]), the ones the
//! plugin writes back every tick ([`GridAgent`], [`LastCell`], [`AgentState`], and
//! [`NextCell`] and [`GridPath`] on the entities that carry them), and the systems that keep entities and the
//! simulation's agents in step.
//!
//! Spawning an entity with [`GridPos`] and [`Goal`] asks for an agent: [`Goal`]'s hook queues
//! it, and it appears at the next tick ([`Refused`](crate::Refused) if it cannot). Agents
//! that appear otherwise (a scenario's, a [`SpawnAgent`](crate::SpawnAgent) message's) get
//! an entity of the plugin's. Changing an entity's [`Goal`] sends its agent there at the next tick;
//! despawning it (or removing [`GridAgent`]) removes the agent, one still waiting to enter or
//! to join included.

use bevy::ecs::change_detection::Tick;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::system::{NonSendMarker, SystemChangeTick};
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use gridwalk_core::sim::{Agent, AgentId, AgentStatus, OnArrival, Simulation};
use gridwalk_core::{Facing, Pos};

use crate::messages::{Arrived, SpawnAgent};
use crate::reflect::{
    AgentStatusReflect, CellsReflect, FacingReflect, MaybePosReflect, OnArrivalReflect, PosReflect,
};
use crate::world::{GridSim, PendingInput};

/// The cell an agent stands on. Spawn it with a [`Goal`] to add an agent; after that the
/// plugin writes it every tick (a game's writes are overwritten).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct GridPos(#[reflect(remote = PosReflect)] pub Pos);

/// The cell an agent walks to. Spawning it with a [`GridPos`] adds an agent at the next tick
/// (without one, nothing happens);
/// changing it sends the agent there at the next tick. The plugin writes it when the agent's
/// arrival policy picks a new goal (wander, patrol).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[component(on_add = goal_added, on_despawn = goal_despawned)]
#[reflect(Component, Debug, PartialEq)]
pub struct Goal(#[reflect(remote = PosReflect)] pub Pos);

/// What this agent does on arrival (stay, wander, patrol): read when its entity is spawned
/// with [`GridPos`] and [`Goal`]. Without it, the agent follows the world's setting
/// ([`GridSim::on_arrival`], from [`GridwalkSettings::on_arrival`](crate::GridwalkSettings)).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct ArrivalPolicy(#[reflect(remote = OnArrivalReflect)] pub OnArrival);

/// The agent an entity is, once it is on the map: written by the plugin. Removing it (or
/// despawning the entity) removes the agent at the next tick.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[component(on_remove = agent_removed)]
#[reflect(Component, Debug, PartialEq)]
#[require(LastCell(Pos::new(0, 0)), AgentState(AgentStatus::Planning))]
pub struct GridAgent {
    /// Its id in the simulation: a new one after a rebuild of the world
    /// ([`GridSim::epoch`]), which keeps the entity.
    pub id: AgentId,
    /// Its stable number: kept across rebuilds, never given twice in a session.
    pub label: u32,
}

/// The cell the agent stood on before the last tick: draw it between this and [`GridPos`]
/// by `Time<Fixed>`'s overstep.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct LastCell(#[reflect(remote = PosReflect)] pub Pos);

/// The cell the agent's plan steps to next ([`Simulation::next_cell`]): `None` on its goal,
/// while it plans, or without a path. In crowd mode the step rule decides the move at the
/// next tick, and may hold the agent or send it aside.
///
/// Optional: add it to an agent's entity (at spawn, or later) and the plugin writes it after
/// every tick. Finding it takes a planner lookup per agent, so entities without it cost
/// nothing.
///
/// [`Simulation::next_cell`]: gridwalk_core::sim::Simulation::next_cell
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct NextCell(#[reflect(remote = MaybePosReflect)] pub Option<Pos>);

/// The agent's whole planned path, its own cell first: empty on its goal, while it plans, or
/// without a path; its second cell is [`NextCell`]'s. In crowd mode the step rule may hold
/// the agent or send it aside.
///
/// Optional, as [`NextCell`] is: add it to an agent's entity and the plugin writes it after
/// every tick. Each write walks the plan, so only the entities that carry it pay.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct GridPath(#[reflect(remote = CellsReflect)] pub Vec<Pos>);

/// The direction the agent faces: it turns while agents turn
/// ([`GridwalkSettings::rotation`](crate::GridwalkSettings::rotation)), and keeps its facing
/// otherwise.
///
/// Optional, as [`NextCell`] is: add it to an agent's entity and the plugin writes it after
/// every tick.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct Heading(#[reflect(remote = FacingReflect)] pub Facing);

/// What the agent is doing: walking, arrived, waiting for a plan, no path, ...
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct AgentState(#[reflect(remote = AgentStatusReflect)] pub AgentStatus);

/// Where the entities stand against the world: the epoch they follow, and the change tick of
/// the last [`sync_agents`] (a [`Goal`] changed at it is the plugin's own write, not the
/// game's).
#[derive(Resource, Default, Debug)]
pub(crate) struct Synced {
    epoch: Option<u64>,
    tick: Option<Tick>,
}

/// Entities the game spawned with a [`Goal`], waiting for the next tick.
#[derive(Resource, Default, Debug)]
pub(crate) struct Joining(pub(crate) Vec<(Entity, SpawnAgent, Option<OnArrival>)>);

/// Queues an entity spawned with a [`Goal`] (and not by the plugin) as a new agent.
fn goal_added(mut world: DeferredWorld, ctx: HookContext) {
    let e = ctx.entity;
    if world.get::<GridAgent>(e).is_some() {
        return;
    }
    let goal = world.get::<Goal>(e).map(|g| g.0);
    // Without a GridPos the entity is no agent (see `Goal`).
    let Some(start) = world.get::<GridPos>(e).map(|p| p.0) else {
        return;
    };
    let policy = world.get::<ArrivalPolicy>(e).map(|p| p.0);
    if let (Some(goal), Some(mut joining)) = (goal, world.get_resource_mut::<Joining>()) {
        joining.0.push((e, SpawnAgent { start, goal }, policy));
    }
}

/// An entity with a [`Goal`] is despawned: its agent goes at the next tick, whether it
/// stands on the map, waits to enter (crowd mode, no [`GridAgent`] yet) or has not joined.
fn goal_despawned(mut world: DeferredWorld, ctx: HookContext) {
    let e = ctx.entity;
    if let Some(mut joining) = world.get_resource_mut::<Joining>()
        && !joining.0.is_empty()
    {
        joining.0.retain(|(j, ..)| *j != e);
    }
    // An entity with a GridAgent is queued by that component's hook.
    let on_map = world.get::<GridAgent>(e).is_some();
    if let Some(mut pending) = world.get_resource_mut::<PendingInput>() {
        if !pending.spawns.is_empty() {
            pending.spawns.retain(|(_, j, _)| *j != Some(e));
        }
        if !on_map {
            pending.leaving.push(e);
        }
    }
}

/// Queues the removal of the agent an entity was.
fn agent_removed(mut world: DeferredWorld, ctx: HookContext) {
    if let Some(mut pending) = world.get_resource_mut::<PendingInput>() {
        pending.leaving.push(ctx.entity);
    }
}

/// What [`gather_agents`] reads: the game's new entities and its changed goals.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Gathered<'w, 's> {
    synced: Res<'w, Synced>,
    joining: ResMut<'w, Joining>,
    goals: Query<'w, 's, (Entity, Ref<'static, GridAgent>, Ref<'static, Goal>), Changed<Goal>>,
}

/// Gathers the game's new entities and changed goals into the input of the next tick. The
/// plugin writes goals too (a wanderer's next one), at the last sync's change tick: a goal
/// changed at another is the game's. Whether it differs from the agent's is for the tick to
/// see ([`GridSim::apply_untimed`]), which looks the agent up once; each goal goes with
/// whether the plugin just gave the entity its components, goal included.
pub(crate) fn gather_agents(g: &mut Gathered, pending: &mut PendingInput) {
    (pending.spawns).extend(g.joining.0.drain(..).map(|(e, s, p)| (s, Some(e), p)));
    let tick = g.synced.tick;
    let set = (g.goals.iter()).filter(|(_, _, goal)| Some(goal.last_changed()) != tick);
    (pending.retargets).extend(set.map(|(e, a, goal)| (e, goal.0, a.is_changed())));
}

/// The components of an agent's entity.
fn components(a: &Agent, label: u32) -> (GridAgent, GridPos, LastCell, Goal, AgentState) {
    (
        GridAgent { id: a.id, label },
        GridPos(a.pos),
        LastCell(a.pos),
        Goal(a.goal),
        AgentState(a.status),
    )
}

/// The agent components an entity's query writes.
type Written<'a> = (
    Entity,
    &'a GridAgent,
    &'a mut GridPos,
    &'a mut LastCell,
    &'a mut Goal,
    Option<&'a mut NextCell>,
    Option<&'a mut GridPath>,
    Option<&'a mut Heading>,
    &'a mut AgentState,
);

/// The plan's cells, as [`GridPath`] holds them.
fn path_cells(sim: &Simulation, id: AgentId) -> Vec<Pos> {
    sim.path(id).map(|p| p.cells).unwrap_or_default()
}

/// The tick's last step: every agent entity follows its agent, and [`Arrived`] is sent for
/// those that arrived. The query is walked beside the simulation's agents, both mostly in id
/// order (entities are made oldest first), looking an agent up only where they part. Then
/// the fresh agents' entities get their components (spawned for agents that came without
/// one), and the entities of agents a rebuild dropped are despawned. After a rebuild every
/// agent is fresh, so the walk is skipped: ids are new.
pub(crate) fn sync_agents(
    mut commands: Commands,
    mut world: ResMut<GridSim>,
    mut synced: ResMut<Synced>,
    mut agents: Query<Written>,
    mut arrived: MessageWriter<Arrived>,
    ticks: SystemChangeTick,
    _main: NonSendMarker,
) {
    let world = &mut *world;
    if synced.epoch == Some(world.epoch()) {
        follow(world.sim(), &mut agents, &mut arrived);
    }
    synced.epoch = Some(world.epoch());
    for (entity, cell) in std::mem::take(&mut world.arrived_again) {
        arrived.write(Arrived { entity, cell });
    }
    dress_fresh(&mut commands, world, &mut arrived);
    for e in std::mem::take(&mut world.gone) {
        if let Ok(mut entity) = commands.get_entity(e) {
            entity.despawn();
        }
    }
    synced.tick = Some(ticks.this_run());
}

/// Every entity's components follow its agent; [`Arrived`] for those that arrived.
fn follow(sim: &Simulation, agents: &mut Query<Written>, arrived: &mut MessageWriter<Arrived>) {
    let mut cursor = sim.agents().peekable();
    for (e, marker, mut pos, mut last, mut goal, mut next, mut path, mut heading, mut state) in
        agents
    {
        while cursor.next_if(|a| a.id < marker.id).is_some() {}
        let found = match cursor.peek() {
            Some(a) if a.id == marker.id => cursor.next(),
            _ => sim.agent(marker.id),
        };
        let Some(a) = found else {
            continue;
        };
        let before = pos.0;
        last.set_if_neq(LastCell(before));
        pos.set_if_neq(GridPos(a.pos));
        goal.set_if_neq(Goal(a.goal));
        if let Some(next) = next.as_mut() {
            next.set_if_neq(NextCell(sim.next_cell(a.id)));
        }
        if let Some(heading) = heading.as_mut() {
            heading.set_if_neq(Heading(a.facing));
        }
        if let Some(path) = path.as_mut() {
            let cells = path_cells(sim, a.id);
            if path.0 != cells {
                path.0 = cells;
            }
        }
        if state.0 != a.status {
            if a.status == AgentStatus::Arrived {
                arrived.write(Arrived {
                    entity: e,
                    cell: a.pos,
                });
            }
            state.0 = a.status;
        }
    }
}

/// Gives the fresh agents' entities their components, oldest first (so the query keeps
/// walking in id order), spawning one for an agent that came without. One that starts on its
/// goal has arrived: [`Arrived`] says so (not after a rebuild, which only carries it over).
fn dress_fresh(commands: &mut Commands, world: &mut GridSim, arrived: &mut MessageWriter<Arrived>) {
    let rebuilt = std::mem::take(&mut world.rebuilt_fresh);
    for id in std::mem::take(&mut world.fresh) {
        let Some(a) = world.sim().agent(id) else {
            continue;
        };
        let arrives = !rebuilt && a.status == AgentStatus::Arrived;
        let cell = a.pos;
        let bundle = components(a, world.label(id));
        let next = NextCell(world.sim().next_cell(id));
        let heading = Heading(a.facing);
        let cells = path_cells(world.sim(), id);
        match world.entity(id).map(|e| commands.get_entity(e)) {
            Some(Ok(mut entity)) => {
                entity.insert(bundle);
                // Its NextCell, Heading and GridPath, if it carries them, from this tick on.
                entity.queue(move |mut entity: EntityWorldMut| {
                    if let Some(mut n) = entity.get_mut::<NextCell>() {
                        n.set_if_neq(next);
                    }
                    if let Some(mut h) = entity.get_mut::<Heading>() {
                        h.set_if_neq(heading);
                    }
                    if let Some(mut p) = entity.get_mut::<GridPath>() {
                        p.set_if_neq(GridPath(cells));
                    }
                });
            }
            // Its entity was despawned meanwhile: the agent goes at the next tick.
            Some(Err(_)) => {}
            None => {
                let e = commands.spawn(bundle).id();
                world.bind(id, e);
            }
        }
        if arrives && let Some(entity) = world.entity(id) {
            arrived.write(Arrived { entity, cell });
        }
    }
}

/// Run condition: the world was rebuilt since the entities last followed it.
pub(crate) fn rebuilt(world: Res<GridSim>, synced: Res<Synced>) -> bool {
    synced.epoch != Some(world.epoch())
}
