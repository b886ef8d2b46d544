//! Unknown terrain in a headless App: K and the range (as the panel's slider sets it) change
//! what the agents know, and the recording replays exactly through the core's `Replay`, tick
//! by tick: agents, the known map and the sensed cells.

use bevy::prelude::*;
use bevy_gridwalk::GridwalkSystems;
use gridwalk::sim::{GridSim, SimCommand, SimSetup, TileEdit, ticking};
use gridwalk::ui_state::WorldSettings;
use gridwalk_core::format::{AgentSpec, SensingSpec};
use gridwalk_core::rng::Draw;
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::sim::{AgentStatus, OnArrival, Simulation};
use gridwalk_core::{Pos, Terrain};

use crate::common;

/// What a tick left: agents (cell, goal, status), the known weights, the sensed cells.
type Snapshot = (Vec<(Pos, Pos, AgentStatus)>, Vec<u8>, Option<Vec<bool>>);

fn snapshot(sim: &Simulation) -> Snapshot {
    let agents = sim.agents().map(|a| (a.pos, a.goal, a.status)).collect();
    let sensed = sim.sensed_cells().map(<[bool]>::to_vec);
    (agents, sim.known().weights().to_vec(), sensed)
}

/// Each tick's snapshot, taken at the end of the tick (before commands between ticks).
#[derive(Resource, Default)]
struct Ticks(Vec<Snapshot>);

fn capture(state: Res<GridSim>, mut ticks: ResMut<Ticks>) {
    ticks.0.push(snapshot(state.sim()));
}

fn sim(app: &App) -> &Simulation {
    app.world().resource::<GridSim>().sim()
}

/// One update (one tick), with this frame's keys pressed.
fn frame(app: &mut App, keys: &[KeyCode]) {
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    for &k in keys {
        input.press(k);
    }
    app.update();
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    for &k in keys {
        input.release(k);
    }
    input.clear();
}

#[test]
fn toggling_unknown_terrain_records_and_replays_exactly() {
    let grid = gridwalk::maps::random_grid(48, 36, 0.25, 3);
    let pairs = gridwalk::maps::random_agents(
        &grid,
        6,
        3,
        gridwalk_core::Connectivity::Eight,
        true,
        &mut gridwalk::maps::rng(4),
    );
    let mut setup = SimSetup::on_grid(grid.clone());
    setup.scenario.agents = (pairs.iter())
        .map(|&(s, g)| AgentSpec {
            on_arrival: OnArrival::Wander,
            ..AgentSpec::new(s, g)
        })
        .collect();
    setup.scenario.seed = 9;
    setup.scenario.sensor_range = Some(2);
    let mut app = common::headless(setup);
    app.init_resource::<Ticks>().add_systems(
        FixedUpdate,
        capture.after(GridwalkSystems::Sync).run_if(ticking),
    );
    // The first update only starts the clocks: tick 0, sensing from the starts.
    frame(&mut app, &[]);
    assert_eq!(sim(&app).sensor_range(), Some(2));
    let tick0 = snapshot(sim(&app));
    let mut discovered = 0;
    let mut r = gridwalk::maps::rng(8);
    for t in 1..=60u32 {
        let mut keys = Vec::new();
        match t {
            // Off, then on again with the range the slider holds.
            12 | 30 => keys.push(KeyCode::KeyK),
            20 => app.world_mut().resource_mut::<WorldSettings>().sensor_range = 5,
            // The slider moved while on.
            40 => {
                app.world_mut()
                    .write_message(SimCommand::SetSensing(Some(9)));
            }
            _ => {}
        }
        // Walls the agents must discover.
        if t % 5 == 0 {
            let p = Pos::new(r.below(48) as u32, r.below(36) as u32);
            let terrain = Terrain::Wall;
            app.world_mut().write_message(TileEdit { pos: p, terrain });
        }
        frame(&mut app, &keys);
        discovered += sim(&app).last_discoveries().total();
        match t {
            12..=29 => assert_eq!(sim(&app).sensor_range(), None, "tick {t}"),
            30..=39 => assert_eq!(sim(&app).sensor_range(), Some(5), "tick {t}"),
            40.. => assert_eq!(sim(&app).sensor_range(), Some(9), "tick {t}"),
            _ => assert_eq!(sim(&app).sensor_range(), Some(2), "tick {t}"),
        }
    }
    assert!(discovered > 0, "the agents discovered walls as they walked");
    let state = app.world().resource::<GridSim>();
    assert_eq!(state.segment().reason(), "start", "one segment");
    let scenario = state.segment().to_scenario();
    let ranges: Vec<SensingSpec> = scenario.sensing.clone();
    let (k_off, k_on) = (ranges[1].tick, ranges[2].tick);
    assert_eq!(
        ranges.iter().map(|s| s.range).collect::<Vec<_>>(),
        [2, 0, 5, 9],
        "{ranges:?}"
    );
    assert_eq!(ranges[0].tick, 0);
    assert!(0 < k_off && k_off < k_on && k_on < ranges[3].tick);
    // The recording, written and read back, replays every tick as the game played it.
    let text = scenario.to_ron();
    let read = gridwalk_core::format::Scenario::parse(&text, "fog.ron").unwrap();
    let mut replay = Replay::new(read, sim(&app).config().algorithm);
    let ticks = &app.world().resource::<Ticks>().0;
    assert_eq!(ticks.len(), 60, "one tick per update");
    let history = std::iter::once(&tick0).chain(ticks);
    for (tick, want) in history.enumerate() {
        replay.step();
        assert_eq!(&snapshot(replay.sim()), want, "tick {tick}");
    }
}
