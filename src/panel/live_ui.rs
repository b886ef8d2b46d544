//! The panel's live parts: a plot of the last few hundred ticks (the running planner's
//! expansions against A* from scratch for the same agents, and repair time), and the
//! settings that keep the world alive (what new agents do on arrival, the destinations
//! wanderers share, the dynamic world).

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{GridMark, Legend, Line, Plot, PlotPoints};
use gridwalk_core::sim::{DynamicWorld, OnArrival};

use super::Actions;
use crate::platform::clock::micros_series;
use crate::sim::{GridSim, SimCommand};
use crate::theme::text::{PLOT_BASELINE, PLOT_MICROS, PLOT_PLANNER};

/// Ticks the plot keeps.
pub const PLOT_TICKS: usize = 400;

/// One tick's figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickPoint {
    /// The game's tick count.
    pub tick: u64,
    /// Cells the running planner expanded.
    pub expanded: u64,
    /// Cells A* from scratch would have expanded for the same agents.
    pub baseline: u64,
    /// The planner's time, µs.
    pub micros: u64,
}

/// The last [`PLOT_TICKS`] ticks, for the plot.
#[derive(Resource, Debug, Default)]
pub struct TickPlot {
    /// Oldest first.
    pub points: VecDeque<TickPoint>,
    /// Plot expansions on a log scale.
    pub log: bool,
    seen: Option<(u64, u64)>,
}

impl TickPlot {
    /// Adds a tick, dropping the oldest beyond [`PLOT_TICKS`].
    pub fn push(&mut self, p: TickPoint) {
        if self.points.len() >= PLOT_TICKS {
            self.points.pop_front();
        }
        self.points.push_back(p);
    }
}

/// Reads each new tick's figures (once per frame: when several ticks ran, the last).
pub fn record_ticks(state: Res<GridSim>, mut plot: ResMut<TickPlot>) {
    let now = (state.ticks(), state.epoch());
    if plot.seen == Some(now) {
        return;
    }
    plot.seen = Some(now);
    let s = state.sim().last_stats();
    plot.push(TickPoint {
        tick: state.ticks(),
        expanded: s.search.expanded,
        baseline: s.baseline_expanded,
        micros: s.micros,
    });
}

/// `v` as plotted: itself, or log10(1 + v) on a log scale.
fn scaled(v: u64, log: bool) -> f64 {
    if log {
        (1.0 + v as f64).log10()
    } else {
        v as f64
    }
}

/// The plot of expansions and repair time.
pub fn plot_ui(ui: &mut egui::Ui, plot: &mut TickPlot) {
    egui::CollapsingHeader::new("Plot: the last ticks")
        .default_open(true)
        .show(ui, |ui| {
            ui.checkbox(&mut plot.log, "log scale");
            let log = plot.log;
            let series = |f: fn(&TickPoint) -> u64| -> PlotPoints<'static> {
                plot.points
                    .iter()
                    .map(|p| [p.tick as f64, scaled(f(p), log)])
                    .collect::<Vec<[f64; 2]>>()
                    .into()
            };
            let axis = move |mark: GridMark, _: &std::ops::RangeInclusive<f64>| {
                if log {
                    format!("{:.0}", 10f64.powf(mark.value) - 1.0)
                } else {
                    format!("{:.0}", mark.value)
                }
            };
            Plot::new("expansions")
                .height(110.0)
                .legend(Legend::default())
                .allow_drag(false)
                .allow_zoom(false)
                .allow_scroll(false)
                .include_y(0.0)
                .y_axis_formatter(axis)
                .show(ui, |p| {
                    p.line(Line::new("planner", series(|p| p.expanded)).color(PLOT_PLANNER));
                    p.line(
                        Line::new("A* from scratch", series(|p| p.baseline)).color(PLOT_BASELINE),
                    );
                });
            Plot::new("micros")
                .height(70.0)
                .legend(Legend::default())
                .allow_drag(false)
                .allow_zoom(false)
                .allow_scroll(false)
                .include_y(0.0)
                .show(ui, |p| {
                    let (name, pts) = micros_series(plot.points.iter().map(|p| (p.tick, p.micros)));
                    p.line(Line::new(name, pts).color(PLOT_MICROS));
                });
        });
}

/// The choices of destinations the panel offers; a file or `--destinations` may set others.
const DESTINATION_CHOICES: [usize; 6] = [0, 1, 2, 4, 8, 16];

/// How many destinations wanderers draw their goals from: a change chooses them again on the
/// map as it stands and starts a new segment.
fn destinations_ui(ui: &mut egui::Ui, state: &GridSim, act: &mut Actions) {
    let k = state.sim().destinations();
    // The label and seven choices are wider than the panel: they wrap rather than run past
    // its edge.
    ui.horizontal_wrapped(|ui| {
        ui.label("wanderers' destinations:")
            .on_hover_text("wanderers draw their next goal from K cells chosen once, so they keep sharing planners; any: every reachable cell");
        for c in DESTINATION_CHOICES {
            let name = if c == 0 { "any".to_string() } else { c.to_string() };
            if ui.selectable_label(k == c, name).clicked() && c != k {
                act.commands.write(SimCommand::SetDestinations(c));
            }
        }
        if !DESTINATION_CHOICES.contains(&k) {
            ui.label(egui::RichText::new(k.to_string()).strong());
        }
    });
}

/// What new agents do on arrival, the destinations they share, and the dynamic world.
pub fn alive_ui(ui: &mut egui::Ui, state: &GridSim, act: &mut Actions) {
    ui.strong("A living world");
    let current = state.on_arrival();
    ui.horizontal(|ui| {
        ui.label("new agents on arrival:");
        for p in OnArrival::ALL {
            if ui.selectable_label(current == p, p.name()).clicked() && p != current {
                act.commands.write(SimCommand::SetOnArrival(p));
            }
        }
    });
    destinations_ui(ui, state, act);
    let dynamic = state.sim().dynamic();
    let mut on = dynamic.is_some();
    if ui
        .checkbox(&mut on, "dynamic world: doors close and open on paths (D)")
        .changed()
    {
        let setting = on.then(|| dynamic.unwrap_or(DynamicWorld::GENTLE));
        act.commands.write(SimCommand::SetDynamic(setting));
    }
    if let Some(d) = dynamic {
        let mut every = d.every;
        let mut walls = d.walls;
        let a = ui.add(egui::Slider::new(&mut every, 1..=30).text("ticks per wall"));
        let b = ui.add(egui::Slider::new(&mut walls, 1..=40).text("walls standing"));
        if (a.changed() || b.changed()) && (every, walls) != (d.every, d.walls) {
            act.commands
                .write(SimCommand::SetDynamic(Some(DynamicWorld { every, walls })));
        }
        ui.label(
            egui::RichText::new(format!(
                "{} dropped walls stand now; D or the box turns it off",
                state.sim().doors().count()
            ))
            .weak(),
        );
    } else {
        ui.label(egui::RichText::new("off: only your edits change the map").weak());
    }
}
