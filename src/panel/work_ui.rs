//! The panel's planner choice, the repair-vs-replan statistics and the agent list.

use bevy_egui::egui;
use gridwalk_core::cost::to_f64;
use gridwalk_core::sim::{AgentStatus, BASELINE_MAX_AGENTS, ENGAGE_TICKS, SimConfig, TickStats};
use gridwalk_core::{Algorithm, Connectivity, Heuristic};

use super::{Actions, Controls, rich};
use crate::observe::PathCache;
use crate::platform::clock::micros_text;
use crate::sim::{GridSim, SimCommand};
use crate::theme::text::{GREEN, RED, agent_color32};
use crate::ui_state::Selection;

pub(super) fn planner_ui(ui: &mut egui::Ui, state: &GridSim, act: &mut Actions) {
    ui.strong("Planner");
    let old = state.sim().config();
    let mut new: SimConfig = old;
    egui::ComboBox::from_id_salt("algorithm")
        .selected_text(new.algorithm.label())
        .width(150.0)
        .show_ui(ui, |ui| {
            for a in Algorithm::ALL {
                ui.selectable_value(&mut new.algorithm, a, a.label());
            }
        });
    if !new.algorithm.is_optimal() {
        ui.small("Greedy best-first: fast, but its paths are not always shortest.");
    }
    ui.horizontal(|ui| {
        ui.label("heuristic");
        egui::ComboBox::from_id_salt("heuristic")
            .selected_text(new.heuristic.name())
            .show_ui(ui, |ui| {
                for h in Heuristic::ALL {
                    ui.selectable_value(&mut new.heuristic, h, h.name());
                }
            });
    });
    moves_ui(ui, &mut new);
    ui.checkbox(&mut new.crowd, "crowd mode: one agent a cell (B)");
    ui.checkbox(
        &mut new.measure_baseline,
        "measure A* from scratch beside it",
    );
    if new.measure_baseline && state.sim().agent_count() > BASELINE_MAX_AGENTS {
        ui.label(
            egui::RichText::new(format!(
                "(not measured with over {BASELINE_MAX_AGENTS} walking agents: it would cost more than the tick)"
            ))
            .weak(),
        );
    }
    let uses_h = new.algorithm.uses_heuristic();
    if uses_h && !new.heuristic.is_admissible(new.connectivity) {
        ui.label(rich(
            format!(
                "Warning: {} overestimates diagonal moves with 8 neighbours: it is inadmissible, \
                 so paths may not be the shortest.",
                new.heuristic.name()
            ),
            RED,
        ));
    } else if !uses_h {
        ui.label(egui::RichText::new("(this planner uses no heuristic)").weak());
    }
    if new != old {
        act.commands.write(SimCommand::SetConfig(new));
    }
}

/// The moves: eight neighbours, four, or four with robots that face a direction and turn
/// (crowd mode on, as rotation needs it).
fn moves_ui(ui: &mut egui::Ui, new: &mut SimConfig) {
    let mut moves = match (new.connectivity, new.turns()) {
        (Connectivity::Eight, _) => 8,
        (Connectivity::Four, false) => 4,
        (Connectivity::Four, true) => 0,
    };
    ui.horizontal(|ui| {
        ui.label("moves");
        ui.radio_value(&mut moves, 8, "8 neighbours");
        ui.radio_value(&mut moves, 4, "4");
        ui.radio_value(&mut moves, 0, "4, robots turn")
            .on_hover_text(
                "each tick a robot moves a cell ahead, turns 90° or waits (LoRR's rules)",
            );
    });
    let turns = moves == 0;
    new.connectivity = if moves == 8 {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    new.crowd |= turns;
    new.rotation = turns;
}

fn stats_row(ui: &mut egui::Ui, name: &str, s: &TickStats, baseline: bool) {
    ui.label(name);
    ui.label(s.search.expanded.to_string());
    ui.label(s.search.queue_ops().to_string());
    ui.label(micros_text(s.micros));
    ui.end_row();
    if baseline {
        ui.label("  A* from scratch");
        ui.label(s.baseline_expanded.to_string());
        ui.label("—");
        ui.label(micros_text(s.baseline_micros));
        ui.end_row();
    }
}

/// "37× fewer" (or "more") cells than A* from scratch, when both are measured.
pub fn ratio_text(s: &TickStats) -> Option<String> {
    if s.baseline_expanded == 0 {
        return None;
    }
    if s.search.expanded == 0 {
        return Some(format!(
            "repair expanded no cell; A* from scratch expanded {}",
            s.baseline_expanded
        ));
    }
    let r = s.baseline_expanded as f64 / s.search.expanded as f64;
    Some(if r >= 1.0 {
        format!("A* from scratch expands {r:.1}× more cells")
    } else {
        format!("A* from scratch expands {:.1}× fewer cells", 1.0 / r)
    })
}

pub(super) fn stats_ui(ui: &mut egui::Ui, state: &GridSim) {
    let sim = state.sim();
    let measured = sim.config().measure_baseline;
    ui.strong(format!("Work ({})", sim.config().algorithm.label()));
    egui::Grid::new("stats")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            ui.label("expanded");
            ui.label("queue ops");
            ui.label("µs");
            ui.end_row();
            stats_row(ui, "last tick", &sim.last_stats(), measured);
            stats_row(ui, "total", &sim.total_stats(), measured);
        });
    for (name, s) in [
        ("last tick", sim.last_stats()),
        ("total", sim.total_stats()),
    ] {
        if let Some(t) = ratio_text(&s) {
            ui.label(rich(format!("{name}: {t}"), GREEN));
        }
    }
    ui.label(format!(
        "{} agents · {} planners ({} KiB)",
        sim.agent_count(),
        sim.planner_count(),
        sim.planner_memory() / 1024
    ));
}

