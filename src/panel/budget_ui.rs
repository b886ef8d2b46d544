//! The panel's budgets section: the planners' memory against its budget (with the dropped
//! planners kept for reuse, and how many were dropped to keep it), the agents waiting for
//! their plan (the backlog), and choices of both budgets. A change starts a new segment, so a
//! recording replays with the budgets the game used.

use bevy_egui::egui;
use gridwalk_core::sim::{Budget, format_memory};

use super::Actions;
use crate::sim::{GAME_PLAN_BUDGET, GridSim, SimCommand};

/// The memory budgets the panel offers; `--planner-memory` or a file may set others.
const MEMORY_CHOICES: [usize; 5] = [256 << 20, 512 << 20, 1 << 30, 2 << 30, 4 << 30];

/// The planning budgets the panel offers (`None`: no limit, frames may then freeze).
const PLAN_CHOICES: [Option<u64>; 4] = [
    Some(GAME_PLAN_BUDGET / 4),
    Some(GAME_PLAN_BUDGET),
    Some(GAME_PLAN_BUDGET * 4),
    None,
];

/// Megabytes, to one decimal.
fn mb(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / (1 << 20) as f64)
}

/// The budgets section.
pub fn budget_ui(ui: &mut egui::Ui, state: &GridSim, act: &mut Actions) {
    let sim = state.sim();
    let budget = sim.budget();
    ui.strong("Budgets");
    let used = sim.planner_memory();
    ui.add(
        egui::ProgressBar::new((used as f64 / budget.planner_memory as f64).min(1.0) as f32)
            .text(format!(
                "planners {} of {}",
                mb(used),
                format_memory(budget.planner_memory)
            )),
    )
    .on_hover_text("memory the planners hold; past the budget the least recently used are dropped and built again when needed");
    ui.label(
        egui::RichText::new(format!(
            "{} planners · {} kept for reuse · {} dropped so far",
            sim.planner_count(),
            mb(sim.pool_memory()),
            sim.planners_dropped()
        ))
        .weak(),
    );
    let backlog = sim.backlog();
    let text = match backlog {
        0 => "every plan is ready".to_string(),
        n => format!("{n} agents planning (waiting for their plan)"),
    };
    ui.label(text);
    ui.horizontal(|ui| {
        ui.label("memory:");
        for m in MEMORY_CHOICES {
            if ui
                .selectable_label(budget.planner_memory == m, format_memory(m))
                .clicked()
                && m != budget.planner_memory
            {
                let b = Budget {
                    planner_memory: m,
                    ..budget
                };
                act.commands.write(SimCommand::SetBudget(b));
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label("expansions a tick:")
            .on_hover_text("planning work per tick; a search that needs more continues at the next tick while its agents wait");
        for p in PLAN_CHOICES {
            let name = p.map_or("no limit".to_string(), |n| format!("{}k", n / 1000));
            if ui.selectable_label(budget.plan_expansions == p, name).clicked()
                && p != budget.plan_expansions
            {
                let b = Budget {
                    plan_expansions: p,
                    ..budget
                };
                act.commands.write(SimCommand::SetBudget(b));
            }
        }
    });
}
