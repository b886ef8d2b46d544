//! The budgets in a headless App: on a map where the first plans take many frames, every
//! `App::update()` keeps to its expansion budget (expansions are counted, not time) and ends
//! with every agent planned; the recording carries the budgets and replays exactly as
//! `gridwalk-cli simulate` plays it.

use bevy::prelude::*;
use gridwalk::sim::{GridSim, SimSetup, TileEdit};
use gridwalk_core::Connectivity;
use gridwalk_core::format::AgentSpec;
use gridwalk_core::rng::Draw;
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::search::dijkstra;
use gridwalk_core::sim::{AgentStatus, Budget};
use gridwalk_core::{Pos, Terrain};

use crate::common;

/// Expansions a tick in these tests: a first plan takes several ticks.
const PLAN: u64 = 400;

/// An app on a 90×90 map with 60 agents heading to 30 goals, `PLAN` expansions a tick.
fn app() -> App {
    let grid = gridwalk::maps::random_grid(90, 90, 0.2, 4);
    let mut r = gridwalk::maps::rng(8);
    let agents = gridwalk::maps::random_agents(&grid, 60, 30, Connectivity::Eight, true, &mut r);
    let mut setup = SimSetup::on_grid(grid);
    setup.scenario.agents = (agents.into_iter())
        .map(|(s, g)| AgentSpec::new(s, g))
        .collect();
    let budget = Budget {
        plan_expansions: Some(PLAN),
        ..Budget::default()
    };
    (setup.scenario.planner_memory, setup.scenario.plan_budget) = budget.in_scenario();
    common::headless(setup)
}

fn state(app: &App) -> &GridSim {
    app.world().resource::<GridSim>()
}

#[test]
fn planning_spreads_over_frames_within_the_budget_and_ends() {
    let mut app = app();
    let sim = state(&app).sim();
    assert!(
        sim.last_stats().search.expanded <= PLAN,
        "the first plan too"
    );
    assert!(sim.backlog() > 0, "the first plans need many frames");
    let mut frames = 0;
    loop {
        app.update();
        frames += 1;
        let sim = state(&app).sim();
        let expanded = sim.last_stats().search.expanded;
        assert!(expanded <= PLAN, "frame {frames}: {expanded} expansions");
        if sim.agents().all(|a| a.status != AgentStatus::Planning) {
            break;
        }
        assert!(frames < 20_000, "agents still wait after {frames} frames");
    }
    assert!(frames > 5, "planning took {frames} frames");
    let sim = state(&app).sim();
    assert_eq!(sim.backlog(), 0);
    for a in sim.agents() {
        let best = dijkstra(sim.grid(), a.pos, a.goal, sim.config().connectivity)
            .unwrap()
            .path
            .map(|p| p.cost);
        match a.status {
            AgentStatus::Walking => assert_eq!(a.remaining, best, "agent {}", a.id),
            AgentStatus::Arrived => assert_eq!(a.pos, a.goal),
            s => assert_eq!(best, None, "agent {} is {s:?}", a.id),
        }
    }
}

#[test]
fn the_recording_carries_the_budgets_and_replays_exactly() {
    let mut app = app();
    let seen = |app: &App| -> Vec<(Pos, AgentStatus)> {
        (state(app).sim().agents())
            .map(|a| (a.pos, a.status))
            .collect()
    };
    let mut history = vec![seen(&app)];
    // The first update only starts the clocks.
    app.update();
    let mut r = gridwalk::maps::rng(5);
    for t in 0..60 {
        if t % 5 == 0 {
            let p = Pos::new(r.below(90) as u32, r.below(90) as u32);
            let terrain = Terrain::Wall;
            app.world_mut().write_message(TileEdit { pos: p, terrain });
        }
        app.update();
        history.push(seen(&app));
    }
    assert!(
        history
            .iter()
            .any(|h| h.iter().any(|a| a.1 == AgentStatus::Planning)),
        "some agents waited"
    );
    let scenario = state(&app).segment().to_scenario();
    assert_eq!(
        scenario.plan_budget,
        Some(PLAN),
        "the recording says the budget"
    );
    assert_eq!(
        scenario.planner_memory, None,
        "the default memory budget goes unsaid"
    );
    let text = scenario.to_ron();
    let scenario = gridwalk_core::format::Scenario::parse(&text, "rec.ron").unwrap();
    let mut replay = Replay::new(scenario, state(&app).sim().config().algorithm);
    for (tick, want) in history.iter().enumerate() {
        replay.step();
        let got: Vec<_> = (replay.sim().agents()).map(|a| (a.pos, a.status)).collect();
        assert_eq!(&got, want, "tick {tick}");
    }
}
