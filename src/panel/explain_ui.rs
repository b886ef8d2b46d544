//! The panel's explain section (the replay's controls and the replayed compute's figures) and
//! the cell inspector.

use bevy_egui::egui;
use gridwalk_core::cost::{Cost, INFINITY, to_f64};
use gridwalk_core::search::mpgaa::next_direction;
use gridwalk_core::sim::{AgentId, Went};
use gridwalk_core::trace::ExpansionKind;
use gridwalk_core::{Algorithm, Pos, Terrain};

use super::{Actions, Controls, swatch};
use crate::explain::{Explain, ExplainControl, search_stops};
use crate::platform::clock::micros_text;
use crate::sim::GridSim;
use crate::theme::palette::{
    CLOSED_COLOR, GHOST_COLOR, INCONSISTENT_COLOR, LOWERED_COLOR, OPEN_COLOR, RAISED_COLOR,
};

/// A cost as the panel shows it: `∞` when infinite.
pub fn cost_text(c: Cost) -> String {
    if c == INFINITY {
        "inf".to_string()
    } else {
        format!("{:.3}", to_f64(c))
    }
}

/// The explain section: start, scrub, play, step, speed and what the compute did.
pub fn explain_ui(ui: &mut egui::Ui, ctl: &mut Controls, act: &mut Actions, state: &GridSim) {
    ui.strong("Explain");
    let algorithm = state.sim().config().algorithm;
    if !ctl.explain.active() {
        start_ui(ui, ctl, act, algorithm);
        crowd_step_ui(ui, state, ctl.selection.agent(state));
        return;
    }
    figures_ui(ui, &ctl.explain, act, algorithm);
    transport_ui(ui, ctl, act);
    legend_ui(ui, &ctl.explain, algorithm);
    crowd_step_ui(ui, state, ctl.selection.agent(state));
}

/// The selected agent's last crowd step, one line each: its candidate cells in the order the
/// step rule tried them (the first free one it took), the agents whose pushes moved it, and
/// the agents it pushed.
pub fn crowd_step_lines(state: &GridSim, id: AgentId) -> Option<Vec<String>> {
    let sim = state.sim();
    let (cells, pushed_by) = sim.crowd_step_of(id)?;
    let now = sim.agent(id).map(|a| a.pos);
    let tried: Vec<String> = (cells.iter().enumerate())
        .map(|(i, c)| {
            let took = if Some(*c) == now { " ← took" } else { "" };
            format!("{}. {c}{took}", i + 1)
        })
        .collect();
    let label = |a: AgentId| format!("#{}", state.label(a));
    let mut lines = vec![format!(
        "last step of #{}: candidates in order tried",
        state.label(id)
    )];
    lines.extend(tried.into_iter().map(|t| format!("  {t}")));
    lines.push(if pushed_by.is_empty() {
        "pushed by: nobody (it chose freely)".into()
    } else {
        let chain: Vec<String> = pushed_by.iter().map(|&a| label(a)).collect();
        format!("pushed by: {} → #{}", chain.join(" → "), state.label(id))
    });
    // The agents it pushed: those whose chain of pushers ends with it.
    let pushed: Vec<String> = (sim.agents())
        .filter(|a| a.id != id)
        .filter(|a| (sim.crowd_step_of(a.id)).is_some_and(|(_, chain)| chain.last() == Some(&id)))
        .map(|a| label(a.id))
        .collect();
    lines.push(if pushed.is_empty() {
        "it pushed: nobody".into()
    } else {
        format!("it pushed: {}", pushed.join(", "))
    });
    Some(lines)
}

/// The selected agent's last step when crowd mode's real-time search made it, one line each:
/// the configuration the agents moved to (its number and depth in the search's tree, and how
/// many agents stand on their goal in it), which way along the tree they went and why, the
/// agent's move in it, and the tick's work.
pub fn search_step_lines(state: &GridSim, id: AgentId) -> Option<Vec<String>> {
    let s = state.sim().crowd_search_step(id)?;
    if s.went == Went::Waited {
        return Some(vec![
            format!(
                "last step of #{}: the real-time search held the crowd still",
                state.label(id)
            ),
            "  it is preparing its root (distance tables and initial paths), a part each tick"
                .into(),
            format!("  #{} stayed on {}", state.label(id), s.to),
            format!("  {} of {} agents on their goal", s.on_goal, s.agents),
        ]);
    }
    let way = match (s.went, s.following) {
        (Went::Down, true) => "down its tree, along the path to the goal configuration",
        (Went::Down, false) => "down its tree, towards the configuration it is extending",
        (Went::Up, true) => "up its tree, towards the branch that leads to the goal configuration",
        (Went::Up, false) => "up its tree, towards the branch it is extending",
        (Went::Stayed | Went::Waited, _) => "nowhere: they stand on the configuration it aims at",
    };
    let moved = match s.from == s.to {
        true => format!("#{} stayed on {}", state.label(id), s.to),
        false => format!("#{} moved {} → {}", state.label(id), s.from, s.to),
    };
    Some(vec![
        format!(
            "last step of #{}: made by the real-time search",
            state.label(id)
        ),
        format!(
            "  configuration {} at depth {} ({} of {} agents on their goal)",
            s.node, s.depth, s.on_goal, s.agents
        ),
        format!("  the agents went {way}"),
        format!("  {moved}"),
        format!(
            "  {} of {} tries this tick · {} configurations kept",
            s.tries, s.budget, s.configurations
        ),
    ])
}

