//! Explain mode and the inspector in a headless App: the replay shows exactly what the core
//! recorded, stepping back and forth is consistent, and the inspector reads the planner.

use bevy::prelude::*;
use gridwalk::explain::{CellState, ExplainControl, ExplainState};
use gridwalk::panel::{cost_text, inspect_lines};
use gridwalk::sim::{GridSim, SimSetup, TickClock, TileEdit};
use gridwalk::ui_state::Selection;
use gridwalk_core::format::AgentSpec;
use gridwalk_core::trace::{ExpansionKind, Step};
use gridwalk_core::{Grid, Pos, Terrain};

use crate::common;

/// Two agents sharing a goal on an open 30×12 map, one tick per update.
fn app() -> App {
    let mut setup = SimSetup::on_grid(Grid::new(30, 12).unwrap());
    let goal = Pos::new(29, 5);
    setup.scenario.agents = vec![
        AgentSpec::new(Pos::new(0, 5), goal),
        AgentSpec::new(Pos::new(0, 8), goal),
    ];
    common::headless(setup)
}

fn control(app: &mut App, c: ExplainControl) {
    app.world_mut().write_message(c);
    app.update();
}

/// Ticks a few times, then drops a wall across both paths and ticks once: a real repair.
fn app_after_a_repair() -> App {
    let mut app = app();
    for _ in 0..3 {
        app.update();
    }
    for y in 1..12 {
        app.world_mut().write_message(TileEdit {
            pos: Pos::new(15, y),
            terrain: Terrain::Wall,
        });
    }
    app.update();
    let first = Selection::of(app.world().resource::<GridSim>(), Some(0));
    assert!(first.0.is_some(), "agent 0 has an entity");
    *app.world_mut().resource_mut::<Selection>() = first;
    app
}

fn states(app: &App) -> Vec<CellState> {
    let len = app.world().resource::<GridSim>().sim().grid().len();
    app.world().resource::<ExplainState>().cell_states(len)
}

#[test]
fn explain_replays_exactly_the_repair_the_core_recorded() {
    let mut app = app_after_a_repair();
    let edit_tick = app.world().resource::<GridSim>().sim().tick_count() - 1;
    control(&mut app, ExplainControl::Start);
    let world = app.world();
    let sim = world.resource::<GridSim>().sim();
    let recorded = sim.history(0).unwrap().back().unwrap().clone();
    let ex = world.resource::<ExplainState>();
    assert_eq!(
        ex.compute(),
        Some(&recorded),
        "the last compute that expanded a cell"
    );
    assert_eq!(
        recorded.tick, edit_tick,
        "the repair of the tick that got the wall"
    );
    assert_eq!(recorded.agents, 2, "one planner serves both agents");
    let f = ex.figures();
    assert_eq!((f.lowered + f.raised) as u64, recorded.stats.expanded);
    assert!(f.raised > 0, "a wall across the paths raises costs");
    // The ghost is what A* from scratch expands from the agent's cell on this map.
    let ghost: Vec<u32> = sim
        .astar_from_scratch(0)
        .unwrap()
        .0
        .expansions()
        .map(|e| e.cell)
        .collect();
    assert_eq!(ex.ghost, ghost);
    assert!(
        world.resource::<TickClock>().paused,
        "explain pauses the world"
    );

    // At the end, each expanded cell shows its last expansion's kind.
    let len = ex.len();
    control(&mut app, ExplainControl::Seek(len));
    let shown = states(&app);
    let mut want = std::collections::BTreeMap::new();
    for s in &recorded.trace.steps {
        if let Step::Expand(e) = s {
            want.insert(e.cell as usize, e.kind);
        }
    }
    let queued = recorded.trace.frontier(usize::MAX, shown.len());
    for (cell, state) in shown.iter().enumerate() {
        let expected = match want.get(&cell) {
            Some(ExpansionKind::Lower) => CellState::Lowered,
            Some(ExpansionKind::Raise) => CellState::Raised,
            Some(ExpansionKind::Close) => CellState::Closed,
            None if queued[cell] => CellState::Open,
            None => CellState::Untouched,
        };
        assert_eq!(*state, expected, "cell {cell}");
    }
}

#[test]
fn stepping_back_and_forth_gives_the_same_cell_states() {
    let mut app = app_after_a_repair();
    control(&mut app, ExplainControl::Start);
    let len = app.world().resource::<ExplainState>().len();
    assert!(len > 10);
    let k = len / 2;
    control(&mut app, ExplainControl::Seek(k));
    let at_k = states(&app);
    for _ in 0..5 {
        control(&mut app, ExplainControl::Step(true));
    }
    assert_ne!(states(&app), at_k, "five steps on, something changed");
    for _ in 0..5 {
        control(&mut app, ExplainControl::Step(false));
    }
    assert_eq!(states(&app), at_k);
    assert_eq!(app.world().resource::<ExplainState>().position(), k);
    // Back to the start: only the queue the compute began with.
    control(&mut app, ExplainControl::Seek(0));
    assert!(
        states(&app)
            .iter()
            .all(|s| matches!(s, CellState::Untouched | CellState::Open))
    );
    control(&mut app, ExplainControl::Stop);
    assert!(!app.world().resource::<ExplainState>().active());
}

#[test]
fn the_inspector_reads_the_planners_values() {
    let app = app_after_a_repair();
    let state = app.world().resource::<GridSim>();
    let mut inconsistent = 0;
    for cell in [
        Pos::new(14, 5),
        Pos::new(16, 0),
        Pos::new(3, 3),
        Pos::new(29, 5),
    ] {
        let info = state.sim().inspect(0, cell).unwrap();
        let lines = inspect_lines(state, Some(0), cell).join("\n");
        assert!(
            lines.contains(&format!("g {}", cost_text(info.g))),
            "{lines}"
        );
        assert!(
            lines.contains(&format!("rhs {}", cost_text(info.rhs.unwrap()))),
            "{lines}"
        );
        assert!(
            lines.contains(&format!("h {}", cost_text(info.h.unwrap()))),
            "{lines}"
        );
        assert_eq!(lines.contains("not queued"), !info.queued, "{lines}");
        inconsistent += info.inconsistent() as usize;
    }
    assert_eq!(inconsistent, 0, "after compute, these cells are consistent");
    assert!(
        inspect_lines(state, Some(0), Pos::new(15, 3))
            .join(" ")
            .contains("wall")
    );
    assert!(inspect_lines(state, Some(0), Pos::new(99, 3))[0].contains("off the map"));
}
