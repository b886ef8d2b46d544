//! The egui side panel: controls, planner choice, the repair-vs-replan statistics, the agent
//! list, overlays, explain mode, world commands and maps.
//!
//! The panel only reads state and writes messages or small settings; whole-world changes go
//! through [`SimCommand`]. It records the screen rectangle it covers in [`UiRects`], so map
//! clicks under it are ignored and the camera fits the map beside it.

mod budget_ui;
mod explain_ui;
mod live_ui;
mod maps_ui;
mod sensing_ui;
mod work_ui;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use gridwalk_core::Terrain;
use gridwalk_core::sim::AgentStatus;

use crate::controls::CONTROLS;
use crate::explain::{ExplainControl, ExplainState};
use crate::map_frame::MapCamera;
use crate::notices::{NoticeKind, Notices};
use crate::observe::PathCache;
use crate::record::RecordStatus;
use crate::schedule::FrameSystems;
use crate::sim::{AgentState, ClearWalls, GridSim, SimCommand, TickClock};
use crate::theme::text::{AMBER, CANDIDATE_LABEL, INFO, NO_PATH_LABEL, RED, swatch_color};
use crate::ui_state::{
    Brush, CursorTile, Inspector, Overlays, PendingStart, Selection, Typing, UiRects, WorldSettings,
};

pub use explain_ui::{cost_text, crowd_step_lines, inspect_lines, search_step_lines};
pub use maps_ui::MapsUi;
pub use sensing_ui::{LastDiscovery, discovery_text, thousands};

/// The panel's width in logical pixels.
pub const PANEL_WIDTH: f32 = 330.0;

/// Settings the panel edits.
#[derive(SystemParam)]
pub struct Controls<'w> {
    clock: ResMut<'w, TickClock>,
    selection: ResMut<'w, Selection>,
    overlays: ResMut<'w, Overlays>,
    brush: ResMut<'w, Brush>,
    settings: ResMut<'w, WorldSettings>,
    explain: ResMut<'w, ExplainState>,
    start: Res<'w, PendingStart>,
    inspector: ResMut<'w, Inspector>,
    cursor: Res<'w, CursorTile>,
    plot: ResMut<'w, live_ui::TickPlot>,
    discovery: Res<'w, sensing_ui::LastDiscovery>,
}

/// Messages the panel writes.
#[derive(SystemParam)]
pub struct Actions<'w> {
    commands: MessageWriter<'w, SimCommand>,
    clears: MessageWriter<'w, ClearWalls>,
    explain: MessageWriter<'w, ExplainControl>,
}

/// The panel feature.
pub fn plugin(app: &mut App) {
    crate::ui_state::init(app);
    app.init_resource::<MapsUi>()
        .init_resource::<live_ui::TickPlot>()
        .init_resource::<sensing_ui::LastDiscovery>()
        .add_systems(Update, live_ui::record_ticks.in_set(FrameSystems::View))
        .add_systems(
            Update,
            sensing_ui::note_discoveries.in_set(FrameSystems::View),
        )
        .add_systems(EguiPrimaryContextPass, (panel, map_labels).chain());
}

fn rich(text: impl Into<String>, color: egui::Color32) -> egui::RichText {
    egui::RichText::new(text).color(color)
}

