//! Edits of a cell an agent stands on: held, not refused, and applied at the first tick the
//! cell is free, with an `EditLanded` message; a later edit of the cell replaces a held one;
//! a recording lists the edit at the tick it landed and replays the same run.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::core::format::{Scenario, grid_from_rows};
use bevy_gridwalk::core::scenario::replay::Replay;
use bevy_gridwalk::core::sim::Simulation;
use bevy_gridwalk::core::{Grid, Pos, Terrain};
use bevy_gridwalk::prelude::*;

/// An app on `grid`, one tick per update.
fn app(grid: Grid, settings: GridwalkSettings) -> App {
    let mut app = App::new();
    let plugin = GridwalkPlugin::on_grid(grid).with_settings(settings);
    app.add_plugins(MinimalPlugins)
        .add_plugins(plugin)
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE));
    app
}

fn landed(app: &App) -> Vec<EditLanded> {
    let m = app.world().resource::<Messages<EditLanded>>();
    m.iter_current_update_messages().copied().collect()
}

fn refused(app: &App) -> Vec<Refused> {
    let m = app.world().resource::<Messages<Refused>>();
    m.iter_current_update_messages().cloned().collect()
}

fn sim(app: &App) -> &Simulation {
    app.world().resource::<GridSim>().sim()
}

fn at(app: &App, e: Entity) -> Pos {
    app.world().get::<GridPos>(e).unwrap().0
}

fn wall(pos: Pos) -> TileEdit {
    TileEdit {
        pos,
        terrain: Terrain::Wall,
    }
}

/// Two doorways in a wall; the first agent stands in the upper one when the game walls it,
/// and the second, behind it, was heading through it too.
#[test]
fn a_wall_on_an_agent_lands_when_it_steps_off_and_the_others_go_round() {
    let grid = grid_from_rows(&[
        "....#....",
        "....#....",
        ".........",
        "....#....",
        ".........",
    ])
    .unwrap();
    let mut app = app(grid, GridwalkSettings::default());
    let door = Pos::new(4, 2);
    let first = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 2)), Goal(Pos::new(8, 2))))
        .id();
    app.update();
    app.update();
    app.update();
    let second = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 2)), Goal(Pos::new(8, 1))))
        .id();
    for _ in 0..10 {
        if at(&app, first) == door {
            break;
        }
        app.update();
    }
    assert_eq!(at(&app, first), door, "the first agent reaches the door");
    let id = app.world().get::<GridAgent>(second).unwrap().id;
    assert!(sim(&app).path(id).unwrap().cells.contains(&door));
    app.world_mut().write_message(wall(door));
    app.update();
    // The tick found the agent on the door: the edit waits, and nothing is refused.
    assert!(refused(&app).is_empty(), "{:?}", refused(&app));
    assert!(landed(&app).is_empty());
    assert!(sim(&app).grid().is_passable(door));
    assert_eq!(app.world().resource::<GridSim>().held_edits(), [wall(door)]);
    assert_ne!(at(&app, first), door, "the agent stepped off");
    app.update();
    assert_eq!(
        landed(&app),
        [EditLanded {
            pos: door,
            terrain: Terrain::Wall,
        }]
    );
    assert!(!sim(&app).grid().is_passable(door), "the wall landed");
    assert!(app.world().resource::<GridSim>().held_edits().is_empty());
    let path = sim(&app).path(id).unwrap().cells;
    assert!(
        !path.contains(&door),
        "the second agent goes round: {path:?}"
    );
    for _ in 0..30 {
        app.update();
        assert_ne!(at(&app, second), door);
    }
    assert_eq!(at(&app, first), Pos::new(8, 2));
    assert_eq!(at(&app, second), Pos::new(8, 1));
}

/// An agent shut in a pocket stands still (no path), so an edit of its cell waits for as long
/// as the game keeps it there.
fn shut_in(settings: GridwalkSettings) -> (App, Entity) {
    let grid = grid_from_rows(&[".#......", "##......"]).unwrap();
    let mut app = app(grid, settings);
    let e = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 0)), Goal(Pos::new(6, 0))))
        .id();
    app.update();
    app.update();
    assert_eq!(
        app.world().get::<AgentState>(e).unwrap().0,
        AgentStatus::NoPath
    );
    (app, e)
}

