//! Agents as entities: the components a game spawns ([`GridPos`] and [`Goal`]), the ones the
//! plugin writes back every tick ([`GridAgent`], [`LastCell`], [`AgentState`], and
//! [`NextCell`] on the entities that carry one), and the systems that keep entities and the
//! simulation's agents in step.
//!
//! Spawning an entity with [`GridPos`] and [`Goal`] asks for an agent: [`Goal`]'s hook queues
//! it, and it appears at the next tick ([`AgentRefused`] if it cannot). Agents that appear
//! otherwise (a scenario's, a [`SpawnAgent`](crate::SpawnAgent) message's) get an entity of
//! the plugin's. Changing an entity's [`Goal`] sends its agent there at the next tick;
//! despawning it (or removing [`GridAgent`]) removes the agent.

use std::collections::HashMap;

use bevy::ecs::change_detection::Tick;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::system::SystemChangeTick;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use gridwalk_core::Pos;
use gridwalk_core::sim::{Agent, AgentId, AgentStatus};

use crate::messages::{AgentRefused, Arrived, SpawnAgent};
use crate::world::{GridSim, PendingInput};

/// The cell an agent stands on. Spawn it with a [`Goal`] to add an agent; after that the
/// plugin writes it every tick (a game's writes are overwritten).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridPos(pub Pos);

/// The cell an agent walks to. Spawning it with a [`GridPos`] adds an agent at the next tick
/// (without one, nothing happens);
/// changing it sends the agent there at the next tick. The plugin writes it when the agent's
/// arrival policy picks a new goal (wander, patrol).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[component(on_add = goal_added)]
pub struct Goal(pub Pos);

/// The agent an entity is, once it appeared: written by the plugin. Removing it (or
/// despawning the entity) removes the agent at the next tick.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[component(on_remove = agent_removed)]
#[require(LastCell(Pos::new(0, 0)), AgentState(AgentStatus::Planning))]
pub struct GridAgent {
    /// Its id in the simulation (a new one after every rebuild of the world).
    pub id: AgentId,
    /// Its stable number: kept across rebuilds, never given twice in a session.
    pub label: u32,
}

/// The cell the agent stood on before the last tick: draw it between this and [`GridPos`]
/// by `Time<Fixed>`'s overstep.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastCell(pub Pos);

/// The cell the agent's plan steps to next ([`Simulation::next_cell`]): `None` on its goal,
/// while it plans, or without a path. In crowd mode the step rule decides the move at the
/// next tick, and may hold the agent or send it aside.
///
/// Optional: add it to an agent's entity (at spawn, or later) and the plugin writes it after
/// every tick. Finding it takes a planner lookup per agent, so entities without it cost
/// nothing.
///
/// [`Simulation::next_cell`]: gridwalk_core::sim::Simulation::next_cell
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextCell(pub Option<Pos>);

/// What the agent is doing: walking, arrived, waiting for a plan, no path, ...
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentState(pub AgentStatus);

/// Simulation agent id → its entity, and the world's epoch they were made for.
#[derive(Resource, Default, Debug)]
pub struct AgentEntities {
    /// Each agent's entity.
    pub map: HashMap<AgentId, Entity>,
    /// The newest agent with an entity: later ids have none yet.
    newest: Option<AgentId>,
    /// The world's epoch the ids are of.
    epoch: Option<u64>,
    /// The change tick of the last [`sync_agents`]: a [`Goal`] changed at it is the plugin's
    /// own write, not the game's.
    synced: Option<Tick>,
}

/// Entities the game spawned with a [`Goal`], waiting for the next tick.
#[derive(Resource, Default, Debug)]
pub(crate) struct Joining(pub(crate) Vec<(Entity, SpawnAgent)>);

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
    if let (Some(goal), Some(mut joining)) = (goal, world.get_resource_mut::<Joining>()) {
        joining.0.push((e, SpawnAgent { start, goal }));
    }
}

/// Queues the removal of the agent an entity was.
fn agent_removed(mut world: DeferredWorld, ctx: HookContext) {
    let label = world.get::<GridAgent>(ctx.entity).map(|a| a.label);
    if let (Some(label), Some(mut pending)) = (label, world.get_resource_mut::<PendingInput>()) {
        pending.leaving.push(label);
    }
}

/// Gathers the game's new entities and changed goals into the input of the next tick.
pub(crate) fn gather_agents(
    world: Res<GridSim>,
    entities: Res<AgentEntities>,
    mut joining: ResMut<Joining>,
    mut pending: ResMut<PendingInput>,
    goals: Query<(&GridAgent, Ref<Goal>), Changed<Goal>>,
) {
    let pending = &mut *pending;
    (pending.spawns).extend(joining.0.drain(..).map(|(e, s)| (s, Some(e))));
    // The plugin writes goals too (a wanderer's next one, or one set on the simulation): a
    // goal changed since, and differing from its agent's, is the game's.
    let sim = world.sim();
    let set = (goals.iter())
        .filter(|(_, g)| Some(g.last_changed()) != entities.synced)
        .filter(|(a, g)| sim.agent(a.id).is_some_and(|x| x.goal != g.0));
    pending.retargets.extend(set.map(|(a, g)| (a.label, g.0)));
}

