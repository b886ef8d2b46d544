//! World commands, applied in `Update`: new maps, loads, planner switches, the living world's
//! settings and spawns.

use super::*;

/// The random-number generator of spawned agents and random maps.
#[derive(Resource)]
pub struct SimRng(pub MapRng);

/// Applies [`SimCommand`]s: each rebuilds the simulation and starts a new log segment.
pub(super) fn apply_commands(
    mut commands_in: MessageReader<SimCommand>,
    mut state: ResMut<SimState>,
    mut notices: ResMut<Notices>,
    mut pending: ResMut<PendingInput>,
    mut edits: ResMut<Messages<TileEdit>>,
    mut spawns: ResMut<Messages<SpawnAgent>>,
    mut rng: ResMut<SimRng>,
) {
    for cmd in commands_in.read() {
        let config = state.sim.config();
        let mut refused = Vec::new();
        match cmd {
            SimCommand::RandomMap {
                density,
                seed,
                agents,
            } => {
                let (w, h) = (state.sim.grid().width(), state.sim.grid().height());
                let grid = maps::random_grid(w, h, *density, *seed);
                let pairs = maps::random_agents(
                    &grid,
                    *agents,
                    default_goals(*agents),
                    config.connectivity,
                    true,
                    &mut rng.0,
                );
                let policy = state.on_arrival;
                let agents = pairs
                    .into_iter()
                    .map(|(s, g)| (s, g, None, policy))
                    .collect();
                refused = state.rebuild(grid, config, agents, "new random map");
                state.map_name = format!(
                    "random {w}×{h}, {:.0} % walls, seed {seed}",
                    density * 100.0
                );
                drop_pending(&mut pending, &mut edits, &mut spawns);
                notices.push(NoticeKind::Info, format!("new map: {}", state.map_name));
            }
            SimCommand::Load { scenario, name } => {
                let mut config = config;
                config.connectivity = scenario.connectivity;
                config.heuristic = scenario.effective_heuristic();
                let now: Vec<_> = scenario
                    .agents
                    .iter()
                    .filter(|a| a.tick == 0)
                    .map(|a| (a.start, a.goal, None, a.on_arrival))
                    .collect();
                state.world_seed = scenario.seed;
                state.sim.set_dynamic(dynamic_at_start(scenario));
                refused = state.rebuild(scenario.grid.clone(), config, now, "map loaded");
                state.script = Script::after_start(scenario);
                state.map_name = name.clone();
                drop_pending(&mut pending, &mut edits, &mut spawns);
                notices.push(NoticeKind::Info, format!("loaded {name}"));
            }
            SimCommand::ClearAgents => {
                let grid = state.sim.grid().clone();
                let n = state.sim.agent_count();
                state.rebuild(grid, config, Vec::new(), "agents removed");
                pending.spawns.clear();
                spawns.clear();
                notices.push(NoticeKind::Info, format!("removed {n} agents"));
            }
            SimCommand::SetConfig(new) => {
                let old = config;
                if new.algorithm == old.algorithm
                    && new.connectivity == old.connectivity
                    && new.heuristic == old.heuristic
                {
                    // Only the baseline measurement changed: no replanning needed.
                    state.sim.set_config(*new);
                    continue;
                }
                refused = state.rebuild_keeping_agents(*new, "planner changed");
                notices.push(
                    NoticeKind::Info,
                    format!(
                        "planner: {}, {} heuristic, {:?}-connected: every agent replanned",
                        new.algorithm.label(),
                        new.heuristic.name(),
                        new.connectivity
                    ),
                );
            }
            SimCommand::SetOnArrival(policy) => {
                state.on_arrival = *policy;
                notices.push(
                    NoticeKind::Info,
                    format!("agents added from now on {} on arrival", policy.name()),
                );
            }
            SimCommand::SetDynamic(setting) => {
                state.set_dynamic(*setting);
                let text = match setting {
                    Some(d) => format!(
                        "dynamic world on: a wall every {} ticks, at most {} standing",
                        d.every, d.walls
                    ),
                    None => "dynamic world off".to_string(),
                };
                notices.push(NoticeKind::Info, text);
            }
            SimCommand::SpawnRandom { agents, goals } => {
                let pairs = maps::random_agents(
                    state.sim.grid(),
                    *agents,
                    *goals,
                    config.connectivity,
                    true,
                    &mut rng.0,
                );
                let n = pairs.len();
                pending.spawns.extend(
                    pairs
                        .into_iter()
                        .map(|(start, goal)| SpawnAgent { start, goal }),
                );
                notices.push(
                    NoticeKind::Info,
                    format!("{n} agents join at the next tick"),
                );
            }
        }
        for r in refused {
            notices.push(NoticeKind::Refused, r);
        }
    }
}

/// Forgets input aimed at the old map.
fn drop_pending(
    pending: &mut PendingInput,
    edits: &mut Messages<TileEdit>,
    spawns: &mut Messages<SpawnAgent>,
) {
    *pending = PendingInput::default();
    edits.clear();
    spawns.clear();
}

/// How many goals `agents` random agents share: about one per four agents.
pub fn default_goals(agents: usize) -> usize {
    agents.div_ceil(4).max(1)
}
