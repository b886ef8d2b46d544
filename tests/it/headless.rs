//! Headless App tests: `MinimalPlugins` with the game's simulation and input plugins, tile-level
//! mouse input injected through `CursorTile` and `ButtonInput`, one tick per `app.update()`.

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use gridwalk::notices::{NoticeKind, Notices};
use gridwalk::sim::{
    AgentState, GridAgent, GridPos, GridSim, SimCommand, SimSetup, TickClock, TileEdit,
};
use gridwalk::ui_state::{CursorTile, PendingStart};
use gridwalk_core::format::AgentSpec;
use gridwalk_core::rng::Draw;
use gridwalk_core::sim::{AgentId, AgentStatus};
use gridwalk_core::{Grid, Pos, Terrain};

use crate::common;

/// An app on `grid` with `agents`, one tick per update.
fn app(grid: Grid, agents: &[(Pos, Pos)]) -> App {
    let mut setup = SimSetup::on_grid(grid);
    setup.scenario.agents = (agents.iter())
        .map(|&(s, g)| AgentSpec::new(s, g))
        .collect();
    common::headless(setup)
}

/// A grid from rows of `.` and `#`.
fn grid(rows: &[&str]) -> Grid {
    gridwalk_core::format::grid_from_rows(rows).unwrap()
}

fn state(app: &App) -> &GridSim {
    app.world().resource::<GridSim>()
}

fn agent(app: &App, id: AgentId) -> gridwalk_core::sim::Agent {
    state(app).sim().agent(id).expect("agent exists").clone()
}

fn ticks(app: &App) -> u64 {
    state(app).ticks()
}

/// Runs one frame, then clears "just pressed" as the input plugin would.
fn frame(app: &mut App) {
    app.update();
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear();
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .clear();
}

fn cursor(app: &mut App, x: i32, y: i32) {
    *app.world_mut().resource_mut::<CursorTile>() = CursorTile {
        world: None,
        cell: Some(IVec2::new(x, y)),
        over_ui: false,
    };
}

fn press(app: &mut App, b: MouseButton) {
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(b);
}

fn release(app: &mut App, b: MouseButton) {
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .release(b);
}

/// Presses and releases `b` within one frame, then lets two frames apply it.
fn tap(app: &mut App, b: MouseButton) {
    press(app, b);
    release(app, b);
    frame(app);
    frame(app);
}

/// Presses `b` at the first point, moves through the others one frame each, releases, and
/// lets the next tick apply the stroke.
fn stroke(app: &mut App, b: MouseButton, points: &[(i32, i32)]) {
    let (x, y) = points[0];
    cursor(app, x, y);
    press(app, b);
    frame(app);
    for &(x, y) in &points[1..] {
        cursor(app, x, y);
        frame(app);
    }
    release(app, b);
    frame(app);
    frame(app);
}

fn click(app: &mut App, b: MouseButton, x: i32, y: i32) {
    cursor(app, x, y);
    press(app, b);
    frame(app);
    release(app, b);
    frame(app);
}

fn key(app: &mut App, k: KeyCode) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(k);
    frame(app);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release(k);
}