/// The search budgets the panel offers, in tries a tick; a scenario may set others.
const CROWD_BUDGET_CHOICES: [usize; 4] = [4, 16, 64, 256];

/// Crowd mode's figures: the last tick's waits, pushes and stuck agents, whether the
/// real-time search moved the crowd and the choice of its budget, the throughput and the sum
/// of costs so far against its lower bound, in timesteps.
pub(super) fn crowd_ui(ui: &mut egui::Ui, state: &GridSim, act: &mut Actions) {
    let sim = state.sim();
    let Some(c) = sim.crowd_stats() else {
        return;
    };
    ui.strong("Crowd");
    ui.label(format!(
        "last tick: {} waited · {} pushed · {} stuck",
        c.waited, c.pushed, c.stuck
    ));
    let since = sim.crowd_search_since().filter(|_| c.searched);
    let preparing = sim.crowd_search_preparing();
    let text = search_text(
        since,
        preparing,
        c.configurations,
        c.tries,
        sim.crowd_budget(),
    );
    ui.label(match since {
        Some(_) => rich(text, GREEN),
        None => egui::RichText::new(text).weak(),
    });
    ui.horizontal(|ui| {
        ui.label("search tries a tick:").on_hover_text(
            "the real-time search's work per tick once it moves the crowd; more finds the way sooner",
        );
        let budget = sim.crowd_budget();
        for n in CROWD_BUDGET_CHOICES {
            if ui.selectable_label(budget == n, n.to_string()).clicked() && n != budget {
                act.commands.write(SimCommand::SetCrowdBudget(n));
            }
        }
    });
    if c.stuck > 0 {
        ui.label(rich(
            format!(
                "{} agents have not come closer to their goal for 100 ticks",
                c.stuck
            ),
            RED,
        ));
    }
    if sim.config().turns() {
        ui.label(tasks_text(c.arrivals_total, sim.tick_count()));
    }
    ui.label(throughput_text(c.arrivals_total, sim.tick_count()));
    ui.label(soc_text(c.soc, c.soc_lb));
    let entering = sim.entering_count();
    if entering > 0 {
        ui.label(format!(
            "{entering} agents wait for their start cell to be free"
        ));
    }
}

/// Who moved the crowd on the last tick: the real-time search (rooted at tick `since`, with
/// the configurations it keeps and the tries it made of its budget), or the step rule.
pub fn search_text(
    since: Option<u64>,
    preparing: bool,
    kept: u64,
    tries: u64,
    budget: usize,
) -> String {
    match since {
        Some(t) if preparing => format!(
            "real-time search took over at tick {t}: it prepares its root, and the crowd waits"
        ),
        Some(t) => format!(
            "real-time search moves the crowd (took over at tick {t}): \
             {kept} configurations kept, {tries} of {budget} tries this tick"
        ),
        None => format!(
            "step rule moves the crowd; the real-time search takes over when a one-shot \
             crowd stalls for {ENGAGE_TICKS} ticks"
        ),
    }
}

/// Robots' tasks finished (their arrivals) and the throughput a step, as the League of Robot
/// Runners counts it.
pub fn tasks_text(arrivals: u64, ticks: u64) -> String {
    let rate = arrivals as f64 / ticks.max(1) as f64;
    format!("tasks finished: {arrivals}, {rate:.2} a step")
}