/// The components of a new agent's entity.
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
    &'a mut AgentState,
);

/// The tick's last step: every agent entity follows its agent, and [`Arrived`] is sent for
/// those that arrived. The query is walked beside the simulation's agents, both in id order
/// (entities are made oldest first); agents newer than the newest entity get one. After a
/// rebuild of the world ([`GridSim::epoch`]), entities are matched to agents by label.
pub(crate) fn sync_agents(
    mut commands: Commands,
    world: Res<GridSim>,
    mut entities: ResMut<AgentEntities>,
    mut agents: Query<Written>,
    mut arrived: MessageWriter<Arrived>,
    ticks: SystemChangeTick,
) {
    let sim = world.sim();
    let mut cursor = sim.agents().peekable();
    for (e, marker, mut pos, mut last, mut goal, mut next, mut state) in &mut agents {
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
    spawn_fresh(&mut commands, &world, &mut entities);
    entities.synced = Some(ticks.this_run());
}

/// Gives the agents newer than the newest entity one, oldest first (so the query keeps
/// walking in id order), and despawns the entities of agents that are gone.
fn spawn_fresh(commands: &mut Commands, world: &GridSim, entities: &mut AgentEntities) {
    let sim = world.sim();
    let newest = entities.newest;
    let fresh = (sim.agents().rev())
        .take_while(|a| newest.is_none_or(|n| a.id > n))
        .count();
    for a in sim.agents().skip(sim.agent_count() - fresh) {
        let e = match entities.map.get(&a.id) {
            // The game's own entity, matched when its agent appeared.
            Some(&e) => {
                let next = NextCell(sim.next_cell(a.id));
                let mut entity = commands.entity(e);
                entity.insert(components(a, world.label(a.id)));
                // Its NextCell, if it carries one, from this tick on.
                entity.queue(move |mut entity: EntityWorldMut| {
                    if let Some(mut n) = entity.get_mut::<NextCell>() {
                        n.set_if_neq(next);
                    }
                });
                e
            }
            None => commands.spawn(components(a, world.label(a.id))).id(),
        };
        entities.map.insert(a.id, e);
    }
    if let Some(last) = sim.agents().next_back() {
        entities.newest = Some(newest.map_or(last.id, |n| n.max(last.id)));
    }
    if entities.map.len() != sim.agent_count() {
        entities.map.retain(|id, e| {
            let keep = sim.agent(*id).is_some();
            if !keep && let Ok(mut entity) = commands.get_entity(*e) {
                entity.despawn();
            }
            keep
        });
    }
}

/// Run condition: the world was rebuilt since the entities last followed it.
pub(crate) fn rebuilt(world: Res<GridSim>, entities: Res<AgentEntities>) -> bool {
    entities.epoch != Some(world.epoch())
}

/// After a rebuild of the world ([`GridSim::epoch`]) every agent has a new id: entities
/// keep their agent by label, those whose agent is gone are despawned, and every agent is
/// then fresh for [`sync_agents`], which writes its components again.
pub(crate) fn rematch_agents(
    mut commands: Commands,
    world: Res<GridSim>,
    mut entities: ResMut<AgentEntities>,
    mut relabel: Query<(Entity, &mut GridAgent)>,
) {
    if entities.epoch == Some(world.epoch()) {
        return;
    }
    entities.epoch = Some(world.epoch());
    let sim = world.sim();
    let ids: HashMap<u32, AgentId> = sim.agents().map(|a| (world.label(a.id), a.id)).collect();
    entities.map.clear();
    entities.newest = None;
    for (e, mut agent) in &mut relabel {
        match ids.get(&agent.label) {
            Some(&id) => {
                agent.bypass_change_detection().id = id;
                entities.map.insert(id, e);
            }
            None => commands.entity(e).despawn(),
        }
    }
}

/// Records the entities the game spawned whose agents appeared this tick, and sends
/// [`AgentRefused`] for those refused.
pub(crate) fn adopt(
    commands: &mut Commands,
    entities: &mut AgentEntities,
    adopted: &[(AgentId, Entity)],
    refused: Vec<(Option<Entity>, String)>,
    out: &mut MessageWriter<AgentRefused>,
) {
    for &(id, e) in adopted {
        if commands.get_entity(e).is_ok() {
            entities.map.insert(id, e);
        }
    }
    for (entity, reason) in refused {
        out.write(AgentRefused { entity, reason });
    }
}
