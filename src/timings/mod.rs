//! `--timings`: where a frame's CPU time goes, printed every 10 seconds (that window, with the
//! agents still waiting for their first plan) and on exit (the whole run) as one line each.
//!
//! The main world's frame runs from `First` to `Last`; inside it, every fixed step (the
//! tick, from `FixedFirst` to `FixedLast`) is timed apart, so the rest is input, drawing
//! preparation and the panel. Rendering itself runs after `Last`, in the render world: it is
//! the wall time between frames that the main world does not account for.

use std::time::Duration;
use web_time::Instant;

use bevy::app::AppExit;
use bevy::prelude::*;

use crate::sim::GridSim;

/// The timings feature.
pub fn plugin(app: &mut App) {
    app.init_resource::<Timings>()
        .add_systems(First, frame_begins)
        .add_systems(Last, (frame_ends, report_on_exit).chain())
        .add_systems(FixedFirst, tick_begins)
        .add_systems(FixedLast, tick_ends);
}

/// Seconds between the periodic lines.
const WINDOW_SECS: f64 = 10.0;

/// Frame and tick time summed over a stretch of the run.
#[derive(Default, Debug, Clone, Copy)]
struct Sums {
    since: Option<Instant>,
    first_tick: u64,
    frames: u64,
    /// Main-world time, ticks included.
    main: Duration,
    /// Time in fixed steps.
    fixed: Duration,
}

impl Sums {
    fn starting(now: Instant, tick: u64) -> Sums {
        Sums {
            since: Some(now),
            first_tick: tick,
            ..Sums::default()
        }
    }

    /// Frames per second, ticks per second, and per frame the main world's milliseconds
    /// split into tick and the rest, and the wall time left to rendering.
    fn line(&self, label: &str, tick: u64) -> String {
        let wall = self
            .since
            .map_or(0.0, |t| t.elapsed().as_secs_f64())
            .max(1e-9);
        let ticks = tick.saturating_sub(self.first_tick);
        let frames = self.frames.max(1) as f64;
        let ms = |d: Duration| d.as_secs_f64() * 1e3 / frames;
        let main = ms(self.main);
        let fixed = ms(self.fixed);
        format!(
            "{label}: {:.1} s, {} frames ({:.1} fps), {} ticks ({:.1} ticks/s); per frame: main world {:.2} ms = tick {:.2} ms + input, drawing and panel {:.2} ms; rendering and waiting {:.2} ms",
            wall,
            self.frames,
            frames / wall,
            ticks,
            ticks as f64 / wall,
            main,
            fixed,
            main - fixed,
            (wall * 1e3 / frames - main).max(0.0),
        )
    }
}

/// The sums of the whole run and of the current 10-second window.
#[derive(Resource, Default, Debug)]
pub struct Timings {
    total: Sums,
    window: Sums,
    frame_start: Option<Instant>,
    tick_start: Option<Instant>,
}

impl Timings {
    /// The whole run's line, as printed on exit.
    pub fn line(&self, tick: u64) -> String {
        self.total.line("timings", tick)
    }
}

fn frame_begins(mut t: ResMut<Timings>) {
    t.frame_start = Some(Instant::now());
}

fn frame_ends(mut timings: ResMut<Timings>, state: Res<GridSim>) {
    let t = &mut *timings;
    let Some(start) = t.frame_start.take() else {
        return;
    };
    let tick = state.ticks();
    if t.total.since.is_none() {
        t.total = Sums::starting(start, tick);
        t.window = t.total;
    }
    let spent = start.elapsed();
    for sums in [&mut t.total, &mut t.window] {
        sums.main += spent;
        sums.frames += 1;
    }
    if t.window
        .since
        .is_some_and(|w| w.elapsed().as_secs_f64() >= WINDOW_SECS)
    {
        let waiting = state.sim().backlog();
        eprintln!(
            "{}; {waiting} agents planning",
            t.window.line("timings, last 10 s", tick)
        );
        t.window = Sums::starting(Instant::now(), tick);
    }
}

fn tick_begins(mut t: ResMut<Timings>) {
    t.tick_start = Some(Instant::now());
}

fn tick_ends(mut timings: ResMut<Timings>) {
    let t = &mut *timings;
    if let Some(start) = t.tick_start.take() {
        let spent = start.elapsed();
        t.total.fixed += spent;
        t.window.fixed += spent;
    }
}

fn report_on_exit(t: Res<Timings>, state: Res<GridSim>, mut exits: MessageReader<AppExit>) {
    if exits.read().next().is_some() {
        eprintln!("{}", t.line(state.ticks()));
    }
}
