//! Crowd mode in a headless App: B turns it on and spreads agents that shared a cell, no two
//! agents share a cell on any tick after, a left click on a held cell is refused, and the
//! recording says `crowd: true` and replays exactly through the core's `Replay`. A stalled
//! one-shot crowd is moved by the real-time search, which explain describes, and the crowd's
//! search budget holds across the segments a budget change starts.

use bevy::prelude::*;
use bevy_gridwalk::GridwalkSystems;
use gridwalk::notices::Notices;
use gridwalk::sim::{GridSim, SimSetup, ticking};
use gridwalk::ui_state::CursorTile;
use gridwalk_core::format::AgentSpec;
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::sim::{AgentStatus, OnArrival, Simulation};
use gridwalk_core::{Connectivity, Pos};

use crate::common;

/// What a tick left: each agent's cell, goal and status.
type Snapshot = Vec<(Pos, Pos, AgentStatus)>;

fn snapshot(sim: &Simulation) -> Snapshot {
    sim.agents().map(|a| (a.pos, a.goal, a.status)).collect()
}

/// Each tick's snapshot since crowd mode came on, taken at the end of the tick.
#[derive(Resource, Default)]
struct Ticks(Vec<Snapshot>);

fn capture(state: Res<GridSim>, mut ticks: ResMut<Ticks>) {
    if state.sim().config().crowd {
        ticks.0.push(snapshot(state.sim()));
    }
}

fn sim(app: &App) -> &Simulation {
    app.world().resource::<GridSim>().sim()
}

/// One update (one tick), with `key` pressed in it.
fn frame(app: &mut App, key: Option<KeyCode>) {
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    if let Some(k) = key {
        input.press(k);
    }
    app.update();
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    if let Some(k) = key {
        input.release(k);
    }
    input.clear();
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear();
}

/// Whether two agents of `s` stand on one cell.
fn shared(s: &Snapshot) -> bool {
    let mut cells: Vec<Pos> = s.iter().map(|a| a.0).collect();
    cells.sort_by_key(|p| (p.x, p.y));
    cells.windows(2).any(|w| w[0] == w[1])
}

#[test]
fn b_turns_crowd_mode_on_and_the_recording_replays_exactly() {
    let grid = gridwalk::maps::random_grid(40, 30, 0.15, 3);
    let mut r = gridwalk::maps::rng(4);
    let pairs = gridwalk::maps::random_agents(&grid, 40, 3, Connectivity::Eight, true, &mut r);
    let mut setup = SimSetup::on_grid(grid);
    assert!(!setup.config().crowd, "on_grid keeps crowd mode off");
    let wander = |s, g| AgentSpec {
        on_arrival: OnArrival::Wander,
        ..AgentSpec::new(s, g)
    };
    setup.scenario.agents = (pairs.iter()).map(|&(s, g)| wander(s, g)).collect();
    // Four agents on one cell, as agents may stand with crowd mode off.
    let (s0, g0) = pairs[0];
    (setup.scenario.agents).extend((0..3).map(|_| wander(s0, g0)));
    setup.scenario.destinations = 3;
    setup.scenario.seed = 9;
    let n = setup.scenario.agents.len();
    let mut app = common::headless(setup);
    app.init_resource::<Ticks>().add_systems(
        FixedUpdate,
        capture.after(GridwalkSystems::Sync).run_if(ticking),
    );
    frame(&mut app, None);
    assert!(shared(&snapshot(sim(&app))), "the agents share a cell");
    frame(&mut app, Some(KeyCode::KeyB));
    assert!(sim(&app).config().crowd, "B turned crowd mode on");
    let state = app.world().resource::<GridSim>();
    assert_eq!(state.segment().reason(), "crowd mode changed");
    assert_eq!(sim(&app).agent_count(), n, "no agent lost");
    let tick0 = snapshot(sim(&app));
    assert!(!shared(&tick0), "spread to free cells: {tick0:?}");
    // A left click on a cell that holds an agent is refused.
    let held = sim(&app).agents().next().unwrap().pos;
    *app.world_mut().resource_mut::<CursorTile>() = CursorTile {
        world: None,
        cell: Some(IVec2::new(held.x as i32, held.y as i32)),
        over_ui: false,
    };
    (app.world_mut().resource_mut::<ButtonInput<MouseButton>>()).press(MouseButton::Left);
    frame(&mut app, None);
    let text = app
        .world()
        .resource::<Notices>()
        .last()
        .unwrap()
        .text
        .clone();
    assert_eq!(
        text,
        format!("refused: cell {held} holds an agent (crowd mode: one agent a cell)")
    );
    for _ in 0..80 {
        frame(&mut app, None);
    }
    let ticks = &app.world().resource::<Ticks>().0;
    assert!(ticks.len() >= 80, "{}", ticks.len());
    for (t, s) in ticks.iter().enumerate() {
        assert!(!shared(s), "tick {t}: two agents on one cell");
    }
    let stats = sim(&app).crowd_stats().expect("crowd figures");
    assert!(stats.arrivals_total > 0, "the crowd flows: {stats:?}");
    // The segment since B, written and read back, says crowd and replays every tick.
    let state = app.world().resource::<GridSim>();
    let text = state.segment().to_scenario().to_ron();
    assert!(text.contains("crowd: true"), "{text}");
    let read = gridwalk_core::format::Scenario::parse(&text, "crowd.ron").unwrap();
    let mut replay = Replay::new(read, sim(&app).config().algorithm);
    // B's rebuild is the segment's tick 0; the captures are its ticks from 1 on.
    let history = std::iter::once(&tick0).chain(ticks);
    for (tick, want) in history.enumerate() {
        replay.step();
        assert_eq!(&snapshot(replay.sim()), want, "tick {tick}");
    }
}

