//! The plugin beside a game's own `FixedUpdate` systems: it ticks at its own rate and leaves
//! the executor, `Time<Fixed>` and `Time<Virtual>` as the game set them, at a fast frame rate
//! and at a slow one.

use std::thread::{self, ThreadId};
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::core::{Grid, Pos};
use bevy_gridwalk::prelude::*;

/// How often the game's own fixed system ran, and on which threads.
#[derive(Resource, Default)]
struct GameRuns {
    count: u32,
    threads: Vec<ThreadId>,
}

fn game_system(mut runs: ResMut<GameRuns>) {
    runs.count += 1;
    let me = thread::current().id();
    if !runs.threads.contains(&me) {
        runs.threads.push(me);
    }
}

/// A game at 64 Hz fixed (Bevy's default) with a 10 Hz plugin and a walker, run for 10 s of
/// game time at `fps` frames a second.
fn run_at(fps: u32) -> App {
    let mut app = App::new();
    let settings = GridwalkSettings {
        ticks_per_second: 10.0,
        ..Default::default()
    };
    app.add_plugins(MinimalPlugins)
        .insert_resource(Time::<Fixed>::from_hz(64.0))
        .add_plugins(GridwalkPlugin::on_grid(Grid::new(40, 3).unwrap()).with_settings(settings))
        .init_resource::<GameRuns>()
        .add_systems(FixedUpdate, game_system)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / fps as f64,
        )));
    app.world_mut()
        .spawn((GridPos(Pos::new(0, 1)), Goal(Pos::new(39, 1))));
    // The first update only starts the clocks.
    for _ in 0..=10 * fps {
        app.update();
    }
    app
}

fn check(fps: u32) {
    let app = run_at(fps);
    let world = app.world();
    let game = world.resource::<GameRuns>();
    assert!(
        (638..=642).contains(&game.count),
        "{fps} fps: the game's 64 Hz system ran {} times in 10 s",
        game.count
    );
    let ticks = world.resource::<GridSim>().ticks();
    assert!(
        (99..=101).contains(&ticks),
        "{fps} fps: the 10 Hz plugin ticked {ticks} times in 10 s"
    );
    let fixed = world.resource::<Time<Fixed>>();
    assert_eq!(fixed.timestep(), Time::<Fixed>::from_hz(64.0).timestep());
    let max_delta = world.resource::<Time<Virtual>>().max_delta();
    assert_eq!(max_delta, Time::<Virtual>::default().max_delta());
    // Bevy's multi-threaded executor runs a system on its task pool, never on the thread
    // that runs the schedule; a single-threaded one runs them all there.
    let main = thread::current().id();
    assert!(
        !game.threads.contains(&main),
        "{fps} fps: the game's fixed system ran on the schedule's own thread"
    );
}

#[test]
fn at_60_fps_the_game_runs_at_64_hz_and_the_plugin_at_10() {
    check(60);
}

#[test]
fn at_15_fps_a_slow_frame_slows_neither() {
    check(15);
}

#[test]
fn the_fraction_between_ticks_grows_from_0_to_1() {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(GridwalkPlugin::on_grid(Grid::new(4, 4).unwrap()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            20,
        )));
    let mut seen = Vec::new();
    for _ in 0..30 {
        app.update();
        let clock = app.world().resource::<TickClock>();
        seen.push(clock.fraction(app.world().resource::<Time<Fixed>>()));
    }
    assert!(seen.iter().all(|f| (0.0..=1.0).contains(f)), "{seen:?}");
    // Each 20 ms frame moves it on by a fifth of a 10 Hz tick, until a tick starts it again.
    let rises = seen.windows(2).filter(|w| w[1] > w[0]).count();
    let falls = seen.windows(2).filter(|w| w[1] < w[0]).count();
    assert!(rises > 3 * falls && falls >= 4, "{seen:?}");
}