fn last_notice(app: &App) -> String {
    app.world()
        .resource::<Notices>()
        .last()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn is_wall(app: &App, x: u32, y: u32) -> bool {
    state(app).sim().grid().terrain(Pos::new(x, y)) == Ok(Terrain::Wall)
}

#[test]
fn one_update_is_one_tick() {
    let mut app = app(Grid::new(20, 5).unwrap(), &[]);
    frame(&mut app);
    let t0 = ticks(&app);
    for k in 1..=5 {
        frame(&mut app);
        assert_eq!(ticks(&app), t0 + k);
    }
}

#[test]
fn a_middle_drag_becomes_walls_with_no_gaps() {
    let mut app = app(Grid::new(30, 20).unwrap(), &[]);
    frame(&mut app);
    // Press at (2, 5), then the cursor jumps: only three samples for a long stroke.
    stroke(&mut app, MouseButton::Middle, &[(2, 5), (14, 5), (20, 15)]);
    for x in 2..=14 {
        assert!(is_wall(&app, x, 5), "gap at ({x}, 5)");
    }
    // The diagonal part: every row from 5 to 15 has a wall, and they touch.
    let walls: Vec<Pos> = (0..30 * 20)
        .map(|i| state(&app).sim().grid().pos(i))
        .filter(|p| is_wall(&app, p.x, p.y))
        .collect();
    for y in 5..=15 {
        assert!(walls.iter().any(|p| p.y == y), "no wall on row {y}");
    }
    assert!(is_wall(&app, 20, 15));
    assert_eq!(
        walls.len(),
        13 + 10,
        "exactly the stroke's cells: {walls:?}"
    );
    // The moves after release paint nothing.
    cursor(&mut app, 0, 0);
    frame(&mut app);
    frame(&mut app);
    assert!(!is_wall(&app, 0, 0));
}

#[test]
fn a_press_and_release_within_one_frame_still_paints() {
    let mut app = app(Grid::new(10, 10).unwrap(), &[]);
    frame(&mut app);
    cursor(&mut app, 4, 4);
    tap(&mut app, MouseButton::Middle);
    assert!(is_wall(&app, 4, 4));
    cursor(&mut app, 4, 4);
    tap(&mut app, MouseButton::Right);
    assert!(!is_wall(&app, 4, 4));
}

#[test]
fn a_stroke_that_leaves_the_map_resumes_without_a_gap_at_the_border() {
    let mut app = app(Grid::new(10, 10).unwrap(), &[]);
    frame(&mut app);
    stroke(&mut app, MouseButton::Middle, &[(3, 3), (-5, 3)]);
    for x in 0..=3 {
        assert!(is_wall(&app, x, 3), "gap at ({x}, 3)");
    }
}

#[test]
fn right_drag_erases_and_the_brush_paints_weights() {
    let mut app = app(grid(&["..........", "#########.", ".........."]), &[]);
    frame(&mut app);
    stroke(&mut app, MouseButton::Right, &[(0, 1), (4, 1)]);
    for x in 0..=4 {
        assert!(!is_wall(&app, x, 1));
    }
    assert!(is_wall(&app, 5, 1));
    // Brush: key 4 selects weight 4.
    key(&mut app, KeyCode::Digit4);
    click(&mut app, MouseButton::Middle, 7, 0);
    frame(&mut app);
    assert_eq!(
        state(&app).sim().grid().terrain(Pos::new(7, 0)),
        Ok(Terrain::Weight(4))
    );
}

#[test]
fn two_left_clicks_make_a_walking_agent() {
    let mut app = app(Grid::new(20, 10).unwrap(), &[]);
    frame(&mut app);
    click(&mut app, MouseButton::Left, 1, 1);
    assert_eq!(
        app.world().resource::<PendingStart>().0,
        Some(Pos::new(1, 1))
    );
    click(&mut app, MouseButton::Left, 15, 8);
    assert_eq!(app.world().resource::<PendingStart>().0, None);
    frame(&mut app);
    let sim = state(&app).sim();
    assert_eq!(sim.agent_count(), 1);
    let a = sim.agents().next().unwrap().clone();
    assert_eq!(a.goal, Pos::new(15, 8));
    assert_ne!(a.pos, Pos::new(1, 1), "it walks at once");
    // Its entity follows it.
    let mut q = app.world_mut().query::<(&GridAgent, &GridPos)>();
    let (m, at) = q.single(app.world()).unwrap();
    assert_eq!(m.id, a.id);
    assert_eq!(at.0, a.pos);
}

#[test]
fn edits_reach_the_planner() {
    let start = Pos::new(0, 2);
    let goal = Pos::new(19, 2);
    let mut app = app(Grid::new(20, 5).unwrap(), &[(start, goal)]);
    frame(&mut app);
    let before = state(&app).sim().path(0).expect("a path");
    assert!(
        before.cells.iter().all(|p| p.y == 2),
        "straight: {before:?}"
    );
    // A wall across row 2, just ahead of the agent.
    let x = agent(&app, 0).pos.x + 3;
    app.world_mut().write_message(TileEdit {
        pos: Pos::new(x, 2),
        terrain: Terrain::Wall,
    });
    frame(&mut app);
    let sim = state(&app).sim();
    assert!(sim.last_stats().search.expanded > 0, "the planner repaired");
    let after = sim.path(0).expect("still a path");
    assert!(!after.cells.contains(&Pos::new(x, 2)), "{after:?}");
    after
        .validate(sim.grid(), gridwalk_core::Connectivity::Eight)
        .unwrap();
    assert_eq!(Some(after.cost), sim.agent(0).unwrap().remaining);
    assert!(after.cost > before.cost - gridwalk_core::cost::COST_ONE);
    assert_eq!(after.cells.last(), Some(&goal));
    assert_eq!(sim.agent(0).unwrap().status, AgentStatus::Walking);
}

#[test]
fn agents_step_once_per_tick_and_pause_and_step() {
    let mut app = app(
        Grid::new(30, 3).unwrap(),
        &[(Pos::new(0, 1), Pos::new(29, 1))],
    );
    frame(&mut app);
    let x0 = agent(&app, 0).pos.x;
    for k in 1..=5 {
        frame(&mut app);
        assert_eq!(agent(&app, 0).pos.x, x0 + k, "one cell per tick");
    }
    // Paused: nothing moves; a step moves exactly one cell.
    key(&mut app, KeyCode::Space);
    let x1 = agent(&app, 0).pos.x;
    for _ in 0..4 {
        frame(&mut app);
    }
    assert_eq!(agent(&app, 0).pos.x, x1);
    assert!(app.world().resource::<TickClock>().paused);
    key(&mut app, KeyCode::KeyN);
    frame(&mut app);
    frame(&mut app);
    assert_eq!(agent(&app, 0).pos.x, x1 + 1);
    // A frame late by two ticks' time: game time advances by one tick a frame at most (50 ms
    // at least), so at 10 ticks a second the agent moves one cell, at 40 two.
    key(&mut app, KeyCode::Space);
    let x2 = agent(&app, 0).pos.x;
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(2));
    frame(&mut app);
    assert_eq!(agent(&app, 0).pos.x, x2 + 1, "one tick a frame");
    app.world_mut().resource_mut::<TickClock>().rate_hz = 40.0;
    frame(&mut app);
    let x3 = agent(&app, 0).pos.x;
    frame(&mut app);
    assert_eq!(
        agent(&app, 0).pos.x,
        x3 + 2,
        "50 ms a frame: two ticks at 40 a second"
    );
}

