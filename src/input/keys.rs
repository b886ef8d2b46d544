//! Keys: pause, steps, speed, brush, world commands, selection, overlays, explain.

use super::*;

/// Keys → pause, steps, world commands, brush, selection and overlays.
#[allow(clippy::too_many_arguments)]
pub fn key_input(
    keys: Res<ButtonInput<KeyCode>>,
    state: Res<SimState>,
    mut clock: ResMut<SimClock>,
    mut start: ResMut<PendingStart>,
    mut brush: ResMut<Brush>,
    mut selection: ResMut<Selection>,
    mut overlays: ResMut<Overlays>,
    mut inspector: ResMut<Inspector>,
    mut settings: ResMut<WorldSettings>,
    mut notices: ResMut<Notices>,
    mut commands: MessageWriter<SimCommand>,
    mut clears: MessageWriter<ClearWalls>,
    mut explain: MessageWriter<ExplainControl>,
    mut exit: MessageWriter<AppExit>,
) {
    for key in keys.get_just_pressed() {
        match key {
            KeyCode::Escape => {
                if start.0.take().is_some() {
                    notices.push(NoticeKind::Info, "start cancelled");
                } else {
                    exit.write(AppExit::Success);
                }
            }
            KeyCode::Space => clock.paused = !clock.paused,
            KeyCode::KeyN | KeyCode::Period => clock.step(),
            KeyCode::Equal | KeyCode::NumpadAdd => {
                clock.rate_hz = crate::sim::clamp_rate((clock.rate_hz * 1.5).round());
            }
            KeyCode::Minus | KeyCode::NumpadSubtract => {
                clock.rate_hz = crate::sim::clamp_rate((clock.rate_hz / 1.5).round());
            }
            KeyCode::KeyR => {
                commands.write(SimCommand::RandomMap {
                    density: settings.density,
                    seed: settings.seed,
                    agents: settings.spawn_agents,
                });
                settings.seed = settings.seed.wrapping_add(1);
            }
            KeyCode::KeyC => {
                clears.write(ClearWalls);
            }
            KeyCode::KeyA => {
                commands.write(SimCommand::SpawnRandom {
                    agents: settings.spawn_agents,
                    goals: settings.spawn_goals,
                });
            }
            KeyCode::KeyX => {
                commands.write(SimCommand::ClearAgents);
            }
            KeyCode::Digit0 | KeyCode::KeyW => brush.0 = Terrain::Wall,
            KeyCode::Tab => selection.0 = next_agent(&state, selection.0),
            KeyCode::KeyE => {
                explain.write(ExplainControl::Start);
            }
            KeyCode::ArrowLeft => {
                explain.write(ExplainControl::Step(false));
            }
            KeyCode::ArrowRight => {
                explain.write(ExplainControl::Step(true));
            }
            KeyCode::KeyI => inspector.on = !inspector.on,
            KeyCode::KeyD => {
                let setting = match state.sim().dynamic() {
                    Some(_) => None,
                    None => Some(gridwalk_core::world::DynamicWorld::GENTLE),
                };
                commands.write(SimCommand::SetDynamic(setting));
            }
            KeyCode::KeyH => overlays.heat = !overlays.heat,
            KeyCode::KeyG => overlays.g_values = !overlays.g_values,
            KeyCode::KeyP => overlays.all_paths = !overlays.all_paths,
            other => {
                if let Some(w) = digit_weight(*other) {
                    brush.0 = Terrain::Weight(w);
                }
            }
        }
    }
}

/// The weight of digit keys 2–9.
fn digit_weight(key: KeyCode) -> Option<u8> {
    Some(match key {
        KeyCode::Digit2 => 2,
        KeyCode::Digit3 => 3,
        KeyCode::Digit4 => 4,
        KeyCode::Digit5 => 5,
        KeyCode::Digit6 => 6,
        KeyCode::Digit7 => 7,
        KeyCode::Digit8 => 8,
        KeyCode::Digit9 => 9,
        _ => return None,
    })
}

/// The agent after `current` in id order, wrapping; the first one when none is selected.
pub fn next_agent(state: &SimState, current: Option<AgentId>) -> Option<AgentId> {
    let sim = state.sim();
    let mut ids = sim.agents().map(|a| a.id);
    match current {
        None => ids.next(),
        Some(c) => sim
            .agents()
            .map(|a| a.id)
            .find(|&id| id > c)
            .or_else(|| ids.next()),
    }
}
