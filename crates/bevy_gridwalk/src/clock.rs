//! The tick clock: pause, single steps, ticks per second, and how far the world is between
//! two ticks.
//!
//! The plugin ticks inside `FixedUpdate` at its own rate and leaves `Time<Fixed>` and
//! `Time<Virtual>` as the game set them: each `FixedUpdate` run adds `Time<Fixed>`'s
//! timestep to the clock, and a run that brings it to a tick's length is a tick. So a tick
//! runs at most once per `FixedUpdate` run: the rate is at most `Time<Fixed>`'s (64 Hz by
//! Bevy's default). A game that wants every `FixedUpdate` run to be a tick sets
//! `Time<Fixed>` to [`TickClock::rate_hz`] itself.

use std::time::Duration;

use bevy::prelude::*;

/// Whether the simulation runs, and how fast. The game may write its public fields at any
/// time; they take effect at the next `FixedUpdate` run.
#[derive(Resource, Debug, Clone, Reflect)]
#[reflect(Resource)]
pub struct TickClock {
    /// Paused: `FixedUpdate` still runs, but only steps asked for are ticks.
    pub paused: bool,
    /// Ticks asked for while paused, one per `FixedUpdate` run (at most 10 wait).
    pub steps: u32,
    /// Ticks per second, clamped to 1–60 when read ([`clamp_rate`]).
    pub rate_hz: f64,
    /// Game time since the last tick.
    since_tick: Duration,
    ticking: bool,
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
            since_tick: Duration::ZERO,
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

    /// The length of a tick at the current rate.
    pub fn period(&self) -> Duration {
        Duration::from_secs_f64(1.0 / clamp_rate(self.rate_hz))
    }

    /// How far the world is from the last tick to the next, 0–1: draw an agent at
    /// `LastCell + (GridPos - LastCell) * fraction`. It counts the clock's own time and
    /// `fixed`'s overstep, so it moves smoothly between `FixedUpdate` runs; 1 while paused.
    pub fn fraction(&self, fixed: &Time<Fixed>) -> f32 {
        if self.paused {
            return 1.0;
        }
        let since = self.since_tick + fixed.overstep();
        (since.as_secs_f64() / self.period().as_secs_f64()).clamp(0.0, 1.0) as f32
    }

    /// Decides whether a `FixedUpdate` run that advanced game time by `dt` is a tick: when
    /// running, once a tick's length has gone by (what is left over counts towards the next,
    /// at most one tick's worth); when paused, while steps are asked for.
    pub(crate) fn advance(&mut self, dt: Duration) {
        self.ticking = if self.paused {
            self.since_tick = Duration::ZERO;
            let step = self.steps > 0;
            self.steps = self.steps.saturating_sub(1);
            step
        } else {
            self.steps = 0;
            self.since_tick += dt;
            let period = self.period();
            // A microsecond of slack: the timestep and the period are rounded to the nanosecond.
            let due = self.since_tick + Duration::from_micros(1) >= period;
            if due {
                self.since_tick = self.since_tick.saturating_sub(period).min(period);
            }
            due
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_comes_once_its_length_has_gone_by_and_the_rest_carries_over() {
        let mut clock = TickClock::new(10.0);
        let step = Duration::from_secs_f64(1.0 / 64.0);
        let ticks = (0..640)
            .filter(|_| {
                clock.advance(step);
                clock.ticking()
            })
            .count();
        assert_eq!(ticks, 100, "10 s of 64 Hz runs at 10 Hz");
        clock.step();
        clock.advance(step);
        assert!(clock.ticking() && clock.paused);
        clock.advance(step);
        assert!(!clock.ticking());
    }

    #[test]
    fn rates_are_clamped() {
        assert_eq!(clamp_rate(0.0), 1.0);
        assert_eq!(clamp_rate(1000.0), 60.0);
        assert_eq!(clamp_rate(f64::NAN), 10.0);
    }
}