#[test]
fn refusals_leave_the_world_unchanged_and_say_why() {
    let start = Pos::new(1, 1);
    let goal = Pos::new(8, 1);
    let mut app = app(
        grid(&["..........", "..........", ".....#...."]),
        &[(start, goal)],
    );
    frame(&mut app);
    // Paused, so the agent stays where the click aims; edits wait for a step.
    key(&mut app, KeyCode::Space);
    let here = agent(&app, 0).pos;
    let step = |app: &mut App| {
        key(app, KeyCode::KeyN);
        frame(app);
    };
    // A wall on the agent's cell waits for it to step off.
    click(&mut app, MouseButton::Middle, here.x as i32, here.y as i32);
    step(&mut app);
    assert!(!is_wall(&app, here.x, here.y));
    let n = last_notice(&app);
    assert!(
        n.contains("waits") && n.contains("lands when the cell frees"),
        "{n}"
    );
    assert_eq!(state(&app).held_edits().len(), 1);
    // It lands at the first tick the agent has left, and says so.
    for _ in 0..5 {
        if is_wall(&app, here.x, here.y) {
            break;
        }
        step(&mut app);
    }
    assert!(is_wall(&app, here.x, here.y) && state(&app).held_edits().is_empty());
    let n = last_notice(&app);
    assert!(n.contains("landed"), "{n}");
    // A wall on its goal.
    click(&mut app, MouseButton::Middle, 8, 1);
    step(&mut app);
    assert!(!is_wall(&app, 8, 1));
    assert!(last_notice(&app).contains("goal"), "{}", last_notice(&app));
    // A start on a wall, and a click outside the map.
    let walls = state(&app).sim().grid().wall_count();
    click(&mut app, MouseButton::Left, 5, 2);
    assert!(last_notice(&app).contains("is a wall"));
    assert_eq!(app.world().resource::<PendingStart>().0, None);
    click(&mut app, MouseButton::Left, -1, 2);
    assert!(last_notice(&app).contains("outside the map"));
    click(&mut app, MouseButton::Left, 3, 40);
    assert!(last_notice(&app).contains("outside the map"));
    let last = app.world().resource::<Notices>().last().unwrap().kind;
    assert_eq!(last, NoticeKind::Refused);
    assert_eq!(state(&app).sim().grid().wall_count(), walls);
    assert_eq!(state(&app).sim().agent_count(), 1);
    // Clicks over the panel do nothing at all.
    *app.world_mut().resource_mut::<CursorTile>() = CursorTile {
        world: None,
        cell: Some(IVec2::new(4, 0)),
        over_ui: true,
    };
    press(&mut app, MouseButton::Middle);
    press(&mut app, MouseButton::Left);
    frame(&mut app);
    release(&mut app, MouseButton::Middle);
    release(&mut app, MouseButton::Left);
    frame(&mut app);
    assert!(!is_wall(&app, 4, 0));
    assert_eq!(app.world().resource::<PendingStart>().0, None);
}