#[test]
fn a_held_edit_waits_as_long_as_the_agent_stays_and_a_later_edit_replaces_it() {
    let (mut app, _) = shut_in(GridwalkSettings::default());
    let cell = Pos::new(0, 0);
    let weighted = TileEdit {
        pos: cell,
        terrain: Terrain::Weight(3),
    };
    app.world_mut().write_message(wall(cell));
    for _ in 0..5 {
        app.update();
        assert!(refused(&app).is_empty() && landed(&app).is_empty());
        assert_eq!(app.world().resource::<GridSim>().held_edits(), [wall(cell)]);
    }
    // A later edit of the cell replaces the held one; one that asks for what the cell already
    // is drops it.
    app.world_mut().write_message(weighted);
    app.update();
    assert_eq!(app.world().resource::<GridSim>().held_edits(), [weighted]);
    app.world_mut().write_message(TileEdit {
        pos: cell,
        terrain: Terrain::FREE,
    });
    app.update();
    assert!(app.world().resource::<GridSim>().held_edits().is_empty());
    // Open the pocket: the agent walks out, and nothing lands on the cell it left.
    app.world_mut().write_message(TileEdit {
        pos: Pos::new(1, 0),
        terrain: Terrain::FREE,
    });
    for _ in 0..4 {
        app.update();
        assert!(landed(&app).is_empty());
    }
    assert_eq!(sim(&app).grid().terrain(cell), Ok(Terrain::FREE));
}

#[test]
fn clear_walls_drops_a_held_wall_and_a_goal_still_refuses() {
    let (mut app, e) = shut_in(GridwalkSettings::default());
    let cell = Pos::new(0, 0);
    app.world_mut().write_message(wall(cell));
    app.update();
    app.world_mut().write_message(ClearWalls);
    app.update();
    assert!(app.world().resource::<GridSim>().held_edits().is_empty());
    for _ in 0..4 {
        app.update();
        assert!(landed(&app).is_empty());
    }
    assert_ne!(at(&app, e), cell, "out of the opened pocket");
    assert!(sim(&app).grid().is_passable(cell));
    // A goal is no cell that frees: its edit is refused at once.
    app.world_mut().write_message(wall(Pos::new(6, 0)));
    app.update();
    let r = refused(&app);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].asked, Asked::Edit(Pos::new(6, 0)));
    assert!(app.world().resource::<GridSim>().held_edits().is_empty());
}

#[test]
fn a_recording_lists_a_held_wall_at_the_tick_it_landed_and_replays() {
    let settings = GridwalkSettings {
        record: true,
        ..Default::default()
    };
    let (mut app, _) = shut_in(settings);
    let cell = Pos::new(0, 0);
    app.world_mut().write_message(wall(cell));
    app.update();
    app.update();
    app.world_mut().write_message(TileEdit {
        pos: Pos::new(1, 0),
        terrain: Terrain::FREE,
    });
    let mut landed_at = None;
    for _ in 0..6 {
        app.update();
        if !landed(&app).is_empty() {
            // The segment's number of the tick just played.
            landed_at = Some(sim(&app).tick_count());
        }
    }
    let tick = landed_at.expect("the wall landed");
    let world = app.world().resource::<GridSim>();
    let recorded: Scenario = world.segment().to_scenario();
    let walls: Vec<u64> = (recorded.edits.iter())
        .filter(|e| e.cells.contains(&cell))
        .map(|e| e.tick)
        .collect();
    assert_eq!(walls, [tick], "listed once, at the tick it landed");
    let text = recorded.to_ron();
    let read = Scenario::parse(&text, "held.ron").unwrap();
    let mut replay = Replay::new(read, world.sim().config().algorithm);
    let played = world.next_tick() - 1;
    for _ in 0..=played {
        replay.step();
    }
    let agents = |s: &Simulation| -> Vec<(Pos, AgentStatus)> {
        s.agents().map(|a| (a.pos, a.status)).collect()
    };
    assert_eq!(agents(replay.sim()), agents(world.sim()));
    assert_eq!(replay.sim().grid(), world.sim().grid());
}
