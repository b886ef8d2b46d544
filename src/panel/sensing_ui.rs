//! The panel's unknown-terrain section: the toggle (K), the sensor range, the fog's legend,
//! and what the last discovery made the planner do.

use bevy::prelude::*;
use bevy_egui::egui;
use gridwalk_core::sim::{Discoveries, MAX_SENSOR_RANGE, Simulation};

use super::{Actions, Controls, swatch};
use crate::presets::Preset;
use crate::sim::{GridSim, SimCommand};
use crate::theme::palette::{FOG_COLOR, UNKNOWN_WALL_COLOR, terrain_color};

/// The last tick whose repair a discovery caused, and what the panel says of it.
#[derive(Resource, Default, Debug)]
pub struct LastDiscovery {
    /// The tick (as [`GridSim::ticks`] counts) and the sentence.
    pub seen: Option<(u64, String)>,
}

/// `n` with a comma between groups of three digits: 1,140.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What the last tick discovered and what repairing cost, in words, for example "discovered
/// 3 wall cells; D* Lite repair expanded 12; A* from scratch would expand 1,140"; `None`
/// when it discovered nothing.
pub fn discovery_text(sim: &Simulation) -> Option<String> {
    let d: Discoveries = sim.last_discoveries();
    if d.total() == 0 {
        return None;
    }
    let cells = |n: usize, what: &str| {
        let s = if n == 1 { "" } else { "s" };
        format!("{n} {what} cell{s}")
    };
    let found: Vec<String> = [
        (d.walls, "wall"),
        (d.opened, "opened"),
        (d.reweighted, "reweighted"),
    ]
    .into_iter()
    .filter(|&(n, _)| n > 0)
    .map(|(n, what)| cells(n, what))
    .collect();
    let stats = sim.last_stats();
    let algorithm = sim.config().algorithm;
    let verb = if algorithm.is_incremental() {
        "repair expanded"
    } else {
        "expanded"
    };
    let mut text = format!(
        "discovered {}; {} {verb} {}",
        found.join(", "),
        algorithm.label(),
        thousands(stats.search.expanded)
    );
    if sim.config().measure_baseline && stats.baseline_expanded > 0 {
        let base = thousands(stats.baseline_expanded);
        text.push_str(&format!("; A* from scratch would expand {base}"));
    }
    Some(text)
}

/// Remembers the last tick that discovered something, so its sentence stays readable while
/// the ticks go on.
pub(super) fn note_discoveries(state: Res<GridSim>, mut last: ResMut<LastDiscovery>) {
    let tick = state.ticks();
    if last.seen.as_ref().is_some_and(|(t, _)| *t == tick) {
        return;
    }
    if state.sim().sensor_range().is_none() {
        if last.seen.is_some() {
            last.seen = None;
        }
        return;
    }
    if let Some(text) = discovery_text(state.sim()) {
        last.seen = Some((tick, text));
    }
}

/// The section: toggle, range, legend, the last discovery, and the presets.
pub(super) fn sensing_ui(
    ui: &mut egui::Ui,
    state: &GridSim,
    ctl: &mut Controls,
    act: &mut Actions,
) {
    ui.strong("Unknown terrain");
    let seen = ctl.discovery.seen.clone();
    let now = state.sim().sensor_range();
    let mut on = now.is_some();
    let range = &mut ctl.settings.sensor_range;
    if let Some(r) = now {
        *range = r;
    }
    if ui
        .checkbox(&mut on, "agents know only what they sensed (K)")
        .changed()
    {
        act.commands
            .write(SimCommand::SetSensing(on.then_some(*range)));
    }
    let slider = egui::Slider::new(range, 1..=MAX_SENSOR_RANGE).text("sensor range");
    if ui.add(slider).changed() && on {
        act.commands.write(SimCommand::SetSensing(Some(*range)));
    }
    if on {
        ui.horizontal(|ui| {
            swatch(
                ui,
                blend(FOG_COLOR, terrain_color(gridwalk_core::Terrain::FREE)),
            );
            ui.label("never sensed");
            swatch(
                ui,
                blend(
                    UNKNOWN_WALL_COLOR,
                    terrain_color(gridwalk_core::Terrain::Wall),
                ),
            );
            ui.label("wall no agent knows");
        });
        match &seen {
            Some((tick, text)) => {
                ui.label(format!("tick {tick}: {text}"));
            }
            None => {
                ui.label(egui::RichText::new("no discovery yet").weak());
            }
        }
    }
    ui.horizontal(|ui| {
        ui.label("preset");
        for p in Preset::ALL {
            let label = format!("{}{}", p.name()[..1].to_uppercase(), &p.name()[1..]);
            if ui.button(label).on_hover_text(p.describe()).clicked() {
                let (scenario, name) = p.scenario();
                act.commands.write(SimCommand::Load {
                    scenario: Box::new(scenario),
                    name,
                });
            }
        }
    });
}

/// `top` (with its alpha) over the opaque `under`: the colour the map shows.
fn blend(top: [u8; 4], under: [u8; 4]) -> [u8; 4] {
    let a = top[3] as u32;
    let mix = |t: u8, u: u8| ((t as u32 * a + u as u32 * (255 - a)) / 255) as u8;
    [
        mix(top[0], under[0]),
        mix(top[1], under[1]),
        mix(top[2], under[2]),
        255,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1140), "1,140");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