#[test]
fn a_cut_off_agent_waits_and_walks_again_when_a_wall_goes() {
    let mut app = app(
        grid(&["############", "............", "############"]),
        &[(Pos::new(0, 1), Pos::new(11, 1))],
    );
    frame(&mut app);
    frame(&mut app);
    let x = agent(&app, 0).pos.x;
    click(&mut app, MouseButton::Middle, 8, 1);
    assert!(is_wall(&app, 8, 1));
    let blocked = agent(&app, 0);
    assert_eq!(blocked.status, AgentStatus::NoPath);
    assert!(state(&app).sim().path(0).is_none(), "no path is shown");
    for _ in 0..3 {
        frame(&mut app);
        assert_eq!(agent(&app, 0).pos, blocked.pos, "it waits");
    }
    let status = {
        let mut q = app.world_mut().query::<&AgentState>();
        *q.single(app.world()).unwrap()
    };
    assert_eq!(status.0, AgentStatus::NoPath);
    assert!(blocked.pos.x > x);
    // Erase the wall with a right click: it walks again at the next tick.
    click(&mut app, MouseButton::Right, 8, 1);
    assert!(!is_wall(&app, 8, 1));
    let a = agent(&app, 0);
    assert_eq!(a.status, AgentStatus::Walking);
    assert!(a.pos.x > blocked.pos.x, "moving again");
    for _ in 0..20 {
        frame(&mut app);
    }
    let a = agent(&app, 0);
    assert_eq!(a.status, AgentStatus::Arrived);
    assert_eq!(a.pos, Pos::new(11, 1));
}

#[test]
fn escape_cancels_a_start_then_quits() {
    let mut app = app(Grid::new(10, 10).unwrap(), &[]);
    frame(&mut app);
    click(&mut app, MouseButton::Left, 2, 2);
    assert!(app.world().resource::<PendingStart>().0.is_some());
    key(&mut app, KeyCode::Escape);
    assert!(app.world().resource::<PendingStart>().0.is_none());
    assert!(app.should_exit().is_none());
    key(&mut app, KeyCode::Escape);
    assert_eq!(app.should_exit(), Some(AppExit::Success));
}

#[test]
fn world_commands_rebuild_and_respawn_entities() {
    let mut app = app(
        Grid::new(40, 30).unwrap(),
        &[
            (Pos::new(0, 0), Pos::new(39, 29)),
            (Pos::new(5, 0), Pos::new(39, 29)),
        ],
    );
    frame(&mut app);
    let count = |app: &mut App| {
        app.world_mut()
            .query::<&GridAgent>()
            .iter(app.world())
            .count()
    };
    assert_eq!(count(&mut app), 2);
    key(&mut app, KeyCode::KeyX);
    frame(&mut app);
    assert_eq!(state(&app).sim().agent_count(), 0);
    assert_eq!(count(&mut app), 0);
    app.world_mut().write_message(SimCommand::RandomMap {
        density: 0.25,
        seed: 3,
        agents: 6,
    });
    frame(&mut app);
    frame(&mut app);
    assert_eq!(state(&app).sim().agent_count(), 6);
    assert_eq!(count(&mut app), 6);
    assert!(state(&app).sim().grid().wall_count() > 100);
    // Clear walls (C) applies at the next tick.
    key(&mut app, KeyCode::KeyC);
    frame(&mut app);
    assert_eq!(state(&app).sim().grid().wall_count(), 0);
    // Spawn (A) adds the panel's number of agents at the next tick.
    key(&mut app, KeyCode::KeyA);
    frame(&mut app);
    frame(&mut app);
    assert_eq!(state(&app).sim().agent_count(), 6 + 8);
    assert_eq!(count(&mut app), 14);
}

