//! Agent entities that follow the simulation, one per agent.

use std::collections::HashMap;

use bevy::prelude::*;
use gridwalk_core::Pos;
use gridwalk_core::sim::{AgentId, AgentStatus};

use super::state::SimState;

/// Sim agent id → its entity.
#[derive(Resource, Default, Debug)]
pub struct AgentEntities {
    /// Each agent's entity.
    pub map: HashMap<AgentId, Entity>,
    /// The newest agent with an entity: later ids have none yet.
    newest: Option<AgentId>,
}

/// An agent's entity: its id in the simulation and its stable display number.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentMarker {
    /// Its id in the simulation.
    pub id: AgentId,
    /// Its display number, which picks its colour.
    pub label: u32,
}

/// Where an agent was before the last tick and where it is now, for gliding between them.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glide {
    /// Its cell before the last tick.
    pub from: Pos,
    /// Its cell now.
    pub to: Pos,
    /// Its goal.
    pub goal: Pos,
    /// What it is doing.
    pub status: AgentStatus,
}

/// Step 4 of a tick: one entity per agent, with where it came from and where it is. Existing
/// entities are updated by walking the query beside the simulation's agents, both in id
/// order; only agents newer than the newest entity are spawned, since ids only grow.
pub(super) fn sync_agents(
    mut commands: Commands,
    state: Res<SimState>,
    mut entities: ResMut<AgentEntities>,
    mut glides: Query<(&AgentMarker, &mut Glide)>,
) {
    let sim = &state.sim;
    // Entities are spawned in id order, so the query mostly walks the agents in the slab's
    // order: follow it with a cursor, and search only when the order breaks (after despawns).
    let mut cursor = sim.agents().peekable();
    for (marker, mut g) in &mut glides {
        while cursor.next_if(|a| a.id < marker.id).is_some() {}
        let found = match cursor.peek() {
            Some(a) if a.id == marker.id => cursor.next(),
            _ => sim.agent(marker.id),
        };
        let Some(a) = found else {
            continue;
        };
        let next = Glide {
            from: g.to,
            to: a.pos,
            goal: a.goal,
            status: a.status,
        };
        if *g != next {
            *g = next;
        }
    }
    let newest = entities.newest;
    let fresh = sim
        .agents()
        .rev()
        .take_while(|a| newest.is_none_or(|n| a.id > n))
        .count();
    // Spawned oldest first, so the query keeps walking in id order.
    for a in sim.agents().skip(sim.agent_count() - fresh) {
        let glide = Glide {
            from: a.pos,
            to: a.pos,
            goal: a.goal,
            status: a.status,
        };
        let marker = AgentMarker {
            id: a.id,
            label: state.label(a.id),
        };
        let e = commands.spawn((marker, glide)).id();
        entities.map.insert(a.id, e);
    }
    if let Some(last) = sim.agents().next_back() {
        entities.newest = Some(newest.map_or(last.id, |n| n.max(last.id)));
    }
    if entities.map.len() != sim.agent_count() {
        entities.map.retain(|id, e| {
            let keep = sim.agent(*id).is_some();
            if !keep {
                commands.entity(*e).despawn();
            }
            keep
        });
    }
}

/// After a rebuild every agent has a new id: respawn the entities.
pub(super) fn sync_after_rebuild(
    mut commands: Commands,
    state: Res<SimState>,
    mut entities: ResMut<AgentEntities>,
    mut seen: Local<Option<u64>>,
    glides: Query<(&AgentMarker, &mut Glide)>,
) {
    if *seen == Some(state.epoch) {
        return;
    }
    *seen = Some(state.epoch);
    for (_, e) in entities.map.drain() {
        commands.entity(e).despawn();
    }
    entities.newest = None;
    sync_agents(commands, state, entities, glides);
}
