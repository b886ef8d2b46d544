//! The tick clock: pause, single steps and ticks per second.

use std::time::Duration;

use bevy::prelude::*;

/// Whether the simulation runs, and how fast.
#[derive(Resource, Debug, Clone)]
pub struct TickClock {
    /// Paused: `FixedUpdate` still runs, but only steps asked for are ticks.
    pub paused: bool,
    /// Ticks asked for while paused.
    pub steps: u32,
    /// Ticks per second, 1–60.
    pub rate_hz: f64,
    pub(crate) ticking: bool,
}

impl TickClock {
    /// Slowest rate.
    pub const MIN_RATE: f64 = 1.0;
    /// Fastest rate.
    pub const MAX_RATE: f64 = 60.0;
    /// Default rate.
    pub const DEFAULT_RATE: f64 = 10.0;

    /// A running clock at `rate_hz` (clamped to 1–60).
    pub fn new(rate_hz: f64) -> TickClock {
        TickClock {
            paused: false,
            steps: 0,
            rate_hz: clamp_rate(rate_hz),
            ticking: false,
        }
    }

    /// Asks for one tick: pauses if running, so the step is visible.
    pub fn step(&mut self) {
        self.paused = true;
        self.steps = self.steps.saturating_add(1).min(10);
    }

    /// Whether the current `FixedUpdate` run is a tick.
    pub fn ticking(&self) -> bool {
        self.ticking
    }
}

impl Default for TickClock {
    fn default() -> Self {
        TickClock::new(TickClock::DEFAULT_RATE)
    }
}

/// `rate` clamped to 1–60 ticks per second; NaN becomes the default.
pub fn clamp_rate(rate: f64) -> f64 {
    if rate.is_nan() {
        TickClock::DEFAULT_RATE
    } else {
        rate.clamp(TickClock::MIN_RATE, TickClock::MAX_RATE)
    }
}

/// Run condition: this `FixedUpdate` run is a tick.
pub fn ticking(clock: Res<TickClock>) -> bool {
    clock.ticking
}

/// The most game time one frame may advance: a tick's length, but at least this. When ticks
/// cost more than their share of real time, the simulation slows down rather than the frames:
/// at rates up to 20 a second a frame runs at most about one tick, instead of the several
/// that catching up would take (each making the next frame later still).
const MIN_FRAME_ADVANCE_SECS: f64 = 0.05;

/// Keeps the fixed timestep at the clock's rate, and a frame's advance of game time within
/// one tick (see [`MIN_FRAME_ADVANCE_SECS`]).
pub(crate) fn apply_rate(
    clock: Res<TickClock>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virt: ResMut<Time<Virtual>>,
) {
    if !clock.is_changed() {
        return;
    }
    let rate = clamp_rate(clock.rate_hz);
    if (fixed.timestep().as_secs_f64() - 1.0 / rate).abs() > 1e-9 {
        fixed.set_timestep_hz(rate);
    }
    virt.set_max_delta(Duration::from_secs_f64(
        (1.0 / rate).max(MIN_FRAME_ADVANCE_SECS),
    ));
}