/// Replays a logged segment with the semantics of `gridwalk-cli simulate` and checks each
/// tick's agents against what the game did.
#[test]
fn the_session_log_replays_the_game_tick_by_tick() {
    use gridwalk_core::sim::{SimConfig, Simulation};
    let mut app = app(
        gridwalk::maps::random_grid(40, 30, 0.2, 11),
        &gridwalk::maps::random_agents(
            &gridwalk::maps::random_grid(40, 30, 0.2, 11),
            5,
            2,
            gridwalk_core::Connectivity::Eight,
            true,
            &mut gridwalk::maps::rng(2),
        ),
    );
    let mut history = Vec::new();
    let snapshot = |app: &App| -> Vec<(Pos, AgentStatus)> {
        state(app)
            .sim()
            .agents()
            .map(|a| (a.pos, a.status))
            .collect()
    };
    // The first update only starts the clocks.
    frame(&mut app);
    assert_eq!(ticks(&app), 0);
    history.push(snapshot(&app));
    let mut r = gridwalk::maps::rng(99);
    for t in 0..40 {
        // Random walls and erasures, and an agent now and then, through the messages.
        for _ in 0..4 {
            let p = Pos::new(r.below(40) as u32, r.below(30) as u32);
            let terrain = if t % 3 == 0 {
                Terrain::FREE
            } else {
                Terrain::Wall
            };
            app.world_mut().write_message(TileEdit { pos: p, terrain });
        }
        if t % 7 == 0 {
            // On cells that were ground when the segment began, so it does not restart.
            let base = state(&app).segment().base().clone();
            let s = gridwalk::maps::random_free_cell(&base, &mut r).unwrap();
            let goal = gridwalk::maps::random_free_cell(&base, &mut r).unwrap();
            app.world_mut()
                .write_message(gridwalk::sim::SpawnAgent { start: s, goal });
        }
        frame(&mut app);
        history.push(snapshot(&app));
    }
    assert_eq!(state(&app).segment().reason(), "start", "one segment");
    let scenario = state(&app).segment().to_scenario();
    assert!(scenario.validate("log").is_ok());
    assert!(scenario.edits.len() > 10 && scenario.agents.len() > 5);
    // The replay: tick 0 plans, each later tick adds, edits, plans and moves.
    let config = SimConfig {
        connectivity: scenario.connectivity,
        heuristic: scenario.effective_heuristic(),
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(scenario.grid.clone(), config);
    let last_tick = state(&app).next_tick() - 1;
    assert_eq!(history.len() as u64 - 1, last_tick, "one tick per update");
    for tick in 0..=last_tick {
        for a in scenario.agents.iter().filter(|a| a.tick == tick) {
            sim.add_agent_with(a.start, a.goal, a.on_arrival).unwrap();
        }
        for e in scenario.edits.iter().filter(|e| e.tick == tick) {
            for &c in &e.cells {
                sim.edit(c, e.set.terrain()).unwrap();
            }
        }
        sim.replan();
        if tick > 0 {
            sim.advance();
        }
        let got: Vec<_> = sim.agents().map(|a| (a.pos, a.status)).collect();
        // history[0] is after the initial plan; history[k] after the k-th tick.
        assert_eq!(got, history[tick as usize], "tick {tick}");
    }
}

/// A loaded scenario plays in the game tick by tick as `gridwalk-cli simulate` plays it (both
/// drive the core's `Timeline`), and the game records it as it played: what was refused is
/// left out, the rest is the scenario's own events.
#[test]
fn a_loaded_scenario_plays_and_records_as_the_cli_plays_it() {
    use gridwalk_core::format::Scenario;
    use gridwalk_core::scenario::replay::Replay;
    use gridwalk_core::scenario::timeline::Timeline;
    use gridwalk_core::sim::Simulation;
    let text = r#"(
        rows: [
            "............",
            "....#.......",
            "....#.......",
            "............",
            "............",
            "............",
        ],
        seed: 5,
        agents: [
            (start: (0, 0), goal: (11, 5), on_arrival: Wander),
            (start: (0, 5), goal: (11, 0), tick: 3, on_arrival: Patrol),
            (start: (8, 4), goal: (0, 3), tick: 4),
        ],
        edits: [
            (set: Wall, cells: [(6, 0), (6, 1), (6, 2)]),
            (tick: 2, set: Wall, cells: [(8, 4)]),
            (tick: 6, set: Free, cells: [(6, 1)]),
        ],
        dynamic: [(tick: 2, every: 2, walls: 2)],
    )"#;
    let scenario = Scenario::parse(text, "loaded.ron").unwrap();
    let mut app = app(Grid::new(5, 5).unwrap(), &[]);
    frame(&mut app);
    app.world_mut().write_message(SimCommand::Load {
        scenario: Box::new(scenario.clone()),
        name: "loaded.ron".into(),
    });
    frame(&mut app);
    assert!(
        is_wall(&app, 6, 0),
        "tick 0's edits apply before the first plan"
    );
    let mut replay = Replay::new(scenario.clone(), state(&app).sim().config().algorithm);
    let agents = |sim: &Simulation| -> Vec<(Pos, Pos, AgentStatus)> {
        sim.agents().map(|a| (a.pos, a.goal, a.status)).collect()
    };
    for tick in 0..=12 {
        if tick > 0 {
            frame(&mut app);
        }
        replay.step();
        let game = state(&app).sim();
        assert_eq!(agents(game), agents(replay.sim()), "tick {tick}");
        assert_eq!(game.grid(), replay.sim().grid(), "tick {tick}");
    }
    assert_eq!(state(&app).next_tick() - 1, 12);
    assert_eq!(
        replay.rejected().len(),
        1,
        "the agent whose start was walled"
    );
    let recorded = Timeline::of(&state(&app).segment().to_scenario());
    assert_eq!(recorded.agents(), &scenario.agents[..2]);
    assert_eq!(recorded.edits(), &scenario.edits[..]);
    assert_eq!(recorded.dynamic(), &scenario.dynamic[..]);
}