#[allow(clippy::too_many_arguments)]
fn panel(
    mut contexts: EguiContexts,
    state: Res<GridSim>,
    mut notices: ResMut<Notices>,
    paths: Res<PathCache>,
    record: Option<Res<RecordStatus>>,
    mut ctl: Controls,
    mut act: Actions,
    mut maps: ResMut<MapsUi>,
    mut rects: ResMut<UiRects>,
    mut typing: ResMut<Typing>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "gridwalk_root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let response = egui::Panel::left("gridwalk_panel")
        .resizable(false)
        .exact_size(PANEL_WIDTH)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                header(ui, &state, &mut ctl);
                notices_ui(ui, &mut notices);
                ui.separator();
                // A running replay comes first, where its controls are in reach.
                if ctl.explain.active() {
                    explain_ui::explain_ui(ui, &mut ctl, &mut act, &state);
                    ui.separator();
                }
                work_ui::planner_ui(ui, &state, &mut act);
                ui.separator();
                work_ui::stats_ui(ui, &state);
                work_ui::crowd_ui(ui, &state, &mut act);
                live_ui::plot_ui(ui, &mut ctl.plot);
                ui.separator();
                live_ui::alive_ui(ui, &state, &mut act);
                ui.separator();
                budget_ui::budget_ui(ui, &state, &mut act);
                sensing_ui::sensing_ui(ui, &state, &mut ctl, &mut act);
                ui.separator();
                work_ui::agents_ui(ui, &state, &paths, &mut ctl);
                ui.separator();
                overlays_ui(ui, &mut ctl, &mut act, &state);
                ui.separator();
                world_ui(ui, &mut ctl, &mut act);
                ui.separator();
                maps.ui(ui, &state, &mut act.commands, &mut notices);
                if let Some(r) = &record {
                    ui.separator();
                    record_ui(ui, r);
                }
                ui.separator();
                controls_ui(ui);
            });
        });
    let r = response.response.rect;
    rects.0 = vec![Rect::new(r.min.x, r.min.y, r.max.x, r.max.y)];
    // A focused text field (a name, a path, a number being typed) takes the keys; any other
    // focused widget gives its focus back, so Space, Tab and the letters stay game keys
    // instead of pressing the panel's buttons.
    let now_typing = ctx.output(|o| o.ime.is_some());
    if !now_typing {
        ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
    }
    if typing.0 != now_typing {
        typing.0 = now_typing;
    }
    Ok(())
}

fn header(ui: &mut egui::Ui, state: &GridSim, ctl: &mut Controls) {
    ui.heading("gridwalk");
    ui.label("Incremental pathfinding, live: edit the map and watch every agent repair its path.");
    ui.horizontal(|ui| {
        let label = if ctl.clock.paused {
            "▶ Resume (Space)"
        } else {
            "⏸ Pause (Space)"
        };
        if ui.button(label).clicked() {
            ctl.clock.paused = !ctl.clock.paused;
        }
        if ui.button("Step (N)").clicked() {
            ctl.clock.step();
        }
    });
    let mut rate = ctl.clock.rate_hz;
    if ui
        .add(
            egui::Slider::new(&mut rate, 1.0..=60.0)
                .integer()
                .text("ticks / s"),
        )
        .changed()
    {
        ctl.clock.rate_hz = crate::sim::clamp_rate(rate);
    }
    let status = if ctl.clock.paused {
        "paused"
    } else {
        "running"
    };
    ui.label(format!(
        "tick {} · {} · map: {}",
        state.ticks(),
        status,
        state.map_name()
    ));
    if let Some(s) = ctl.start.0 {
        ui.label(rich(
            format!("start {s} placed: click its goal (Esc cancels)"),
            AMBER,
        ));
    }
}

fn notices_ui(ui: &mut egui::Ui, notices: &mut Notices) {
    let shown: Vec<_> = notices.iter().rev().take(4).cloned().collect();
    if shown.is_empty() {
        return;
    }
    for (i, n) in shown.iter().enumerate() {
        let color = match n.kind {
            NoticeKind::Info => INFO,
            NoticeKind::Refused => AMBER,
            NoticeKind::Error => RED,
        };
        let mut text = egui::RichText::new(&n.text).color(color);
        if i > 0 {
            text = text.weak();
        }
        ui.label(text);
    }
    if ui.small_button("clear messages").clicked() {
        notices.clear();
    }
}

fn overlays_ui(ui: &mut egui::Ui, ctl: &mut Controls, act: &mut Actions, state: &GridSim) {
    ui.strong("Overlays");
    ui.checkbox(
        &mut ctl.overlays.heat,
        "cells expanded by the last repair (H)",
    );
    ui.checkbox(
        &mut ctl.overlays.g_values,
        "g values of the selected agent (G)",
    );
    ui.checkbox(
        &mut ctl.overlays.all_paths,
        "all paths, not just the selected (P)",
    );
    if !ctl.explain.active() {
        explain_ui::explain_ui(ui, ctl, act, state);
    }
    explain_ui::inspector_ui(ui, ctl, state);
}

/// A small square of colour `c`, for legends.
pub(crate) fn swatch(ui: &mut egui::Ui, c: [u8; 4]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, swatch_color(c));
}