#[test]
fn an_agent_waiting_to_enter_survives_a_restart_of_the_segment() {
    let grid = gridwalk::maps::random_grid(20, 12, 0.0, 1);
    let mut setup = SimSetup::on_grid(grid);
    setup.scenario.crowd = true;
    let (held, goal) = (Pos::new(3, 3), Pos::new(15, 8));
    // One agent stays on its cell; another is due there at tick 1 and must wait to enter.
    setup.scenario.agents = vec![
        AgentSpec::new(held, held),
        AgentSpec {
            tick: 1,
            ..AgentSpec::new(held, goal)
        },
    ];
    let mut app = common::headless(setup);
    for _ in 0..3 {
        frame(&mut app, None);
    }
    let state = app.world().resource::<GridSim>();
    let waiting: Vec<_> = state.sim().entering().collect();
    assert_eq!(waiting.len(), 1, "the second agent waits: {waiting:?}");
    let label = state.label(waiting[0].0);
    app.world_mut()
        .resource_mut::<GridSim>()
        .restart_segment("test");
    let state = app.world().resource::<GridSim>();
    let sim = state.sim();
    assert_eq!(sim.entering().count(), 0, "a rebuild separates it");
    assert_eq!(sim.agent_count(), 2, "no agent lost");
    assert!(!shared(&snapshot(sim)), "{:?}", snapshot(sim));
    let moved = (sim.agents()).find(|a| a.goal == goal).expect("it entered");
    assert_eq!(state.label(moved.id), label, "it keeps its label");
    assert!(moved.pos.x.abs_diff(held.x) <= 1 && moved.pos.y.abs_diff(held.y) <= 1);
}

#[test]
fn explain_describes_the_search_and_its_budget_survives_a_new_segment() {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/gridwalk-core/tests/data/mapf/"
    );
    let at = |name: &str| std::path::PathBuf::from(format!("{data}{name}"));
    let grid = gridwalk_core::format::movingai::load_map(&at("random-32-32-20.map")).unwrap();
    let scen = gridwalk_core::format::movingai::load_scen(&at("random-32-32-20-random-1.scen"));
    let mut setup = SimSetup::on_grid(grid);
    (setup.scenario.crowd, setup.scenario.connectivity) = (true, Connectivity::Four);
    setup.scenario.crowd_budget = Some(64);
    setup.scenario.agents = (scen.unwrap().iter().take(400))
        .map(|p| AgentSpec::new(p.start, p.goal))
        .collect();
    let (mut state, refused) = setup.start();
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(state.crowd_budget(), 64, "the scenario's budget");
    // The step rule alone leaves some of these 400 agents stuck: the search takes over, the
    // crowd waiting while it prepares its root.
    let (mut searched, mut waited) = (None, 0);
    for _ in 0..1_000 {
        state.step();
        let c = state.sim().crowd_stats().unwrap();
        if c.searched && state.sim().crowd_search_preparing() {
            waited += 1;
            let a = state.sim().agents().next().unwrap();
            let lines = gridwalk::panel::search_step_lines(&state, a.id).expect("a waiting step");
            assert!(lines[0].contains("held the crowd still"), "{lines:?}");
        } else if c.searched {
            searched = Some(c);
            break;
        }
    }
    assert!(waited >= 1, "the crowd waited for the root");
    let c = searched.expect("the real-time search took over");
    assert!(c.tries <= 64 && c.configurations >= 1, "{c:?}");
    let since = state
        .sim()
        .crowd_search_since()
        .expect("it moves the crowd");
    assert!(since <= state.sim().tick_count(), "{since}");
    let a = state.sim().agents().next().unwrap();
    let lines = gridwalk::panel::search_step_lines(&state, a.id).expect("a searched step");
    assert!(lines[0].contains("real-time search"), "{lines:?}");
    let cell = format!("{}", a.pos);
    assert!(
        lines.iter().any(|l| l.contains(&cell)),
        "its cell {cell}: {lines:?}"
    );
    assert!(gridwalk::panel::crowd_step_lines(&state, a.id).is_none());
    // A new budget starts a segment that says so; a later rebuild keeps it.
    state.set_crowd_budget(4);
    assert_eq!(state.crowd_budget(), 4);
    assert_eq!(state.segment().to_scenario().crowd_budget, Some(4));
    state.restart_segment("test");
    assert_eq!(state.crowd_budget(), 4);
    assert_eq!(state.segment().to_scenario().crowd_budget, Some(4));
}