/// Arrivals per 100 ticks over the `ticks` crowd mode has run.
pub fn throughput_text(arrivals: u64, ticks: u64) -> String {
    if ticks == 0 {
        return "throughput: — (no tick yet)".into();
    }
    let rate = arrivals as f64 * 100.0 / ticks as f64;
    format!("throughput: {rate:.1} arrivals / 100 ticks ({arrivals} in {ticks} ticks)")
}

/// The sum of costs of finished legs against its lower bound, and their ratio.
pub fn soc_text(soc: u64, lb: u64) -> String {
    if lb == 0 {
        return format!("sum of costs: {soc} (no leg finished yet)");
    }
    format!(
        "sum of costs: {soc} against a lower bound of {lb} ({:.2}×)",
        soc as f64 / lb as f64
    )
}

pub(super) fn agents_ui(ui: &mut egui::Ui, state: &GridSim, paths: &PathCache, ctl: &mut Controls) {
    let sim = state.sim();
    ui.strong(format!("Agents ({})", sim.agent_count()));
    let agents: Vec<_> = sim.agents().collect();
    ui.horizontal(|ui| {
        ui.add_space(23.0);
        ui.label(
            egui::RichText::new(agent_row("", "status", "cost", "steps"))
                .monospace()
                .weak(),
        );
    });
    let row_h = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical()
        .id_salt("agents")
        .max_height(160.0)
        .auto_shrink([false, true])
        .show_rows(ui, row_h, agents.len(), |ui, range| {
            for a in &agents[range] {
                ui.horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                    let color = agent_color32(state.label(a.id));
                    ui.painter().circle_filled(rect.center(), 6.0, color);
                    let status = match a.status {
                        AgentStatus::Walking => "walking",
                        AgentStatus::Arrived => "arrived",
                        AgentStatus::NoPath => "NO PATH",
                        AgentStatus::Planning => "planning",
                        AgentStatus::Waiting => "waiting",
                        AgentStatus::Stuck => "STUCK",
                    };
                    let cost = a
                        .remaining
                        .map_or("—".to_string(), |c| format!("{:.1}", to_f64(c)));
                    let len = paths
                        .paths
                        .get(&a.id)
                        .map_or("—".to_string(), |p| (p.len() - 1).to_string());
                    let text = agent_row(state.label(a.id), status, &cost, &len);
                    let mut rt = egui::RichText::new(text).monospace();
                    if matches!(a.status, AgentStatus::NoPath | AgentStatus::Stuck) {
                        rt = rt.color(RED);
                    }
                    let selected = ctl.selection.agent(state) == Some(a.id);
                    if ui.selectable_label(selected, rt).clicked() {
                        *ctl.selection = Selection::of(state, (!selected).then_some(a.id));
                    }
                });
            }
        });
}

/// One line of the agent list: number, status, remaining cost, steps left.
fn agent_row(label: impl std::fmt::Display, status: &str, cost: &str, steps: &str) -> String {
    format!(
        "{:<4} {:<8} {:>7} {:>5}",
        format!("#{label}"),
        status,
        cost,
        steps
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowd_figures_read_in_timesteps() {
        assert_eq!(
            throughput_text(30, 200),
            "throughput: 15.0 arrivals / 100 ticks (30 in 200 ticks)"
        );
        assert!(throughput_text(0, 0).contains("no tick"));
        assert_eq!(tasks_text(30, 200), "tasks finished: 30, 0.15 a step");
        assert_eq!(tasks_text(0, 0), "tasks finished: 0, 0.00 a step");
        assert_eq!(
            soc_text(150, 100),
            "sum of costs: 150 against a lower bound of 100 (1.50×)"
        );
        assert!(soc_text(0, 0).contains("no leg"));
    }

    #[test]
    fn the_search_line_names_who_moved_the_crowd() {
        assert_eq!(
            search_text(Some(40), false, 1234, 16, 16),
            "real-time search moves the crowd (took over at tick 40): \
             1234 configurations kept, 16 of 16 tries this tick"
        );
        let waiting = search_text(Some(40), true, 0, 0, 16);
        assert!(waiting.contains("prepares its root"), "{waiting}");
        let idle = search_text(None, false, 0, 0, 16);
        assert!(idle.starts_with("step rule moves the crowd"), "{idle}");
        assert!(idle.contains(&format!("{ENGAGE_TICKS} ticks")), "{idle}");
    }
}
