//! Keys: pause, steps, speed, brush, world commands, crowd mode, selection, overlays, explain. The
//! camera's keys (arrows, F) are in [`super::camera`].

use bevy::app::AppExit;
use bevy::prelude::*;
use gridwalk_core::Terrain;
use gridwalk_core::sim::AgentId;

use crate::explain::{ExplainControl, ExplainState};
use crate::notices::{NoticeKind, Notices};
use crate::sim::{ClearWalls, GridSim, SimCommand, TickClock};
use crate::ui_state::{Brush, Inspector, Overlays, PendingStart, Selection, WorldSettings};

/// Esc cancels a placed start, or else quits (not in a browser).
pub fn escape_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut start: ResMut<PendingStart>,
    mut notices: ResMut<Notices>,
    mut exit: MessageWriter<AppExit>,
) {
    if !keys.just_pressed(KeyCode::Escape) {
        return;
    }
    if start.0.take().is_some() {
        notices.push(NoticeKind::Info, "start cancelled");
    } else if crate::platform::IN_BROWSER {
        // An exited app would leave a frozen page.
        notices.push(NoticeKind::Info, "Esc does not quit a page: close the tab");
    } else {
        exit.write(AppExit::Success);
    }
}

/// Keys that act on the world: pause, steps, speed, world commands, explain, the dynamic world.
/// ← / → step explain only while it is open; otherwise they pan ([`super::camera`]).
#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource read
pub fn world_keys(
    keys: Res<ButtonInput<KeyCode>>,
    state: Res<GridSim>,
    explaining: Option<Res<ExplainState>>,
    mut clock: ResMut<TickClock>,
    mut settings: ResMut<WorldSettings>,
    mut commands: MessageWriter<SimCommand>,
    mut clears: MessageWriter<ClearWalls>,
    mut explain: MessageWriter<ExplainControl>,
) {
    let explaining = explaining.is_some_and(|e| e.active());
    for key in keys.get_just_pressed() {
        match key {
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
            KeyCode::KeyE => {
                explain.write(ExplainControl::Start);
            }
            KeyCode::ArrowLeft | KeyCode::ArrowRight if explaining => {
                explain.write(ExplainControl::Step(*key == KeyCode::ArrowRight));
            }
            KeyCode::KeyD => {
                let setting = match state.sim().dynamic() {
                    Some(_) => None,
                    None => Some(gridwalk_core::sim::DynamicWorld::GENTLE),
                };
                commands.write(SimCommand::SetDynamic(setting));
            }
            KeyCode::KeyB => {
                let mut config = state.sim().config();
                config.crowd = !config.crowd;
                commands.write(SimCommand::SetConfig(config));
            }
            KeyCode::KeyK => {
                let range = match state.sim().sensor_range() {
                    Some(_) => None,
                    None => Some(settings.sensor_range),
                };
                commands.write(SimCommand::SetSensing(range));
            }
            _ => {}
        }
    }
}

/// Keys that change what the player sees and paints: brush, selection, inspector, overlays.
pub fn view_keys(
    keys: Res<ButtonInput<KeyCode>>,
    state: Res<GridSim>,
    mut brush: ResMut<Brush>,
    mut selection: ResMut<Selection>,
    mut inspector: ResMut<Inspector>,
    mut overlays: ResMut<Overlays>,
) {
    for key in keys.get_just_pressed() {
        match key {
            KeyCode::Digit0 | KeyCode::KeyW => brush.0 = Terrain::Wall,
            KeyCode::Tab => {
                *selection = Selection::of(&state, next_agent(&state, selection.agent(&state)))
            }
            KeyCode::KeyI => inspector.on = !inspector.on,
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
pub fn next_agent(state: &GridSim, current: Option<AgentId>) -> Option<AgentId> {
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