fn world_ui(ui: &mut egui::Ui, ctl: &mut Controls, act: &mut Actions) {
    ui.strong("World");
    ui.horizontal(|ui| {
        ui.label("brush");
        let current = match ctl.brush.0 {
            Terrain::Wall => "wall".to_string(),
            Terrain::Weight(w) => format!("weight {w}"),
        };
        egui::ComboBox::from_id_salt("brush")
            .selected_text(current)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut ctl.brush.0, Terrain::Wall, "wall");
                for w in 2..=9 {
                    ui.selectable_value(
                        &mut ctl.brush.0,
                        Terrain::Weight(w),
                        format!("weight {w}"),
                    );
                }
            });
    });
    ui.horizontal(|ui| {
        ui.add(egui::Slider::new(&mut ctl.settings.density, 0.0..=0.6).text("walls"));
    });
    ui.horizontal(|ui| {
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut ctl.settings.seed));
        if ui.button("New random map (R)").clicked() {
            act.commands.write(SimCommand::RandomMap {
                density: ctl.settings.density,
                seed: ctl.settings.seed,
                agents: ctl.settings.spawn_agents,
            });
            ctl.settings.seed = ctl.settings.seed.wrapping_add(1);
        }
    });
    ui.horizontal(|ui| {
        ui.add(egui::DragValue::new(&mut ctl.settings.spawn_agents).range(1..=2000));
        ui.label("agents to");
        ui.add(egui::DragValue::new(&mut ctl.settings.spawn_goals).range(1..=2000));
        ui.label("goals");
        if ui.button("Spawn (A)").clicked() {
            act.commands.write(SimCommand::SpawnRandom {
                agents: ctl.settings.spawn_agents,
                goals: ctl.settings.spawn_goals,
            });
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Clear walls (C)").clicked() {
            act.clears.write(ClearWalls);
        }
        if ui.button("Remove all agents (X)").clicked() {
            act.commands.write(SimCommand::ClearAgents);
        }
    });
}

fn record_ui(ui: &mut egui::Ui, r: &RecordStatus) {
    ui.strong("Recording");
    ui.label(format!("to {}", r.path.display()));
    if let Some(e) = &r.error {
        ui.label(rich(e, RED));
    } else {
        ui.label(format!(
            "{} agents, {} edits logged · saved at tick {}",
            r.agents, r.edits, r.saved_tick
        ));
    }
    if r.segments > 1 {
        ui.label(
            egui::RichText::new(format!(
                "segment {} (earlier segments were saved beside it)",
                r.segments
            ))
            .weak(),
        );
    }
}

fn controls_ui(ui: &mut egui::Ui) {
    egui::CollapsingHeader::new("Controls")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("controls").num_columns(2).show(ui, |ui| {
                for (k, what) in CONTROLS {
                    ui.label(egui::RichText::new(*k).strong());
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
}

/// "no path" above blocked agents, and while explain is open in crowd mode the selected
/// agent's candidate cells of its last step, numbered in the order tried, painted by egui
/// over the map.
fn map_labels(
    mut contexts: EguiContexts,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    agents: Query<(&AgentState, &Transform)>,
    state: Res<GridSim>,
    selection: Res<Selection>,
    explain: Res<ExplainState>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (camera, cam_t) = *camera;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("map_labels"),
    ));
    let mut n = 0;
    for (g, t) in &agents {
        if g.0 != AgentStatus::NoPath {
            continue;
        }
        n += 1;
        if n > 50 {
            break;
        }
        let above = t.translation.truncate() + Vec2::new(0.0, 1.1);
        if let Ok(p) = camera.world_to_viewport(cam_t, above.extend(0.0)) {
            painter.text(
                egui::pos2(p.x, p.y),
                egui::Align2::CENTER_BOTTOM,
                "no path",
                egui::FontId::proportional(13.0),
                NO_PATH_LABEL,
            );
        }
    }
    let step = (selection.agent(&state))
        .filter(|_| explain.active())
        .and_then(|id| state.sim().crowd_step_of(id));
    if let Some((cells, _)) = step {
        let grid = state.sim().grid();
        for (i, &c) in cells.iter().enumerate() {
            let at = crate::map_frame::tile_center(c, grid.width(), grid.height());
            if let Ok(p) = camera.world_to_viewport(cam_t, at.extend(0.0)) {
                // A dark badge under the number, readable on any terrain and agent.
                painter.circle_filled(
                    egui::pos2(p.x, p.y),
                    9.0,
                    egui::Color32::from_black_alpha(200),
                );
                painter.text(
                    egui::pos2(p.x, p.y),
                    egui::Align2::CENTER_CENTER,
                    (i + 1).to_string(),
                    egui::FontId::monospace(14.0),
                    CANDIDATE_LABEL,
                );
            }
        }
    }
    Ok(())
}
