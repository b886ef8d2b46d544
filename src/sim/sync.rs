//! Agent entities that follow the simulation, one per agent.

use super::*;

/// Sim agent id → its entity.
#[derive(Resource, Default, Debug)]
pub struct AgentEntities(pub HashMap<AgentId, Entity>);

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

/// Step 4 of a tick: one entity per agent, with where it came from and where it is.
pub(super) fn sync_agents(
    mut commands: Commands,
    state: Res<SimState>,
    mut entities: ResMut<AgentEntities>,
    mut glides: Query<&mut Glide>,
) {
    for a in state.sim.agents() {
        match entities.0.get(&a.id).and_then(|&e| glides.get_mut(e).ok()) {
            Some(mut g) => {
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
            None => {
                let e = commands
                    .spawn((
                        AgentMarker {
                            id: a.id,
                            label: state.label(a.id),
                        },
                        Glide {
                            from: a.pos,
                            to: a.pos,
                            goal: a.goal,
                            status: a.status,
                        },
                    ))
                    .id();
                entities.0.insert(a.id, e);
            }
        }
    }
    if entities.0.len() != state.sim.agent_count() {
        entities.0.retain(|id, e| {
            let keep = state.sim.agent(*id).is_some();
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
    glides: Query<&mut Glide>,
) {
    if *seen == Some(state.epoch) {
        return;
    }
    *seen = Some(state.epoch);
    for (_, e) in entities.0.drain() {
        commands.entity(e).despawn();
    }
    sync_agents(commands, state, entities, glides);
}