/// Crowd mode's part of explain: the selected agent's last step, by the step rule
/// ([`crowd_step_lines`]) or by the real-time search ([`search_step_lines`]).
fn crowd_step_ui(ui: &mut egui::Ui, state: &GridSim, selected: Option<AgentId>) {
    let Some(id) = selected else {
        return;
    };
    if !state.sim().config().crowd {
        return;
    }
    ui.separator();
    ui.strong("Crowd step");
    match crowd_step_lines(state, id).or_else(|| search_step_lines(state, id)) {
        Some(lines) => {
            for l in lines {
                ui.label(egui::RichText::new(l).monospace());
            }
        }
        None => {
            ui.label(egui::RichText::new("no step yet (it has not taken part in a tick)").weak());
        }
    }
}

/// Before a replay: the button that starts one, enabled once an agent is selected.
fn start_ui(ui: &mut egui::Ui, ctl: &Controls, act: &mut Actions, algorithm: Algorithm) {
    let can = ctl.selection.0.is_some();
    let what = if algorithm.is_incremental() {
        "Replay the selected agent's last repair (E)"
    } else {
        "Replay the selected agent's search (E)"
    };
    if ui.add_enabled(can, egui::Button::new(what)).clicked() {
        act.explain.write(ExplainControl::Start);
    }
    if !can {
        ui.label(egui::RichText::new("select an agent in the list (or Tab)").weak());
    }
}

/// What the replayed compute did: a repair's figures and the buttons to the other kept
/// computes, or a fresh search's expansions.
fn figures_ui(ui: &mut egui::Ui, ex: &Explain, act: &mut Actions, algorithm: Algorithm) {
    let (index, kept) = ex.compute_index();
    let figures = ex.figures();
    if let Some(c) = ex.compute() {
        ui.label(format!(
            "{} repair of tick {} toward {} (compute {} of the last {kept})",
            algorithm.label(),
            figures.tick,
            c.goal,
            index + 1
        ));
        ui.horizontal(|ui| {
            if ui
                .add_enabled(index > 0, egui::Button::new("< earlier"))
                .clicked()
            {
                act.explain.write(ExplainControl::Compute(index - 1));
            }
            if ui
                .add_enabled(index + 1 < kept, egui::Button::new("later >"))
                .clicked()
            {
                act.explain.write(ExplainControl::Compute(index + 1));
            }
        });
        if algorithm == Algorithm::Mpgaa {
            mpgaa_figures_ui(ui, ex);
        } else {
            let names = algorithm.expansion_names();
            let (lower, raise) = (names.lowered, names.raised.unwrap_or("raised"));
            ui.label(format!(
                "expanded {}: {} {lower}, {} {raise}",
                figures.lowered + figures.raised,
                figures.lowered,
                figures.raised
            ));
        }
        let s = figures.stats;
        ui.label(format!(
            "queue: {} pushes, {} pops, {} updates, {} removes, {} sift moves",
            s.pushes, s.pops, s.updates, s.removes, s.sift_moves
        ));
        ui.label(format!(
            "km {}, serves {} agents, {} µs",
            cost_text(figures.km),
            figures.agents,
            micros_text(figures.micros)
        ));
        ui.label(format!(
            "A* from scratch would expand {} cells from the agent's cell (ghost)",
            ex.ghost.len()
        ));
    } else {
        let name = algorithm.expansion_names().search;
        ui.label(format!(
            "{name} from the agent's cell: {} cells expanded",
            figures.lowered
        ));
    }
}

/// What an MPGAA\* compute did: its A\* searches, the cells they closed, the h its
/// consistency pass lowered, and how many searches stopped on a path found before.
fn mpgaa_figures_ui(ui: &mut egui::Ui, ex: &Explain) {
    let Some(trace) = ex.trace() else {
        return;
    };
    let (mut closed, mut lowered) = (0, 0);
    for e in trace.expansions() {
        match e.kind {
            ExpansionKind::Close => closed += 1,
            _ => lowered += 1,
        }
    }
    let searches = search_stops(trace).len();
    ui.label(format!(
        "{searches} A* searches closed {closed} cells; the consistency pass lowered h of {lowered}"
    ));
    ui.label(format!(
        "{} searches stopped on a path found before (drawn when reached)",
        ex.reuse_count()
    ));
}

