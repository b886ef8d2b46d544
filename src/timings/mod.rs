//! `--timings`: where a frame's CPU time goes, printed on exit as one line.
//!
//! The main world's frame runs from `First` to `Last`; inside it, every fixed step (the
//! tick, from `FixedFirst` to `FixedLast`) is timed apart, so the rest is input, drawing
//! preparation and the panel. Rendering itself runs after `Last`, in the render world: it is
//! the wall time between frames that the main world does not account for.

use std::time::Duration;
use web_time::Instant;

use bevy::app::AppExit;
use bevy::prelude::*;

use crate::sim::SimState;

/// The timings feature.
pub fn plugin(app: &mut App) {
    app.init_resource::<Timings>()
        .add_systems(First, frame_begins)
        .add_systems(Last, (frame_ends, report_on_exit).chain())
        .add_systems(FixedFirst, tick_begins)
        .add_systems(FixedLast, tick_ends);
}

/// Sums since the first frame.
#[derive(Resource, Default, Debug)]
pub struct Timings {
    frames: u64,
    first: Option<Instant>,
    frame_start: Option<Instant>,
    tick_start: Option<Instant>,
    first_tick: Option<u64>,
    /// Main-world time per frame, ticks included.
    main: Duration,
    /// Time in fixed steps.
    fixed: Duration,
    fixed_runs: u64,
}

impl Timings {
    /// The report line: frames per second, ticks per second, and per frame the main world's
    /// milliseconds split into tick and the rest, and the wall time left to rendering.
    pub fn line(&self, ticks: u64) -> String {
        let wall = self
            .first
            .map_or(0.0, |t| t.elapsed().as_secs_f64())
            .max(1e-9);
        let frames = self.frames.max(1) as f64;
        let ms = |d: Duration| d.as_secs_f64() * 1e3 / frames;
        let main = ms(self.main);
        let tick = ms(self.fixed);
        format!(
            "timings: {:.1} s, {} frames ({:.1} fps), {} ticks ({:.1} ticks/s); per frame: main world {:.2} ms = tick {:.2} ms + input, drawing and panel {:.2} ms; rendering and waiting {:.2} ms",
            wall,
            self.frames,
            frames / wall,
            ticks,
            ticks as f64 / wall,
            main,
            tick,
            main - tick,
            (wall * 1e3 / frames - main).max(0.0),
        )
    }
}

fn frame_begins(mut t: ResMut<Timings>) {
    let now = Instant::now();
    t.first.get_or_insert(now);
    t.frame_start = Some(now);
}

fn frame_ends(mut t: ResMut<Timings>, state: Res<SimState>) {
    if let Some(start) = t.frame_start.take() {
        t.main += start.elapsed();
        t.frames += 1;
    }
    t.first_tick.get_or_insert(state.ticks());
}

fn tick_begins(mut t: ResMut<Timings>) {
    t.tick_start = Some(Instant::now());
}

fn tick_ends(mut t: ResMut<Timings>) {
    if let Some(start) = t.tick_start.take() {
        t.fixed += start.elapsed();
        t.fixed_runs += 1;
    }
}

fn report_on_exit(t: Res<Timings>, state: Res<SimState>, mut exits: MessageReader<AppExit>) {
    if exits.read().next().is_some() {
        let ticks = state.ticks() - t.first_tick.unwrap_or(0);
        eprintln!("{}", t.line(ticks));
    }
}