#[test]
fn switching_the_planner_replans_every_agent() {
    use gridwalk_core::sim::SimConfig;
    use gridwalk_core::{Algorithm, Connectivity, Heuristic};
    let grid = gridwalk::maps::random_grid(40, 30, 0.15, 4);
    let agents = gridwalk::maps::random_agents(
        &grid,
        6,
        2,
        Connectivity::Eight,
        true,
        &mut gridwalk::maps::rng(5),
    );
    let mut app = app(grid, &agents);
    frame(&mut app);
    frame(&mut app);
    // Paused: the switch itself must replan, no tick helps it.
    key(&mut app, KeyCode::Space);
    let before: Vec<Pos> = state(&app).sim().agents().map(|a| a.pos).collect();
    for (algorithm, connectivity) in [
        (Algorithm::AStar, Connectivity::Eight),
        (Algorithm::Dijkstra, Connectivity::Four),
        (Algorithm::DStar, Connectivity::Eight),
        (Algorithm::DStarLite, Connectivity::Four),
    ] {
        let config = SimConfig {
            algorithm,
            connectivity,
            heuristic: Heuristic::default_for(connectivity),
            measure_baseline: true,
            crowd: false,
            rotation: false,
        };
        app.world_mut().write_message(SimCommand::SetConfig(config));
        frame(&mut app);
        let sim = state(&app).sim();
        assert_eq!(sim.config(), config);
        let now: Vec<Pos> = sim.agents().map(|a| a.pos).collect();
        assert_eq!(now, before, "nobody moves while paused");
        let mut walking = 0;
        for a in sim.agents() {
            if a.status == AgentStatus::Walking {
                walking += 1;
                let p = sim.path(a.id).expect("replanned at once");
                p.validate(sim.grid(), connectivity).unwrap();
                assert_eq!(Some(p.cost), a.remaining, "{algorithm:?}");
            }
        }
        assert!(walking > 0);
        let mut q = app.world_mut().query::<&GridAgent>();
        assert_eq!(q.iter(app.world()).count(), 6, "entities respawned");
    }
}