/// The replay's transport: the step slider, back, play or pause, forward, restart, close,
/// and the speed.
fn transport_ui(ui: &mut egui::Ui, ctl: &mut Controls, act: &mut Actions) {
    let ex = &ctl.explain;
    let (mut at, len) = (ex.position(), ex.len());
    let slider = egui::Slider::new(&mut at, 0..=len).text(format!("of {len} steps"));
    if ui.add(slider).changed() {
        act.explain.write(ExplainControl::Seek(at));
    }
    ui.horizontal(|ui| {
        if ui.button("|<").on_hover_text("one step back").clicked() {
            act.explain.write(ExplainControl::Step(false));
        }
        let label = if ex.playing { "pause" } else { "play" };
        if ui.button(label).clicked() {
            act.explain.write(ExplainControl::TogglePlay);
        }
        if ui.button(">|").on_hover_text("one step forward").clicked() {
            act.explain.write(ExplainControl::Step(true));
        }
        if ui.button("restart").clicked() {
            act.explain.write(ExplainControl::Seek(0));
            act.explain.write(ExplainControl::TogglePlay);
        }
        if ui.button("close").clicked() {
            act.explain.write(ExplainControl::Stop);
        }
    });
    ui.add(
        egui::Slider::new(&mut ctl.explain.speed, 5.0..=5000.0)
            .logarithmic(true)
            .text("steps / s"),
    );
}

/// The colours of the replayed cells, and the found path's cost.
fn legend_ui(ui: &mut egui::Ui, ex: &Explain, algorithm: Algorithm) {
    ui.horizontal_wrapped(|ui| {
        let legend: &[([u8; 4], &str)] = if algorithm == Algorithm::Mpgaa && ex.compute().is_some()
        {
            &[
                (CLOSED_COLOR, "closed by A*"),
                (LOWERED_COLOR, "h lowered"),
                (OPEN_COLOR, "queue"),
                (GHOST_COLOR, "A* ghost"),
            ]
        } else if ex.compute().is_some() {
            &[
                (LOWERED_COLOR, "lowered"),
                (RAISED_COLOR, "raised"),
                (OPEN_COLOR, "queue"),
                (GHOST_COLOR, "A* ghost"),
            ]
        } else {
            &[(OPEN_COLOR, "open"), (CLOSED_COLOR, "closed")]
        };
        for &(c, name) in legend {
            swatch(ui, c);
            ui.label(name);
        }
        if let Some(p) = ex.path() {
            ui.label(format!("· path cost {:.2}", to_f64(p.cost)));
        }
    });
}

/// What the inspector shows for `cell`, as lines.
pub fn inspect_lines(state: &GridSim, agent: Option<u32>, cell: Pos) -> Vec<String> {
    let sim = state.sim();
    let Ok(terrain) = sim.grid().terrain(cell) else {
        return vec![format!("{cell} is off the map")];
    };
    let terrain = match terrain {
        Terrain::Wall => "wall".to_string(),
        Terrain::Weight(1) => "plain ground".to_string(),
        Terrain::Weight(w) => format!("ground of weight {w}"),
    };
    let mut lines = vec![format!("cell {cell}: {terrain}")];
    let Some(id) = agent else {
        lines.push("select an agent to read its planner".into());
        return lines;
    };
    match sim.inspect(id, cell) {
        Some(info) => {
            lines.push(format!("g {}", cost_text(info.g)));
            if let Some(rhs) = info.rhs {
                let mark = if info.inconsistent() {
                    " (inconsistent)"
                } else {
                    ""
                };
                lines.push(format!("rhs {}{mark}", cost_text(rhs)));
            }
            if let Some(h) = info.h {
                lines.push(format!("h {}", cost_text(h)));
            }
            if let Some(dir) = next_direction(&info) {
                let next = sim.grid().step(sim.grid().index(cell).unwrap_or(0), dir);
                lines.push(format!(
                    "next {} (MPGAA* path pointer)",
                    sim.grid().pos(next)
                ));
            } else if let Some(state) = info.state {
                lines.push(format!("state {state}"));
            }
            lines.push(match info.key {
                Some((a, b)) => format!("queued, key [{}, {}]", cost_text(a), cost_text(b)),
                None => "not queued".to_string(),
            });
        }
        None => lines.push("no goal planner (A* and Dijkstra plan from scratch)".into()),
    }
    lines
}

/// The inspector: on with I; hovering a cell shows the selected agent's planner's values.
pub fn inspector_ui(ui: &mut egui::Ui, ctl: &mut Controls, state: &GridSim) {
    ui.checkbox(
        &mut ctl.inspector.on,
        "inspect the cell under the mouse (I)",
    );
    if !ctl.inspector.on {
        return;
    }
    match ctl.cursor.cell {
        Some(c) if c.x >= 0 && c.y >= 0 => {
            let cell = Pos::new(c.x as u32, c.y as u32);
            for line in inspect_lines(state, ctl.selection.agent(state), cell) {
                ui.monospace(line);
            }
        }
        _ => {
            ui.label(egui::RichText::new("hover a cell of the map").weak());
        }
    }
    ui.horizontal(|ui| {
        swatch(ui, INCONSISTENT_COLOR);
        ui.label("inconsistent (g != rhs) in the g overlay");
    });
}