#[test]
fn the_recording_is_written_at_start_and_on_exit() {
    use gridwalk_core::format::Scenario;
    let dir = std::env::temp_dir().join(format!("gridwalk-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("session.ron");
    let mut app = app(
        Grid::new(20, 10).unwrap(),
        &[(Pos::new(0, 0), Pos::new(19, 9))],
    );
    app.add_plugins(gridwalk::record::RecordPlugin { path: path.clone() });
    frame(&mut app);
    let first = Scenario::load(&path).expect("written at start");
    assert_eq!(first.agents.len(), 1);
    assert!(first.edits.is_empty());
    app.world_mut().write_message(TileEdit {
        pos: Pos::new(10, 3),
        terrain: Terrain::Wall,
    });
    frame(&mut app);
    frame(&mut app);
    // Esc with nothing pending quits; the exit writes the edit.
    key(&mut app, KeyCode::Escape);
    assert!(app.should_exit().is_some());
    let last = Scenario::load(&path).expect("written on exit");
    assert_eq!(last.edits.len(), 1);
    assert_eq!(last.edits[0].cells, vec![Pos::new(10, 3)]);
    let _ = std::fs::remove_dir_all(dir);
}

/// The real binary, run without a window: bad input and a missing display end with status 2
/// and a message naming what is wrong, never winit's panic.
#[cfg(target_os = "linux")]
#[test]
fn the_binary_explains_what_keeps_it_from_opening_a_window() {
    // Runs the game with `args` and no display; it must exit 2 with `needle` in its message.
    let refused = |args: &[&str], needle: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gridwalk"))
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("the game binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    };
    refused(&["--agents", "3"], "DISPLAY");
    refused(&["--map", "no/such/map.ron"], "no/such/map.ron");
}

/// The selection is kept by entity: a rebuild of the world (here: an agent enters on a cell
/// that was a wall when the recording's segment began) numbers the agents anew, and the
/// selection stays on the same agent.
#[test]
fn the_selection_follows_its_agent_across_a_rebuild() {
    use gridwalk::sim::SpawnAgent;
    use gridwalk::ui_state::Selection;
    let starts = [(0, 0), (0, 5), (0, 10), (0, 15)];
    let agents: Vec<_> = (starts.iter())
        .map(|&(x, y)| (Pos::new(x, y), Pos::new(39, y)))
        .collect();
    let mut map = Grid::new(40, 30).unwrap();
    let wall = Pos::new(20, 25);
    map.set(wall, Terrain::Wall).unwrap();
    let mut app = app(map, &agents);
    frame(&mut app);
    key(&mut app, KeyCode::Space);
    let pick = Selection::of(state(&app), Some(2));
    let label = state(&app).label(2);
    *app.world_mut().resource_mut::<Selection>() = pick;
    // Agent 0 goes, so a rebuild's numbering differs from today's.
    let first = state(&app).entity(0).expect("agent 0 has an entity");
    app.world_mut().entity_mut(first).despawn();
    app.world_mut().write_message(TileEdit {
        pos: wall,
        terrain: Terrain::FREE,
    });
    key(&mut app, KeyCode::KeyN);
    app.world_mut().write_message(SpawnAgent {
        start: wall,
        goal: Pos::new(39, 25),
    });
    key(&mut app, KeyCode::KeyN);
    let epoch = state(&app).epoch();
    assert!(epoch > 0, "the world was rebuilt");
    let selection = *app.world().resource::<Selection>();
    assert_eq!(selection, pick, "the selection keeps its entity");
    let id = selection
        .agent(state(&app))
        .expect("the selected agent is still there");
    assert_ne!(id, 2, "the rebuild numbered the agents anew");
    assert_eq!(state(&app).label(id), label, "the same agent, by its label");
    assert_eq!(
        agent(&app, id).pos.y,
        10,
        "the agent that started at (0, 10)"
    );
}
